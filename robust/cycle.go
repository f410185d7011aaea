package robust

import (
	"fmt"
	"strings"

	"fencer/cs"
	"fencer/memmodel"
)

// MaxSearchStates bounds the states (access, set of visited processes) the
// cycle search stores per Analyze. Past it, a pair whose search was cut is
// assumed to lie on a critical cycle (sound: it may only cost fences).
const MaxSearchStates = 2_000_000

// Segment is the visit of a critical cycle to one process: from access
// First to access Last in program order (First == Last for a visit of one
// access).
type Segment struct {
	First, Last int
}

// Cycle is a critical cycle: Segments[0] is the relaxed pair, each segment
// is in its own process, and the last access of each conflicts with the
// first access of the next (cyclically). Nil Segments beyond the first
// means the search was cut and the cycle is only assumed.
type Cycle struct {
	Segments []Segment
	Assumed  bool // the search hit MaxSearchStates: the pair is assumed critical
}

// Pair is a relaxed pair that lies on a critical cycle: accesses A and B of
// one process, A a buffered write, B a read (or, under PSO, a buffered
// write) of another variable, B after A in program order. Under a model
// with Axioms, A and B are any two accesses of one process to different
// variables whose order the model does not keep (RelaxedKind).
type Pair struct {
	A, B  int
	Cycle *Cycle
}

// Analysis is the result of Analyze.
type Analysis struct {
	Graph *Graph
	Model memmodel.Model
	// Critical lists the pairs of the relaxed kind of the model that lie on
	// a critical cycle, whether or not a fence cuts them: the cycles do not
	// depend on fences, only whether a pair is relaxed does.
	Critical []Pair
	States   int // states of the cycle search
}

// Analyze builds the conflict graph of sys and finds the critical pairs
// under m.
func Analyze(sys *cs.System, m memmodel.Model) *Analysis {
	g := NewGraph(sys)
	g.setModel(m)
	an := &Analysis{Graph: g, Model: m}
	if !m.Layout().Buffered() && m.Axioms() == nil {
		return an // SC: nothing is relaxed
	}
	// exits[s] lists the accesses at which a visit entering its process at s
	// may leave it: s and the accesses after it in program order that have
	// conflicts.
	exits := make([][]int, len(g.Acc))
	exitsOf := func(s int) []int {
		if exits[s] == nil {
			out := []int{s}
			for _, t := range g.Acc {
				if t.ID != s && t.Proc == g.Acc[s].Proc && len(g.conf[t.ID]) > 0 && g.PoBefore(s, t.ID) {
					out = append(out, t.ID)
				}
			}
			exits[s] = out
		}
		return exits[s]
	}
	budget := MaxSearchStates
	// Every access that starts a pair of the relaxed kind: the buffered
	// writes under TSO and PSO, reads and writes alike under the models
	// with Axioms.
	for _, w := range g.Acc {
		var bs []int
		for _, b := range g.Acc {
			if RelaxedKind(m, w, b) && g.PoBefore(w.ID, b.ID) {
				bs = append(bs, b.ID)
			}
		}
		if len(bs) == 0 {
			continue
		}
		s := &search{g: g, target: w.ID, home: w.Proc, seen: map[stateKey]bool{}, exits: exitsOf, budget: &budget}
		for _, b := range bs {
			segs, ok := s.from(b)
			switch {
			case s.cut:
				an.Critical = append(an.Critical, Pair{A: w.ID, B: b, Cycle: &Cycle{Segments: []Segment{{w.ID, b}}, Assumed: true}})
			case ok:
				an.Critical = append(an.Critical, Pair{A: w.ID, B: b, Cycle: &Cycle{Segments: append([]Segment{{w.ID, b}}, segs...)}})
			}
		}
		an.States += len(s.seen)
	}
	return an
}

type stateKey struct {
	acc  int
	mask uint64
}

