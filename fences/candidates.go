package fences

import (
	"slices"
	"sort"

	"fencer/cs"
	"fencer/memmodel"
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
// states[i] is the state after i steps of tr, as memmodel.Concrete.Replay
// returns it. The result is sorted and without duplicates.
func Candidates(sys *cs.System, c *memmodel.Concrete, tr *memmodel.Trace, states []*memmodel.State) []int {
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
func passedPoints(sys *cs.System, tr *memmodel.Trace, f func(points []int, next int)) {
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
func StoreCandidates(sys *cs.System, c *memmodel.Concrete, tr *memmodel.Trace, states []*memmodel.State) []int {
	if !c.Model.Orders(cs.StoreFence) {
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

// Blocking is the candidate set of a real counterexample as fence
// elements: a full fence at each site of Candidates and, with store, a
// store fence at each site of StoreCandidates; full fences first, each
// kind sorted by site. For a system read from another format
// (cs.System.Reader), whose readers write fences only right after a write,
// only those points are candidates (store fences only where the reader can
// write them, cs.FenceEditor), and the fences of the source read with
// Reconsider (which the reader keeps or removes).
//
// The arguments are those of Candidates.
func Blocking(sys *cs.System, c *memmodel.Concrete, tr *memmodel.Trace, states []*memmodel.State, store bool) []Element {
	var out []Element
	for _, id := range Candidates(sys, c, tr, states) {
		if s := sys.Sites[id]; sys.Reader == nil || s.AfterAWrite() || s.Fence {
			out = append(out, Element{Site: id, Kind: cs.FullFence})
		}
	}
	if store {
		// With a foreign reader, store is set only when it can write store
		// fences (cegar.ReaderCanEdit).
		for _, id := range StoreCandidates(sys, c, tr, states) {
			if s := sys.Sites[id]; sys.Reader == nil || s.AfterAWrite() {
				out = append(out, Element{Site: id, Kind: cs.StoreFence})
			}
		}
	}
	return out
}
