package cegar

import (
	"fmt"

	"fencer/cs"
	"fencer/kabs"
)

// The partial-order reduction of the exploration (the argument is in
// doc.go, "Partial-order reduction"). A state is expanded by an ample set:
// the steps of one process whose next steps are all local (kabs.Abs.Local)
// and invisible (they neither leave nor enter a location of a bad state)
// and none of which closes a cycle of local edges of p's control-flow graph
// (the cycle proviso), provided at least one of them is enabled; otherwise
// by every step.

// porInfo is what the reduction needs of one exploration.
type porInfo struct {
	visible [][]bool // kabs.Visibility
	// back marks, per process, the edges that close a cycle of edges that
	// may be local (backEdges): an ample set holds none of them.
	back [][]bool
	// reduced and full count the stored states expanded by an ample set
	// and by every step, passed the states passed through (forward).
	reduced, full, passed int
}

func newPorInfo(sys *cs.System) *porInfo {
	r := &porInfo{visible: kabs.Visibility(sys)}
	for _, p := range sys.Procs {
		r.back = append(r.back, backEdges(p))
	}
	return r
}

// mayBeLocal reports whether an edge of kind k can be a local step in some
// control state (kabs.Abs.Local): reads and atomic blocks never are.
func mayBeLocal(k cs.OpKind) bool {
	switch k {
	case cs.OpAssign, cs.OpAssume, cs.OpHavoc, cs.OpFence, cs.OpWrite:
		return true
	}
	return false
}

// backEdges marks the back edges of a depth-first search of the subgraph
// of p's control-flow graph made of the edges that may be local
// (mayBeLocal), from location 0 and then from every location not yet
// reached: the edges that enter a location on the search stack. Every
// cycle of that subgraph holds one: the first of its locations the search
// reaches is an ancestor of all the others, so the cycle's edge into it
// enters the stack. A cycle through a read needs none.
func backEdges(p *cs.Process) []bool {
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
			if !mayBeLocal(p.Edges[ei].Op.Kind) {
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
// nil otherwise. It reads only p's part of c, as the steps do.
func (r *porInfo) procCandidate(abs *kabs.Abs, c *kabs.Ctl, p int, succs []kabs.Succ) []int32 {
	proc := abs.Sys.Procs[p]
	if len(proc.Out[c.PC[p]]) == 0 || !abs.Local(c, p) || r.visible[p][c.PC[p]] {
		return nil
	}
	for _, ei := range proc.Out[c.PC[p]] {
		if r.back[p][ei] {
			return nil
		}
	}
	var idx []int32
	for i := range succs {
		s := &succs[i]
		if s.Step.Proc != p || s.Step.Edge < 0 {
			continue
		}
		if r.visible[p][proc.Edges[s.Step.Edge].To] {
			return nil
		}
		idx = append(idx, int32(i))
	}
	return idx
}

// note describes the reduction for the exploration's log line.
func (r *porInfo) note() string {
	if r == nil {
		return ""
	}
	return fmt.Sprintf(", partial-order reduction: %d states passed through, %d of %d stored states expanded by one process", r.passed, r.reduced, r.reduced+r.full)
}

func contains(s []int32, x int32) bool {
	for _, y := range s {
		if y == x {
			return true
		}
	}
	return false
}
