package cegar

import (
	"fmt"
	"slices"

	"fencer/cs"
	"fencer/domains"
	"fencer/kabs"
)

// The partial-order reduction of the exploration (the argument is in
// doc.go, "Partial-order reduction"). A state is expanded by an ample set:
// the steps of one process whose next steps are all local (kabs.Abs.Local)
// and invisible (they neither leave nor enter a location of a bad state)
// and none of which closes a cycle of local edges of p's control-flow graph
// (the cycle proviso), provided at least one of them is enabled; otherwise
// by every step.
//
// The cycle proviso with values: a back edge of the control-flow graph
// that closes no cycle once p's values are known does not need a fully
// expanded state. A loop `while (again == 1) { again = 0; ... }` whose
// body sets again again only after a read is a cycle of local edges of
// the graph (the branches that skip the read when again is 1), but not
// of p's local steps: again is 0 there. So when p has a local skeleton
// (domains.LocalSkeleton: its locations and the values of its locals
// with a static domain, every other value unknown), the proviso is
// decided per node of the skeleton: a step by edge e from a state whose
// process p is at node n is kept out of an ample set when e is a back
// edge (backEdges) and the arc (n, e) lies on a cycle of the skeleton's
// local arcs (both ends in one strongly connected component of the graph
// of the arcs whose edges may be local). A location with no back edge out
// of it needs no look at the values; one with a back edge is a
// conditional candidate (procCandidate), decided by the state's values
// (blocked).
//
// Why C3 still holds: take a cycle of the reduced graph through states
// that are not fully expanded. Its steps are ample, so local; each
// process q that moves along it comes back to the same location and
// values, and each of its steps is an arc of q's skeleton between the
// nodes of the states before and after it (domains.LocalSkeleton says
// why), so its steps form a closed walk of the skeleton's local arcs. A
// closed walk holds a cycle C of arcs; C's edges form a closed walk of
// the control-flow graph's local edges, which holds a cycle of it, which
// holds a back edge e of the search. The arc of C by e lies on the cycle
// C, so it is kept out of every ample set: the step by it was not ample,
// a contradiction. With the symmetry reduction, an automorphism maps a
// process's skeleton onto its image's (the same automaton and domains,
// renamed), so the proviso is invariant as the static one is.

// porInfo is what the reduction needs of one exploration.
type porInfo struct {
	visible [][]bool // kabs.Visibility
	// back marks, per process, the edges that close a cycle of edges that
	// may be local (backEdges): an ample set holds none of them.
	back [][]bool
	// skel holds, per process, what the proviso with values needs
	// (valProviso), nil for a process without a local skeleton.
	skel []*valProviso
	// reduced and full count the stored states expanded by an ample set
	// and by every step, passed the states passed through (forward),
	// succs the successors computed (stored or found again), and woken the
	// re-expansions of the sleep sets (sleep.go).
	reduced, full, passed, succs, woken int
}

// noValueProviso turns the proviso with values off (tests compare).
var noValueProviso = false

// valProviso is the cycle proviso with values of one process: its local
// skeleton, the positions of its tracked locals in the layout, and per
// node whether an arc by a back edge out of it lies on a cycle of local
// arcs.
type valProviso struct {
	sk   *domains.LocalSkeleton
	pos  []int
	stop []bool
}

// newPorInfo returns the reduction's tables for an exploration of sys
// with layout lay (nil: the static proviso only).
func newPorInfo(abs *kabs.Abs, info *domains.Info, lay *domains.Layout) *porInfo {
	r := &porInfo{visible: kabs.Visibility(abs.Sys)}
	for pi, p := range abs.Sys.Procs {
		local := func(op cs.Op) bool { return abs.MayBeLocal(pi, op) }
		back := backEdges(p, local)
		r.back = append(r.back, back)
		r.skel = append(r.skel, newValProviso(p, back, local, info, lay))
	}
	return r
}

// newValProviso returns the proviso with values of p, nil when p has no
// back edge, no local skeleton, or a tracked local without a position.
func newValProviso(p *cs.Process, back []bool, local func(cs.Op) bool, info *domains.Info, lay *domains.Layout) *valProviso {
	if noValueProviso || info == nil || lay == nil || !slices.Contains(back, true) {
		return nil
	}
	sk := info.LocalSkeleton(p)
	if sk == nil {
		return nil
	}
	v := &valProviso{sk: sk, stop: make([]bool, len(sk.Locs))}
	for _, n := range sk.Vars {
		i, ok := lay.Index(n)
		if !ok {
			return nil
		}
		v.pos = append(v.pos, i)
	}
	comp := sk.SCCs(func(a domains.SkelArc) bool { return local(p.Edges[a.Edge].Op) })
	for _, a := range sk.Arcs {
		if back[a.Edge] && local(p.Edges[a.Edge].Op) && comp[a.From] == comp[a.To] {
			v.stop[a.From] = true
		}
	}
	return v
}

