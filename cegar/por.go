package cegar

import (
	"fmt"
	"sort"

	"fencer/cs"
	"fencer/kabs"
)

// The partial-order reduction of the exploration (the argument is in
// doc.go, "Partial-order reduction"). A state is expanded by an ample set:
// the steps of one process whose next steps are all local (kabs.Abs.Local)
// and invisible (they neither leave nor enter a location of a bad state),
// provided at least one of them is enabled and every state they produce is
// new; otherwise by every step.

// porInfo is what the reduction needs of one exploration.
type porInfo struct {
	visible [][]bool // kabs.Visibility
	// reduced and full count the states expanded by an ample set and by
	// every step.
	reduced, full, proviso int
}

func newPorInfo(sys *cs.System) *porInfo {
	return &porInfo{visible: kabs.Visibility(sys)}
}

// porApplies reports whether the exploration may use the reduction: only
// when every variable of the system is finite, so that the abstract state
// is the control state and explicit values with no predicate cube and every
// step is exact evaluation (see doc.go for why cubes would break the
// commutation of independent steps).
func (e *engine) porApplies() bool {
	return !e.opt.NoReduction && e.info != nil && e.info.AllFinite()
}

// candidates returns, for the control state c with successors succs, the
// candidate ample sets: per process whose edges out of its location are all
// local and invisible, the indices in succs of its edge steps; fewest steps
// first.
func (r *porInfo) candidates(abs *kabs.Abs, c *kabs.Ctl, succs []ctlSucc) [][]int {
	var out [][]int
	for p, proc := range abs.Sys.Procs {
		if len(proc.Out[c.PC[p]]) == 0 || !abs.Local(c, p) {
			continue
		}
		var idx []int
		ok := !r.visible[p][c.PC[p]]
		for i := range succs {
			s := &succs[i]
			if s.step.Proc != p || s.step.Edge < 0 {
				continue
			}
			if r.visible[p][proc.Edges[s.step.Edge].To] {
				ok = false
				break
			}
			idx = append(idx, i)
		}
		if ok && len(idx) > 0 {
			out = append(out, idx)
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return len(out[i]) < len(out[j]) })
	return out
}

// note describes the reduction for the exploration's log line.
func (r *porInfo) note() string {
	if r == nil {
		return ""
	}
	return fmt.Sprintf(", partial-order reduction: %d of %d states expanded by one process, %d fully by the cycle proviso", r.reduced, r.reduced+r.full, r.proviso)
}

func contains(s []int, x int) bool {
	for _, y := range s {
		if y == x {
			return true
		}
	}
	return false
}
