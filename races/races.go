package races

import (
	"context"
	"fmt"
	"sort"

	"fencer/cs"
	"fencer/memmodel"
)

// Order is the C11 order of an access or a fence.
type Order uint8

const (
	// Plain is a non-atomic access (not _Atomic, not volatile): the only
	// kind that races.
	Plain Order = iota
	// Relaxed is an atomic access without order; for a fence, none.
	Relaxed
	Acquire
	Release
	AcqRel
	SeqCst
	// Volatile is a volatile access: fencer's C front end does not count
	// it as one that races (docs/c.md), and as it is not atomic it
	// synchronises nothing, fences or not (a volatile write ends every
	// release sequence, as a plain one does).
	Volatile
)

var orderNames = [...]string{"plain", "relaxed", "acquire", "release", "acq_rel", "seq_cst", "volatile"}

func (o Order) String() string {
	if int(o) < len(orderNames) {
		return orderNames[o]
	}
	return fmt.Sprintf("Order(%d)", o)
}

func (o Order) acquires() bool { return o == Acquire || o == AcqRel || o == SeqCst }
func (o Order) releases() bool { return o == Release || o == AcqRel || o == SeqCst }

// OfAnn is the order of an atomic step (cs.OpAtomic) whose Op.Ann is a:
// acquire and release (a seq_cst or acq_rel step, and every step a front
// end leaves without an order: locks, thread starts and joins), acquire,
// release, or relaxed.
func OfAnn(a cs.Ann) Order {
	switch {
	case a&cs.Acquire != 0 && a&cs.Release != 0:
		return AcqRel
	case a&cs.Acquire != 0:
		return Acquire
	case a&cs.Release != 0:
		return Release
	}
	return Relaxed
}

// Orders gives the order of edge e of process p of the system: of its
// access for an OpRead or OpWrite (Plain for a non-atomic one); of the
// step for an OpAtomic (every access in it is atomic); of the fence for
// an OpFence (Relaxed: it synchronises nothing). Other edges are not
// asked.
type Orders func(p, e int) Order

// Limits bound the search; zero means the default.
type Limits struct {
	MaxStates int // distinct states (default DefaultMaxStates)
}

// DefaultMaxStates is the default Limits.MaxStates.
const DefaultMaxStates = 200_000

// Access is one access of a race.
type Access struct {
	Proc  int // index in System.Procs
	Edge  int // index in the process's Edges
	Pos   cs.Pos
	Write bool
	Plain bool
}

// Race is a data race: two conflicting accesses to Var, at least one of
// them plain, by different processes, neither happening before the other
// in the run Run.
type Race struct {
	Var string // the shared variable (System.Shared name)
	// First is the access made earlier in Run, Second the one Run's last
	// step makes.
	First, Second Access
	// Init and Run are the run: the initial values (memmodel slot order)
	// and the steps from the initial state, a shortest run that reaches
	// Second with First not happening before it.
	Init []int64
	Run  []memmodel.Step
}

// Result is what Find found.
type Result struct {
	// Races holds one race per variable that has one, sorted by the
	// position of First then Second.
	Races []Race
	// Vars are the variables checked: those with a plain access,
	// accessed by two processes, written by one. No other can race.
	Vars []string
	// States is the number of states explored.
	States int
	// Complete is true when every SC run was explored (no limit hit, no
	// nondeterministic value guessed): a variable of Vars without a race
	// has none. Why says what was cut when it is false.
	Complete bool
	Why      string
}

// Find explores the SC runs of sys and returns its data races, the
// orders of its accesses and fences given by orders. The context stops
// the search (Complete is then false).
func Find(ctx context.Context, sys *cs.System, orders Orders, lim Limits) (*Result, error) {
	if lim.MaxStates <= 0 {
		lim.MaxStates = DefaultMaxStates
	}
	if _, err := memmodel.ForBuffers(sys, memmodel.SC); err != nil {
		return nil, err
	}
	s := newSearch(sys, orders)
	res := &Result{Complete: true}
	for _, x := range s.cands {
		res.Vars = append(res.Vars, sys.Shared[x].Name)
	}
	if len(s.cands) == 0 {
		return res, nil
	}
	if err := s.run(ctx, lim, res); err != nil {
		return nil, err
	}
	sort.SliceStable(res.Races, func(i, j int) bool {
		a, b := res.Races[i], res.Races[j]
		if a.First.Pos != b.First.Pos {
			return a.First.Pos < b.First.Pos
		}
		return a.Second.Pos < b.Second.Pos
	})
	return res, nil
}