// blocked reports whether process p, at location loc in a state with
// values vals, may not take its conditional candidate ample set: the
// node of its values has an arc by a back edge on a cycle of local arcs
// (or, which no run reaches, the values are no node of the skeleton).
// buf and kb are the caller's scratch.
func (r *porInfo) blocked(p int, loc cs.Loc, vals []int64, buf *[]int64, kb *[]byte) bool {
	v := r.skel[p]
	t := (*buf)[:0]
	for _, i := range v.pos {
		t = append(t, vals[i])
	}
	*buf = t
	n, ok, b := v.sk.Node(loc, t, *kb)
	*kb = b
	return !ok || v.stop[n]
}

// backEdges marks the back edges of a depth-first search of the subgraph
// of p's control-flow graph made of the edges that may be local (local:
// kabs.Abs.MayBeLocal), from location 0 and then from every location not yet
// reached: the edges that enter a location on the search stack. Every
// cycle of that subgraph holds one: the first of its locations the search
// reaches is an ancestor of all the others, so the cycle's edge into it
// enters the stack. A cycle through a read needs none.
func backEdges(p *cs.Process, local func(cs.Op) bool) []bool {
	back := make([]bool, len(p.Edges))
	const (
		white = iota
		onStack
		done
	)
	color := make([]uint8, p.NumLocs)
	type frame struct{ loc, next int }
	for root := 0; root < p.NumLocs; root++ {
		if color[root] != white {
			continue
		}
		color[root] = onStack
		stack := []frame{{root, 0}}
		for len(stack) > 0 {
			f := &stack[len(stack)-1]
			out := p.Out[f.loc]
			if f.next == len(out) {
				color[f.loc] = done
				stack = stack[:len(stack)-1]
				continue
			}
			ei := out[f.next]
			f.next++
			if !local(p.Edges[ei].Op) {
				continue
			}
			to := int(p.Edges[ei].To)
			switch color[to] {
			case onStack:
				back[ei] = true
			case white:
				color[to] = onStack
				stack = append(stack, frame{to, 0})
			}
		}
	}
	return back
}

// porApplies reports whether the exploration may use the reduction: only
// when every variable of the system is finite, so that the abstract state
// is the control state and explicit values with no predicate cube and every
// step is exact evaluation (see doc.go for why cubes would break the
// commutation of independent steps).
func (e *engine) porApplies() bool {
	return !e.opt.NoReduction && e.info != nil && e.info.AllFinite()
}

// procCandidate returns, for the control state c and the steps succs of
// process p there (kabs.Abs.ProcSuccessors), the indices in succs of p's
// candidate ample set: its edge steps when p's edges out of its location
// are all local, invisible and not back edges (backEdges) and it has one;
// nil otherwise. When some are back edges and p has a local skeleton, the
// candidate is conditional (cond): the values of a state decide whether it
// may be taken (blocked). It reads only p's part of c, as the steps do.
// Locality is decided with an exact part k writes long (abs.K, or the
// bound of a staged exploration's first stage: stage.go).
func (r *porInfo) procCandidate(abs *kabs.Abs, c *kabs.Ctl, p int, succs []kabs.Succ, k int) (idx []int32, cond bool) {
	proc := abs.Sys.Procs[p]
	if len(proc.Out[c.PC[p]]) == 0 || !abs.LocalUnder(c, p, k) || r.visible[p][c.PC[p]] {
		return nil, false
	}
	for _, ei := range proc.Out[c.PC[p]] {
		if r.back[p][ei] {
			if r.skel[p] == nil {
				return nil, false
			}
			cond = true
		}
	}
	for i := range succs {
		s := &succs[i]
		if s.Step.Proc != p || s.Step.Edge < 0 {
			continue
		}
		if r.visible[p][proc.Edges[s.Step.Edge].To] {
			return nil, false
		}
		idx = append(idx, int32(i))
	}
	return idx, cond
}

// note describes the reduction for the exploration's log line.
func (r *porInfo) note() string {
	if r == nil {
		return ""
	}
	return fmt.Sprintf(", partial-order reduction: %d states passed through, %d successors, %d of %d stored states expanded by one process, %d re-expanded", r.passed, r.succs, r.reduced, r.reduced+r.full, r.woken)
}

func contains(s []int32, x int32) bool {
	for _, y := range s {
		if y == x {
			return true
		}
	}
	return false
}
