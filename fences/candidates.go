package fences

import (
	"sort"

	"fencer/cs"
	"fencer/kabs"
)

// Candidates returns the candidate set of a real counterexample: the fence
// sites that block it. A fence right after write w of process p blocks the
// trace when p's buffers are still non-empty when p performs its next
// operation after w: the fence would have to wait there, so the trace is
// gone. A site whose process does nothing more after w does not block: the
// trace can be extended by flushes and the fence at its end and still be
// in a bad state (bad states only look at control locations).
//
// Conversely, a fence set that contains no site of the candidate set keeps
// the trace (each of its fences can be passed where the buffer is empty), so
// every correct fence set hits every candidate set.
//
// states[i] is the state after i steps of tr, as kabs.Concrete.Replay
// returns it. The result is sorted and without duplicates.
func Candidates(sys *cs.System, c *kabs.Concrete, tr *kabs.Trace, states []*kabs.State) []int {
	set := map[int]bool{}
	for i, st := range tr.Steps {
		if st.IsFlush() {
			continue
		}
		e := sys.Procs[st.Proc].Edges[st.Edge]
		if e.Op.Kind != cs.OpWrite || e.Site < 0 || set[e.Site] {
			continue
		}
		for j := i + 1; j < len(tr.Steps); j++ {
			if tr.Steps[j].Proc != st.Proc || tr.Steps[j].IsFlush() {
				continue
			}
			if !c.BufEmpty(states[j], st.Proc) {
				set[e.Site] = true
			}
			break
		}
	}
	out := make([]int, 0, len(set))
	for s := range set {
		out = append(out, s)
	}
	sort.Ints(out)
	return out
}
