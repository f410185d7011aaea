package ordview

import (
	"slices"
	"sort"
)

// Canon replaces, in place, the values of one state's positions of the
// class (its shared variables, locals, and the buffer slots and last-write
// values of its writes, in any fixed order) by their canonical
// representatives: values in the hull [Lo, Hi] stay; the distinct values
// above Hi, in increasing order, are placed from Hi upwards with each gap
// to the one before (Hi for the first) cut to at most Cap; those below Lo
// likewise downwards from Lo. The map is order-preserving and the identity
// on the hull, and Canon(Canon(v)) = Canon(v). scratch is reused storage
// (may be nil); Canon returns it, grown.
func (c *Class) Canon(vals []int64, scratch []int64) []int64 {
	out := scratch[:0]
	for _, v := range vals {
		if v < c.Lo || v > c.Hi {
			out = append(out, v)
		}
	}
	if len(out) == 0 {
		return out
	}
	// out becomes pairs (old, new) in place of a map: distinct olds first.
	distinct := SortDistinct(out)
	n := len(distinct)
	news := make([]int64, n) // small: one per distinct value outside the hull
	// above the hull, upwards
	prevOld, prevNew := c.Hi, c.Hi
	first := sort.Search(n, func(i int) bool { return distinct[i] > c.Hi })
	for i := first; i < n; i++ {
		prevNew += min(distinct[i]-prevOld, c.Cap)
		prevOld = distinct[i]
		news[i] = prevNew
	}
	// below the hull, downwards
	prevOld, prevNew = c.Lo, c.Lo
	for i := first - 1; i >= 0; i-- {
		prevNew -= min(prevOld-distinct[i], c.Cap)
		prevOld = distinct[i]
		news[i] = prevNew
	}
	for j, v := range vals {
		if v < c.Lo || v > c.Hi {
			i := sort.Search(n, func(i int) bool { return distinct[i] >= v })
			vals[j] = news[i]
		}
	}
	return out
}

// Exact reports whether giving a position the value from+k, where from is
// a value of the canonical state vals (Canon applied) and k a constant of
// the class (an increment, a decrement, or 0 for a copy), keeps the view
// exact: for every state that has this canonical form the step's result
// has the canonical form of the step's result on vals. It fails only when
// the value moves towards a value it is separated from by a cut gap and
// comes within Cap of it (doc.go, "Steps that are not exact").
func (c *Class) Exact(vals []int64, from, k int64) bool {
	if k == 0 {
		return true
	}
	next, _, _, ok := c.cutGap(vals, from, k)
	if !ok {
		return true
	}
	to := from + k
	return abs(next-to) >= c.Cap && (next > to) == (k > 0)
}

// cutGap walks from `from` in the direction of k (not 0) over the values
// vals and the ends of the hull to the first cut gap (one of at least Cap
// outside the hull): next is the value beyond it, lo and hi its ends; ok
// is false when there is none.
func (c *Class) cutGap(vals []int64, from, k int64) (next, lo, hi int64, ok bool) {
	cur := from
	for {
		if k > 0 {
			next, ok = nextAbove(vals, c.Lo, c.Hi, cur)
		} else {
			next, ok = nextBelow(vals, c.Lo, c.Hi, cur)
		}
		if !ok {
			return 0, 0, 0, false
		}
		lo, hi = min(cur, next), max(cur, next)
		if (lo >= c.Hi || hi <= c.Lo) && hi-lo >= c.Cap {
			return next, lo, hi, true
		}
		cur = next
	}
}

// nextAbove is the least of vals, e1 and e2 that is greater than v (no
// allocation: Exact runs on every move of the explorer).
func nextAbove(vals []int64, e1, e2, v int64) (int64, bool) {
	best, ok := int64(0), false
	take := func(x int64) {
		if x > v && (!ok || x < best) {
			best, ok = x, true
		}
	}
	take(e1)
	take(e2)
	for _, x := range vals {
		take(x)
	}
	return best, ok
}

// nextBelow is the greatest of vals, e1 and e2 that is less than v.
func nextBelow(vals []int64, e1, e2, v int64) (int64, bool) {
	best, ok := int64(0), false
	take := func(x int64) {
		if x < v && (!ok || x > best) {
			best, ok = x, true
		}
	}
	take(e1)
	take(e2)
	for _, x := range vals {
		take(x)
	}
	return best, ok
}

// Widen is what an explorer does with a move that Exact rejects, to keep
// the view a sound over-approximation instead of voiding the exploration:
// it returns the class values vals (a canonical state's, as for Exact)
// once per way the cut gap that the move approaches may really be wider.
// The gap lies between two values of the walk of Exact; in each version
// the values on the side of the gap away from the hull are moved away from
// it by s = 0, 1, ..., up to the s at which the moved value stays Cap away
// from the value beyond the gap. (The canonical gap is Cap; a concrete
// state with a gap of Cap + s has, after the move, the canonical form of
// version s, and all gaps of Cap + s* or more give that of version s*.)
// The explorer writes each version back to the positions, takes the step
// from it and applies Canon: every concrete successor's canonical form is
// among the results (TestWidenSimulates), and when Exact holds Widen
// returns vals alone.
func (c *Class) Widen(vals []int64, from, k int64) [][]int64 {
	one := [][]int64{append([]int64(nil), vals...)}
	if k == 0 {
		return one
	}
	next, lo, hi, ok := c.cutGap(vals, from, k)
	if !ok {
		return one
	}
	// dist is how far the value beyond the gap lies ahead of the moved
	// value, in the direction of k; each s adds one.
	dist := next - (from + k)
	if k < 0 {
		dist = -dist
	}
	if dist >= c.Cap {
		return one
	}
	var out [][]int64
	for s := int64(0); dist+s < c.Cap+1; s++ {
		v := append([]int64(nil), vals...)
		for i, x := range v {
			switch {
			case lo >= c.Hi && x >= hi: // above a gap over Hi
				v[i] = x + s
			case hi <= c.Lo && x <= lo: // below a gap under Lo
				v[i] = x - s
			}
		}
		out = append(out, v)
		if dist+s >= c.Cap {
			break
		}
	}
	return out
}

// SortDistinct sorts s in place and removes its repeated values, returning
// the distinct values, a prefix of s (an insertion sort for the few values
// of a class, which allocates nothing).
func SortDistinct(s []int64) []int64 {
	if len(s) <= 16 {
		for i := 1; i < len(s); i++ {
			for j := i; j > 0 && s[j] < s[j-1]; j-- {
				s[j], s[j-1] = s[j-1], s[j]
			}
		}
	} else {
		slices.Sort(s)
	}
	n := 0
	for i, v := range s {
		if i == 0 || v != s[n-1] {
			s[n] = v
			n++
		}
	}
	return s[:n]
}
