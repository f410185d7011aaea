package fences

import (
	"math"
	"math/bits"
	"slices"
)

// MinHittingSet returns a minimum-cardinality hitting set of sets: a smallest
// list of IDs that shares at least one element with every set. In maxsat
// terms every set is a hard clause (one of its sites must be fenced) and
// every ID a soft clause (do not fence it), all of weight one.
//
// The result is sorted and, among all minimum hitting sets, it is the
// lexicographically smallest, so it does not depend on the order of sets or
// of their elements. Duplicate IDs inside a set are allowed. With no sets the
// result is empty (not nil) and true. MinHittingSet returns nil, false when
// some set is empty: nothing can hit it. The input is not modified.
//
// The search is exact. The size of the optimum is found by iterative
// deepening between a lower bound and a greedy solution; each size is decided
// by branch and bound (see search). The lexicographically smallest solution
// of that size is then fixed one position at a time. Instances of the size
// and shape fence insertion produces (a few dozen sites, a few hundred sets,
// small or overlapping sets) take microseconds to milliseconds. The problem
// is NP-hard: unstructured random instances of 64 IDs and a few hundred sets
// of 3 to 6 IDs each can take seconds.
func MinHittingSet(sets [][]int) ([]int, bool) {
	for _, s := range sets {
		if len(s) == 0 {
			return nil, false
		}
	}
	p := newProblem(sets)
	if len(p.sets) == 0 {
		return []int{}, true
	}

	// The size k of the optimum and a witness of that size.
	none := p.newElems()
	witness := p.greedy()
	hi := witness.count()
	for k := p.rootBound(); k < hi; k++ {
		if w, ok := p.feasible(none, none, k); ok {
			witness = w
			break
		}
	}
	k := witness.count()

	// The lexicographically smallest solution of size k. A sorted list A of
	// size k is smaller than B exactly when the smallest element of their
	// symmetric difference is in A, so the positions are fixed in order: the
	// next element is the smallest useful candidate that still completes to
	// a solution of size k, every smaller candidate being excluded. The
	// witness (which extends the prefix) bounds the candidates to try. An
	// element that hits no set left unhit by the prefix is in no minimum
	// solution extending it, so it need not be tried or excluded.
	chosen, excluded := p.newElems(), p.newElems()
	for size := 0; size < k; size++ {
		next := -1
		for e := range witness.each() {
			if !chosen.has(e) {
				next = e
				break
			}
		}
		unhit := p.unhit(chosen)
		useful := p.newElems()
		for i := range unhit.each() {
			useful.or(p.sets[i])
		}
		for e := range useful.each() {
			if e >= next {
				break
			}
			if excluded.has(e) {
				continue
			}
			chosen.set(e)
			if w, ok := p.feasible(chosen, excluded, k-size-1); ok {
				witness = w
				next = e
				break
			}
			chosen.clear(e)
			excluded.set(e)
		}
		chosen.set(next)
	}
	out := make([]int, 0, k)
	for e := range chosen.each() {
		out = append(out, p.ids[e])
	}
	return out, true
}

// problem is a hitting set instance over dense element indices 0..n-1, in
// increasing ID order. Sets that contain another set are dropped: hitting
// the smaller one hits them too. Sets of elements and sets of sets are both
// bitsets.
type problem struct {
	ids  []int    // ids[e] is the ID of element e
	sets []bitset // minimal sets over elements, smallest first
	list [][]int  // list[i] holds the elements of sets[i] in order
	occ  []bitset // occ[e] is the set of indices of the sets containing e
}

func newProblem(sets [][]int) *problem {
	var ids []int
	for _, s := range sets {
		ids = append(ids, s...)
	}
	slices.Sort(ids)
	ids = slices.Compact(ids)
	p := &problem{ids: ids}

	all := make([]bitset, 0, len(sets))
	for _, s := range sets {
		b := p.newElems()
		for _, id := range s {
			e, _ := slices.BinarySearch(ids, id)
			b.set(e)
		}
		all = append(all, b)
	}
	// Smallest first, ties broken by content, so that the kept sets and
	// their order do not depend on the input order.
	slices.SortFunc(all, func(a, b bitset) int {
		if ca, cb := a.count(), b.count(); ca != cb {
			return ca - cb
		}
		return slices.Compare(a, b)
	})
	for _, b := range all {
		redundant := false
		for _, kept := range p.sets {
			if kept.subsetOf(b) {
				redundant = true
				break
			}
		}
		if !redundant {
			p.sets = append(p.sets, b)
		}
	}
	p.list = make([][]int, len(p.sets))
	for i, b := range p.sets {
		p.list[i] = slices.Collect(b.each())
	}
	p.occ = make([]bitset, len(ids))
	for e := range p.occ {
		p.occ[e] = p.newSets()
	}
	for i, s := range p.sets {
		for e := range s.each() {
			p.occ[e].set(i)
		}
	}
	return p
}

func (p *problem) newElems() bitset { return make(bitset, (len(p.ids)+63)/64) }
func (p *problem) newSets() bitset  { return make(bitset, (len(p.sets)+63)/64) }

