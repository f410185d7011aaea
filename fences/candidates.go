package fences

import (
	"slices"
	"sort"

	"fencer/cs"
	"fencer/kabs"
)

// Candidates returns the candidate set of a real counterexample: the fence
// sites (program points) that block it. Process p passes the points of an
// edge (cs.Edge.Points) right after taking it; a fence at such a point
// blocks the trace when p's buffers are still non-empty when p performs its
// next operation: the fence would have to wait there, so the trace is gone.
// A point after which the process does nothing more does not block: the
// trace can be extended by flushes and the fence at its end and still be
// in a bad state (bad states only look at control locations).
//
// Conversely, a fence set that contains no point of the candidate set keeps
// the trace (each of its fences can be passed where the buffers are empty),
// so every correct fence set hits every candidate set.
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
		if len(e.Points) == 0 {
			continue
		}
		for j := i + 1; j < len(tr.Steps); j++ {
			if tr.Steps[j].Proc != st.Proc || tr.Steps[j].IsFlush() {
				continue
			}
			if !c.BufEmpty(states[j], st.Proc) {
				for _, id := range e.Points {
					set[id] = true
				}
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

// Rank orders the sites of sys by preference (cs.Preferred): rank[id] is
// the position of site id, 0 for the most preferred. MinHittingSetRanked
// uses it to break ties between minimum fence sets.
func Rank(sys *cs.System) []int {
	order := make([]int, len(sys.Sites))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int {
		switch {
		case cs.Preferred(sys.Sites[a], sys.Sites[b]):
			return -1
		case cs.Preferred(sys.Sites[b], sys.Sites[a]):
			return 1
		}
		return 0
	})
	rank := make([]int, len(order))
	for r, id := range order {
		rank[id] = r
	}
	return rank
}

// MinHittingSetRanked is MinHittingSet with ties broken by rank (Rank)
// instead of by ID: among the minimum hitting sets it returns the one
// whose ranks, sorted, are lexicographically smallest. The result is sorted
// by ID. IDs outside rank keep their own value past every ranked one.
func MinHittingSetRanked(sets [][]int, rank []int) ([]int, bool) {
	n := len(rank)
	to := func(id int) int {
		if id >= 0 && id < n {
			return rank[id]
		}
		return id + n
	}
	back := map[int]int{}
	mapped := make([][]int, len(sets))
	for i, s := range sets {
		mapped[i] = make([]int, len(s))
		for j, id := range s {
			r := to(id)
			back[r] = id
			mapped[i][j] = r
		}
	}
	hs, ok := MinHittingSet(mapped)
	if !ok {
		return nil, false
	}
	out := make([]int, len(hs))
	for i, r := range hs {
		out[i] = back[r]
	}
	sort.Ints(out)
	return out, true
}
