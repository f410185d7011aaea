package fences

import (
	"fmt"
	"slices"
	"sort"

	"fencer/cs"
)

// Element is one fence of a fence set: a fence of kind Kind at the site
// whose cs.Site.ID is Site. A fence set is a sorted list of Elements
// (Compare: full fences first, each kind in the order of its sites).
type Element struct {
	Site int
	Kind cs.FenceKind
}

// String is the site ID, followed by "(store)" for a store fence.
func (e Element) String() string {
	if e.Kind == cs.StoreFence {
		return fmt.Sprintf("%d(store)", e.Site)
	}
	return fmt.Sprint(e.Site)
}

// Compare orders elements by kind (full first), then by site.
func Compare(a, b Element) int {
	if a.Kind != b.Kind {
		return int(a.Kind) - int(b.Kind)
	}
	return a.Site - b.Site
}

// Order ranks the fence elements of a system by preference and finds
// minimum fence sets among them. It is immutable.
type Order struct {
	n     int   // len(sys.Sites)
	store bool  // store fences are elements too
	rank  []int // rank[index(e)], 0 for the most preferred
}

// NewOrder is the order of the fences of sys: full fences at every site
// and, with store, store fences too. Sites rank by cs.Preferred (Rank);
// with store, every store fence ranks before every full fence (a store
// fence is cheaper), each kind in the order of its sites.
func NewOrder(sys *cs.System, store bool) *Order {
	o := &Order{n: len(sys.Sites), store: store, rank: Rank(sys)}
	if store {
		o.rank = kindRank(o.rank)
	}
	return o
}

// index is the element's position among the elements: a full fence at
// site s is s, a store fence there n+s. It is private to the hitting-set
// search, whose sets are sets of ints.
func (o *Order) index(e Element) int {
	return int(e.Kind)*o.n + e.Site
}

func (o *Order) element(i int) Element {
	if i >= o.n {
		return Element{Site: i - o.n, Kind: cs.StoreFence}
	}
	return Element{Site: i, Kind: cs.FullFence}
}

func (o *Order) indices(sets [][]Element) [][]int {
	out := make([][]int, len(sets))
	for i, s := range sets {
		out[i] = make([]int, len(s))
		for j, e := range s {
			out[i][j] = o.index(e)
		}
	}
	return out
}

func (o *Order) elements(ids []int) []Element {
	out := make([]Element, len(ids))
	for i, id := range ids {
		out[i] = o.element(id)
	}
	slices.SortFunc(out, Compare)
	return out
}

// MinSet is the minimum hitting set of cands (the candidate sets of the
// real counterexamples found so far): a fewest fences that block them all,
// ties broken by preference (MinHittingSetRanked) and, with store fences,
// fewest full fences first. It is false when some candidate set is empty.
// The result is sorted (Compare).
func (o *Order) MinSet(cands [][]Element) ([]Element, bool) {
	sets := o.indices(cands)
	var hs []int
	var ok bool
	if o.store {
		hs, ok = minHittingSetCost(sets, o.rank, o.n)
	} else {
		hs, ok = MinHittingSetRanked(sets, o.rank)
	}
	if !ok {
		return nil, false
	}
	return o.elements(hs), true
}

// maxCombos bounds the fence sets of one size that NextMinimum looks at.
const maxCombos = 1_000_000

// NextMinimum returns the first set of k elements, in the order of
// preference, that hits every set of cands and for which tried is false,
// or nil. Only elements of some candidate set can be in a minimum hitting
// set, so only those are tried; past maxCombos sets it gives up (nil).
func (o *Order) NextMinimum(cands [][]Element, k int, tried func([]Element) bool) []Element {
	sets := o.indices(cands)
	var out []Element
	eachSubset(byRank(sets, o.rank), k, maxCombos, func(set []int) bool {
		if !hits(set, sets) {
			return false
		}
		if h := o.elements(set); !tried(h) {
			out = h
			return true
		}
		return false
	})
	return out
}

// byRank is the distinct elements of sets, most preferred first.
func byRank(sets [][]int, rank []int) []int {
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
	return elems
}

// eachSubset calls f with every subset of k of elems, in lexicographic
// order of their positions in elems, until f returns true or more than
// limit subsets were visited. f must not keep set.
func eachSubset(elems []int, k, limit int, f func(set []int) bool) {
	set := make([]int, 0, k)
	count := 0
	var rec func(start int) bool
	rec = func(start int) bool {
		if len(set) == k {
			count++
			return f(set) || count > limit
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
}

// kindRank extends a rank of the sites (Rank) to fence kinds: index id
// < n is a full fence at site id, n+id a store fence there. A store fence
// ranks before every full fence, each kind in the order of its sites.
func kindRank(rank []int) []int {
	n := len(rank)
	out := make([]int, 2*n)
	for id, r := range rank {
		out[n+id] = r
		out[id] = n + r
	}
	return out
}

// maxCostCombos bounds the minimum-size hitting sets minHittingSetCost
// compares.
const maxCostCombos = 200_000

// minHittingSetCost is MinHittingSetRanked for elements of two kinds
// (kindRank: ids < n are full fences, the others store fences): among the
// hitting sets of minimum size it returns one with the fewest full fences,
// ties broken by rank. Past maxCostCombos sets of that size it settles for
// MinHittingSetRanked's answer.
func minHittingSetCost(sets [][]int, rank []int, n int) ([]int, bool) {
	best, ok := MinHittingSetRanked(sets, rank)
	if !ok || len(best) == 0 {
		return best, ok
	}
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
	eachSubset(byRank(sets, rank), len(best), maxCostCombos, func(set []int) bool {
		if f := fulls(set); f < bestFull && hits(set, sets) {
			best, bestFull = slices.Clone(set), f
		}
		return bestFull == 0
	})
	sort.Ints(best)
	return best, true
}

// hits reports whether set meets every set of sets.
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