// unhit returns the set of indices of the sets that chosen does not hit.
func (p *problem) unhit(chosen bitset) bitset {
	u := p.newSets()
	for i := range p.sets {
		u.set(i)
	}
	for e := range chosen.each() {
		u.andNot(p.occ[e])
	}
	return u
}

// greedy returns a hitting set built by repeatedly taking the element that
// hits the most unhit sets (the smallest such element on ties).
func (p *problem) greedy() bitset {
	chosen := p.newElems()
	unhit := p.unhit(chosen)
	for !unhit.empty() {
		best, bestDeg := -1, 0
		for e := range p.occ {
			if d := p.occ[e].countAnd(unhit); d > bestDeg {
				best, bestDeg = e, d
			}
		}
		chosen.set(best)
		unhit.andNot(p.occ[best])
	}
	return chosen
}

// rootBound returns a lower bound on the size of every hitting set: the
// number of pairwise disjoint sets picked greedily, smallest first.
func (p *problem) rootBound() int {
	used := p.newElems()
	lb := 0
	for _, s := range p.sets {
		if !s.intersects(used) {
			used.or(s)
			lb++
		}
	}
	return lb
}

// feasible returns a hitting set that contains chosen, avoids excluded and
// has at most budget elements besides chosen, or false if there is none.
// chosen and excluded are not modified.
func (p *problem) feasible(chosen, excluded bitset, budget int) (bitset, bool) {
	s := &search{
		p:      p,
		chosen: chosen.clone(),
		cnt:    make([]int, len(p.sets)),
		deg:    make([]int, len(p.ids)),
		atRoot: true,
	}
	allowed := p.newElems()
	for e := range p.ids {
		if !chosen.has(e) && !excluded.has(e) {
			allowed.set(e)
		}
	}
	if !s.dfs(p.unhit(chosen), allowed, budget) {
		return nil, false
	}
	return s.witness, true
}

// search decides whether the sets in unhit can be hit with at most budget
// elements of allowed. At each node it
//
//   - takes the only allowed element of every set that has just one (and
//     fails on a set with none);
//   - fails when a lower bound exceeds the budget: the number of pairwise
//     disjoint unhit sets (picked greedily, fewest allowed elements first),
//     or the fractional degree bound;
//   - at the root only (it costs more than it saves deeper down), drops
//     every dominated element, one whose unhit sets are all sets of some
//     other allowed element (on a tie the larger element is dropped);
//   - otherwise branches on the element in the most unhit sets (the
//     smallest on ties): take it, else drop it.
type search struct {
	p       *problem
	chosen  bitset // the elements taken on the current path
	witness bitset // the solution found
	cnt     []int  // scratch: allowed elements per set at the current node
	deg     []int  // scratch: unhit sets per element at the current node
	atRoot  bool   // dominated elements are only dropped at the root
}

func (s *search) dfs(unhit, allowed bitset, budget int) bool {
	unhit, allowed = unhit.clone(), allowed.clone()
	var taken []int
	ok := s.node(unhit, allowed, budget, &taken)
	for _, e := range taken {
		s.chosen.clear(e)
	}
	return ok
}

// node runs the search at one node, modifying unhit and allowed in place and
// recording in taken the elements it adds to s.chosen.
func (s *search) node(unhit, allowed bitset, budget int, taken *[]int) bool {
	p := s.p
	take := func(e int) {
		s.chosen.set(e)
		*taken = append(*taken, e)
		allowed.clear(e)
		unhit.andNot(p.occ[e])
		budget--
	}
	forced := p.newElems()
	for {
		// Unit propagation.
		clear(forced)
		nForced := 0
		for i := range unhit.each() {
			c := p.sets[i].countAnd(allowed)
			if c == 0 {
				return false
			}
			s.cnt[i] = c
			if c == 1 {
				e := p.sets[i].firstAnd(allowed)
				if !forced.has(e) {
					forced.set(e)
					nForced++
				}
			}
		}
		if nForced > 0 {
			if nForced > budget {
				return false
			}
			for e := range forced.each() {
				take(e)
			}
			continue
		}
		if unhit.empty() {
			s.witness = s.chosen.clone()
			return true
		}
		if budget == 0 {
			return false
		}

		// Lower bounds.
		for e := range allowed.each() {
			d := p.occ[e].countAnd(unhit)
			s.deg[e] = d
			if d == 0 {
				allowed.clear(e)
			}
		}
		if s.packing(unhit, allowed, budget+1) > budget {
			return false
		}
		if s.fractional(unhit, allowed) > budget {
			return false
		}

		// Dominated elements.
		if s.atRoot && s.dropDominated(unhit, allowed) {
			continue
		}
		break
	}
	s.atRoot = false

	best := -1
	for e := range allowed.each() {
		if best < 0 || s.deg[e] > s.deg[best] {
			best = e
		}
	}
	allowed.clear(best)
	s.chosen.set(best)
	ok := s.dfs(unhit.andNotCopy(p.occ[best]), allowed, budget-1)
	s.chosen.clear(best)
	if ok {
		return true
	}
	return s.dfs(unhit, allowed, budget)
}

