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
	passedPoints(sys, tr, func(points []int, next int) {
		if !c.BufEmpty(states[next], tr.Steps[next].Proc) {
			for _, id := range points {
				set[id] = true
			}
		}
	})
	return sortedIDs(set)
}

// passedPoints calls f for each step of tr that passes program points
// (cs.Edge.Points) and after which its process performs another operation
// in tr: with the points and the index of that next operation.
func passedPoints(sys *cs.System, tr *kabs.Trace, f func(points []int, next int)) {
	for i, st := range tr.Steps {
		if st.IsFlush() {
			continue
		}
		points := sys.Procs[st.Proc].Edges[st.Edge].Points
		if len(points) == 0 {
			continue
		}
		j := i + 1
		for j < len(tr.Steps) && (tr.Steps[j].Proc != st.Proc || tr.Steps[j].IsFlush()) {
			j++
		}
		if j < len(tr.Steps) {
			f(points, j)
		}
	}
}

// sortedIDs returns the members of set in increasing order.
func sortedIDs(set map[int]bool) []int {
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

// StoreCandidates returns the sites where a store fence ("fence store;")
// blocks a real counterexample under PSO: points that the process passes
// while a write of it is buffered that stays buffered until a write it
// makes after the point has reached memory. A store fence there would keep
// that later write behind the earlier one, so the trace would be gone;
// where no such reordering crosses a point, a store fence there keeps the
// trace. Under TSO and SC writes keep their order and a store fence never
// blocks anything: the result is empty.
//
// The arguments are those of Candidates. The result is sorted.
func StoreCandidates(sys *cs.System, c *kabs.Concrete, tr *kabs.Trace, states []*kabs.State) []int {
	if c.Model != kabs.PSO {
		return nil
	}
	never := len(tr.Steps) + 1
	type write struct{ proc, issued, flushed int }
	var writes []*write
	fifo := map[[2]int][]*write{} // (proc, var) -> buffered writes, oldest first
	for i, st := range tr.Steps {
		if st.IsFlush() {
			k := [2]int{st.Proc, st.Var}
			if q := fifo[k]; len(q) > 0 {
				q[0].flushed = i
				fifo[k] = q[1:]
			}
			continue
		}
		op := sys.Procs[st.Proc].Edges[st.Edge].Op
		if op.Kind == cs.OpWrite {
			w := &write{proc: st.Proc, issued: i, flushed: never}
			writes = append(writes, w)
			k := [2]int{st.Proc, c.Slot(op.Shared)}
			fifo[k] = append(fifo[k], w)
		}
	}
	set := map[int]bool{}
	passedPoints(sys, tr, func(points []int, j int) {
		p := tr.Steps[j].Proc
		// A write buffered at j still buffered when a write made from j on
		// reaches memory.
		for _, w2 := range writes {
			if w2.proc != p || w2.issued < j || w2.flushed == never {
				continue
			}
			for _, w1 := range writes {
				if w1.proc == p && w1.issued < j && w1.flushed >= j && w1.flushed > w2.flushed {
					for _, id := range points {
						set[id] = true
					}
					return
				}
			}
		}
	})
	return sortedIDs(set)
}

// KindRank extends a rank of the sites (Rank) to fence kinds: element id
// < n is a full fence at site id, n+id a store fence there. A store fence
// ranks before every full fence, each kind in the order of its sites.
func KindRank(rank []int) []int {
	n := len(rank)
	out := make([]int, 2*n)
	for id, r := range rank {
		out[n+id] = r
		out[id] = n + r
	}
	return out
}

// maxCostCombos bounds the minimum-size hitting sets MinHittingSetCost
// compares.
const maxCostCombos = 200_000

// MinHittingSetCost is MinHittingSetRanked for elements of two kinds
// (KindRank: ids < n are full fences, the others store fences): among the
// hitting sets of minimum size it returns one with the fewest full fences,
// ties broken by rank. Past maxCostCombos sets of that size it settles for
// MinHittingSetRanked's answer.
func MinHittingSetCost(sets [][]int, rank []int, n int) ([]int, bool) {
	best, ok := MinHittingSetRanked(sets, rank)
	if !ok || len(best) == 0 {
		return best, ok
	}
	k := len(best)
	seen := map[int]bool{}
	var elems []int
	for _, s := range sets {
		for _, e := range s {
			if !seen[e] {
				seen[e] = true
				elems = append(elems, e)
			}
		}
	}
	slices.SortFunc(elems, func(a, b int) int { return rank[a] - rank[b] })
	fulls := func(set []int) int {
		c := 0
		for _, e := range set {
			if e < n {
				c++
			}
		}
		return c
	}
	bestFull := fulls(best)
	set := make([]int, 0, k)
	count := 0
	var rec func(start int) bool
	rec = func(start int) bool {
		if len(set) == k {
			count++
			if f := fulls(set); f < bestFull && hits(set, sets) {
				best, bestFull = slices.Clone(set), f
			}
			return count > maxCostCombos || bestFull == 0
		}
		for i := start; i < len(elems); i++ {
			set = append(set, elems[i])
			if rec(i + 1) {
				return true
			}
			set = set[:len(set)-1]
		}
		return false
	}
	rec(0)
	sort.Ints(best)
	return best, true
}

func hits(set []int, sets [][]int) bool {
	for _, s := range sets {
		hit := false
		for _, e := range set {
			if slices.Contains(s, e) {
				hit = true
				break
			}
		}
		if !hit {
			return false
		}
	}
	return true
}