// search looks for a path back to target from the last access of a visit:
// conflict edges into processes not visited yet, each followed by a
// program-order step inside that process, ending with a conflict into
// target. Processes are bits of mask (MaxProcs is 64).
type search struct {
	g      *Graph
	target int
	home   int
	seen   map[stateKey]bool
	exits  func(int) []int
	budget *int
	cut    bool
}

// from returns the segments after the home visit that close a cycle from
// the relaxed pair ending at b.
func (s *search) from(b int) ([]Segment, bool) {
	s.cut = false
	if *s.budget <= 0 {
		// A state marked seen by an earlier search may have been left half
		// explored when the budget ran out: no "no cycle" answer from now on.
		s.cut = true
		return nil, true
	}
	return s.dfs(b, uint64(1)<<uint(s.home))
}

func (s *search) dfs(t int, mask uint64) ([]Segment, bool) {
	for _, u := range s.g.conf[t] {
		ua := s.g.Acc[u]
		if mask&(1<<uint(ua.Proc)) != 0 {
			continue
		}
		nmask := mask | 1<<uint(ua.Proc)
		for _, v := range s.exits(u) {
			for _, c := range s.g.conf[v] {
				if c == s.target {
					return []Segment{{u, v}}, true
				}
			}
			k := stateKey{v, nmask}
			if s.seen[k] {
				continue
			}
			if *s.budget <= 0 {
				s.cut = true
				return nil, true
			}
			*s.budget--
			s.seen[k] = true
			if rest, ok := s.dfs(v, nmask); ok {
				if s.cut {
					return nil, true
				}
				return append([]Segment{{u, v}}, rest...), true
			}
		}
	}
	return nil, false
}

// Robust reports whether no critical pair is relaxed with the fences at
// the sites in fenced installed (nil: the fences of the program only), and
// if not, a critical pair that is still relaxed. The installed fences are
// full ones (RobustFences takes a kind per site).
func (an *Analysis) Robust(fenced map[int]bool) (bool, *Pair) {
	return an.RobustKinds(fenced, nil)
}

// RobustKinds is Robust with full fences at the sites in full and store
// fences at the sites in store installed: a store fence cuts the
// write→write pairs it lies between, not the write→read ones.
// (RobustFences takes a fence kind per site.)
func (an *Analysis) RobustKinds(full, store map[int]bool) (bool, *Pair) {
	if an.Graph.weak() {
		return an.RobustFences(fullStoreKinds(full, store))
	}
	for i := range an.Critical {
		p := &an.Critical[i]
		if _, ok := an.Graph.FreePathKinds(p.A, p.B, full, store); ok {
			return false, p
		}
	}
	return true, nil
}

// IsRobust is Analyze(sys, m).Robust(nil).
func IsRobust(sys *cs.System, m memmodel.Model) bool {
	ok, _ := Analyze(sys, m).Robust(nil)
	return ok
}

// Describe writes a critical cycle as source lines: "P[0] writes flag[0]
// (line 20) then reads flag[1] (line 22); P[1] writes flag[1] (line 20)
// then reads flag[0] (line 22)".
func (an *Analysis) Describe(c *Cycle) string {
	var parts []string
	for _, sg := range c.Segments {
		parts = append(parts, an.describeSegment(sg))
	}
	s := strings.Join(parts, "; ")
	if c.Assumed {
		s += "; … (the cycle search hit its limit: this pair is assumed to lie on a critical cycle)"
	}
	return s
}

func (an *Analysis) describeSegment(sg Segment) string {
	g := an.Graph
	a := g.Acc[sg.First]
	s := fmt.Sprintf("%s %s", g.Sys.Procs[a.Proc].Name, an.accessText(a))
	if sg.Last != sg.First {
		s += " then " + an.accessText(g.Acc[sg.Last])
	}
	return s
}

func (an *Analysis) accessText(a *Access) string {
	verb := "reads"
	if a.Write {
		verb = "writes"
	}
	if a.Atomic {
		verb = "atomically " + verb
	}
	return fmt.Sprintf("%s %s (line %d)", verb, a.Var, an.Graph.Sys.File.Line(a.Pos))
}