// packing returns the number of pairwise disjoint unhit sets (restricted to
// allowed) picked greedily, fewest allowed elements first, stopping at
// limit. It reads s.cnt.
func (s *search) packing(unhit, allowed bitset, limit int) int {
	p := s.p
	used := p.newElems()
	cand := p.newElems()
	lb := 0
	maxc := 0
	for i := range unhit.each() {
		maxc = max(maxc, s.cnt[i])
	}
	for c := 2; c <= maxc; c++ {
		for i := range unhit.each() {
			if s.cnt[i] != c {
				continue
			}
			cand.copyAnd(p.sets[i], allowed)
			if !cand.intersects(used) {
				used.or(cand)
				lb++
				if lb >= limit {
					return lb
				}
			}
		}
	}
	return lb
}

// fractional returns a lower bound from degrees: an element e of a
// solution hits at most deg(e) unhit sets, so charging each set 1/deg of the
// element that hits it charges each element at most 1, and a set S is
// charged at least 1/max{deg(e) : e in S}. The sum of these charges, rounded
// up, bounds the size of every solution. It reads s.deg.
func (s *search) fractional(unhit, allowed bitset) int {
	p := s.p
	// Sum of 1/maxdeg in integer arithmetic over the common multiple of
	// 1..n would overflow; a float sum with a small slack is exact enough.
	sum := 0.0
	for i := range unhit.each() {
		m := 0
		for _, e := range p.list[i] {
			if allowed.has(e) && s.deg[e] > m {
				m = s.deg[e]
			}
		}
		sum += 1 / float64(m)
	}
	return int(math.Ceil(sum - 1e-9))
}

// dropDominated removes from allowed every element whose unhit sets are
// all sets of another allowed element (keeping the smallest of equals) and
// reports whether it removed any. It reads s.deg.
func (s *search) dropDominated(unhit, allowed bitset) bool {
	p := s.p
	elems := slices.Collect(allowed.each())
	rows := make([]bitset, len(elems))
	for j, e := range elems {
		rows[j] = p.occ[e].andCopy(unhit)
	}
	dropped := false
	for j, a := range elems {
		for l, b := range elems {
			if l == j || !allowed.has(b) || s.deg[a] > s.deg[b] {
				continue
			}
			if s.deg[a] == s.deg[b] && b > a {
				continue // equal rows: keep the smaller element
			}
			if rows[j].subsetOf(rows[l]) {
				allowed.clear(a)
				dropped = true
				break
			}
		}
	}
	return dropped
}

// bitset is a set of small non-negative integers.
type bitset []uint64

func (b bitset) set(e int)      { b[e/64] |= 1 << (e % 64) }
func (b bitset) clear(e int)    { b[e/64] &^= 1 << (e % 64) }
func (b bitset) has(e int) bool { return b[e/64]&(1<<(e%64)) != 0 }
func (b bitset) clone() bitset  { return slices.Clone(b) }

// or adds the elements of c to b.
func (b bitset) or(c bitset) {
	for i := range b {
		b[i] |= c[i]
	}
}

// andNot removes the elements of c from b.
func (b bitset) andNot(c bitset) {
	for i := range b {
		b[i] &^= c[i]
	}
}

// copyAnd sets b to the intersection of c and d.
func (b bitset) copyAnd(c, d bitset) {
	for i := range b {
		b[i] = c[i] & d[i]
	}
}

// andCopy returns the intersection of b and c.
func (b bitset) andCopy(c bitset) bitset {
	out := make(bitset, len(b))
	out.copyAnd(b, c)
	return out
}

// andNotCopy returns b minus c.
func (b bitset) andNotCopy(c bitset) bitset {
	out := b.clone()
	out.andNot(c)
	return out
}

func (b bitset) empty() bool {
	for _, w := range b {
		if w != 0 {
			return false
		}
	}
	return true
}

// firstAnd returns the smallest element of b and c, or -1.
func (b bitset) firstAnd(c bitset) int {
	for i, w := range b {
		if x := w & c[i]; x != 0 {
			return i*64 + bits.TrailingZeros64(x)
		}
	}
	return -1
}

func (b bitset) count() int {
	n := 0
	for _, w := range b {
		n += bits.OnesCount64(w)
	}
	return n
}

// countAnd returns the size of the intersection of b and c.
func (b bitset) countAnd(c bitset) int {
	n := 0
	for i, w := range b {
		n += bits.OnesCount64(w & c[i])
	}
	return n
}

func (b bitset) intersects(c bitset) bool {
	for i, w := range b {
		if w&c[i] != 0 {
			return true
		}
	}
	return false
}

func (b bitset) subsetOf(c bitset) bool {
	for i, w := range b {
		if w&^c[i] != 0 {
			return false
		}
	}
	return true
}

// each yields the elements of b in increasing order. b may change during
// the iteration only in words already visited.
func (b bitset) each() func(yield func(int) bool) {
	return func(yield func(int) bool) {
		for i, w := range b {
			for w != 0 {
				t := bits.TrailingZeros64(w)
				if !yield(i*64 + t) {
					return
				}
				w &^= 1 << t
			}
		}
	}
}
