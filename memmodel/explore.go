package memmodel

import (
	"context"
	"fmt"

	"fencer/statestore"
)

// Verdict is the outcome of an explicit search.
type Verdict uint8

const (
	Safe    Verdict = iota // the whole state space was explored, no bad state
	Unsafe                 // a bad state is reachable; Result.Trace leads to it
	Bounded                // no bad state within the bounds (the search was cut)
)

var verdictNames = [...]string{"safe", "unsafe", "no bug within bounds"}

func (v Verdict) String() string { return verdictNames[v] }

// Limits bound an explicit search; zero means the default.
type Limits struct {
	MaxStates int // distinct states stored (default 1,000,000)
	MaxDepth  int // steps from the initial state (default unlimited)
}

// Result of Explore.
type Result struct {
	Verdict Verdict
	Trace   *Trace // a shortest trace to a bad state when Unsafe
	States  int    // distinct states visited
	Depth   int    // the deepest BFS level reached
	Reason  string // why the search is Bounded
	// StoreBytes is the memory of the visited set (stateSet, as allocated).
	StoreBytes int64
}

// node is what the search keeps of a state beside the visited set (which
// holds its parent): the step that reached it, packed, and its depth.
type node struct {
	proc, edge, v, depth int32
	val                  int64
}

func packStep(s Step, depth int32) node {
	return node{proc: int32(s.Proc), edge: int32(s.Edge), v: int32(s.Var), depth: depth, val: s.Val}
}

func (n node) step() Step {
	return Step{Proc: int(n.proc), Edge: int(n.edge), Var: int(n.v), Val: n.val}
}

// Explore searches the state space of c breadth first and stops at the first
// bad state, so the trace it returns is a shortest one. Its memory is bounded
// by lim.MaxStates: the states are kept compactly (stateSet), the queue is
// their numbering.
func (c *Concrete) Explore(ctx context.Context, lim Limits) (*Result, error) {
	if lim.MaxStates <= 0 {
		lim.MaxStates = 1_000_000
	}
	res := &Result{}
	set, err := newStateSet(c)
	if err != nil {
		return nil, err
	}
	defer func() { res.StoreBytes = set.bytes() }()
	// nodes[i] is the state i of set: they are numbered alike, in the
	// order of the breadth-first search, which is then the queue.
	var nodes []node
	inits := map[int32][]int64{}
	cut := ""
	for _, s := range c.Initials(lim.MaxStates) {
		_, fresh, err := set.insert(s, statestore.NoParent)
		if err != nil {
			return nil, err
		}
		if !fresh {
			continue
		}
		nodes = append(nodes, node{})
		inits[int32(len(nodes)-1)] = s.Vals
		if c.Sys.IsBad(s.PC) {
			res.Verdict, res.Trace, res.States = Unsafe, &Trace{Init: s.Vals}, len(nodes)
			return res, nil
		}
	}
	for head := 0; head < len(nodes); head++ {
		if head&1023 == 0 && ctx.Err() != nil {
			cut = "interrupted"
			break
		}
		si := int32(head)
		s := set.state(uint32(head))
		d := nodes[si].depth
		if int(d) > res.Depth {
			res.Depth = int(d)
		}
		if lim.MaxDepth > 0 && int(d) >= lim.MaxDepth {
			cut = fmt.Sprintf("depth limit %d reached", lim.MaxDepth)
			continue
		}
		steps, succ, err := c.Successors(s)
		if err != nil {
			return nil, fmt.Errorf("after %d steps: %v", d, err)
		}
		for i, t := range succ {
			if len(nodes) >= lim.MaxStates {
				seen, err := set.has(t)
				if err != nil {
					return nil, err
				}
				if seen {
					continue
				}
				cut = fmt.Sprintf("state limit %d reached", lim.MaxStates)
				break
			}
			_, fresh, err := set.insert(t, uint32(si))
			if err != nil {
				return nil, err
			}
			if !fresh {
				continue
			}
			ti := int32(len(nodes))
			nodes = append(nodes, packStep(steps[i], d+1))
			if c.Sys.IsBad(t.PC) {
				res.Verdict, res.States = Unsafe, len(nodes)
				res.Trace = traceTo(set, nodes, ti, inits)
				return res, nil
			}
		}
	}
	res.States = len(nodes)
	switch {
	case cut != "":
		res.Verdict, res.Reason = Bounded, cut
	case c.HasNondet():
		res.Verdict = Bounded
		res.Reason = fmt.Sprintf("nondeterministic values were tried only from %v", c.nondv)
	default:
		res.Verdict = Safe
	}
	return res, nil
}

func traceTo(set *stateSet, nodes []node, i int32, inits map[int32][]int64) *Trace {
	var steps []Step
	for p := set.ss.Parent(uint32(i)); p != statestore.NoParent; p = set.ss.Parent(uint32(i)) {
		steps = append(steps, nodes[i].step())
		i = int32(p)
	}
	for l, r := 0, len(steps)-1; l < r; l, r = l+1, r-1 {
		steps[l], steps[r] = steps[r], steps[l]
	}
	return &Trace{Init: inits[i], Steps: steps}
}

// IsBadState reports whether s is a bad state of the system.
func (c *Concrete) IsBadState(s *State) bool { return c.Sys.IsBad(s.PC) }
