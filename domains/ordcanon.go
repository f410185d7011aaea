package domains

import (
	"math/bits"
	"slices"
	"sync"

	"fencer/ordview"
)

// The canonical forms of the order view, computed on every successor of
// an exploration with the view (order.go): the same map as
// ordview.Class.Canon, without allocation, and only for the classes whose
// values a step changed.
//
// Canon depends on the set of a class's values outside its hull alone,
// and Canon(Canon(v)) = Canon(v): a step from a canonical vector that
// leaves that set of a class as it is leaves the class's values
// canonical. The step changes the positions it assigns a new value or
// clears, no other. A value it gives a position adds to the set only if
// it is outside the hull and not a copy of a position of the class (whose
// value in the pre-state is in the set already); a value a position loses
// leaves the set only if it is outside the hull and no position of the
// class holds it after the step (0, what a clearing writes, is in the
// hull). So canonStep canonicalises only the classes that the step may
// give a new value outside the hull, or that lose one there, and Canon
// skips its second pass when the map it finds is the identity. Every
// vector an exploration expands is canonical: the initial values of class
// variables are anchors of their class, in its hull, as is 0, the value
// of every other position at the start; and each successor is
// canonicalised (a WRITE-G's copy of lw_{p,x} into T_{p,x} after that adds
// no value, so the map stays the identity). A widened version of a state
// (ordLayout.widen) is not canonical: its successors are canonicalised in
// full.

// canonWork is the reusable storage of the canonical forms of one step:
// the distinct values of a class outside the hull and their canonical
// values, and a vector for the class values of ordLayout.exact or the
// successors of an UPDATE-AM (ordTail.choose; exact is done by then).
type canonWork struct {
	out, news, vec []int64
}

// canonPool holds canonWork between steps (steps are shared by the
// workers of an exploration, so the storage cannot live in a Step).
var canonPool = sync.Pool{New: func() any { return new(canonWork) }}

// lazyWork is the canonWork of one Step.Apply, taken from canonPool when
// first needed: a step that changes no class's values outside its hull
// (and has no move to check, no tail value to choose) needs none.
type lazyWork struct{ w *canonWork }

// get returns the canonWork, taken from the pool on the first call.
func (l *lazyWork) get() *canonWork {
	if l.w == nil {
		l.w = canonPool.Get().(*canonWork)
	}
	return l.w
}

// put returns the canonWork to the pool, if one was taken.
func (l *lazyWork) put() {
	if l.w != nil {
		canonPool.Put(l.w)
		l.w = nil
	}
}

// canonVals replaces vals, the values of one state's positions of class c,
// by their canonical representatives: ordview.Class.Canon, with w's
// storage instead of allocation.
func canonVals(c *ordview.Class, vals []int64, w *canonWork) {
	out := w.out[:0]
	for _, v := range vals {
		if v < c.Lo || v > c.Hi {
			out = append(out, v)
		}
	}
	w.out = out
	if len(out) == 0 || canonMap(c, w) {
		return
	}
	for j, v := range vals {
		if v < c.Lo || v > c.Hi {
			vals[j] = w.canonOf(v)
		}
	}
}

// canonMap computes the canonical values of w.out, the values of one
// state's class c outside its hull (ordview.Class.Canon): w.out becomes
// them sorted and distinct, w.news their canonical values. It reports
// whether the map is the identity (every gap between consecutive values,
// from the hull outwards, at most Cap): the state's values of c are then
// canonical as they are.
func canonMap(c *ordview.Class, w *canonWork) bool {
	distinct := ordview.SortDistinct(w.out)
	n := len(distinct)
	w.out = distinct
	if cap(w.news) < n {
		w.news = make([]int64, n, 2*n)
	}
	news := w.news[:n]
	w.news = news
	identity := true
	// above the hull, upwards; below it, downwards (ordview.Class.Canon)
	first := 0
	for first < n && distinct[first] <= c.Hi {
		first++
	}
	prevOld, prevNew := c.Hi, c.Hi
	for i := first; i < n; i++ {
		gap := distinct[i] - prevOld
		if gap > c.Cap {
			gap, identity = c.Cap, false
		}
		prevNew += gap
		prevOld = distinct[i]
		news[i] = prevNew
	}
	prevOld, prevNew = c.Lo, c.Lo
	for i := first - 1; i >= 0; i-- {
		gap := prevOld - distinct[i]
		if gap > c.Cap {
			gap, identity = c.Cap, false
		}
		prevNew -= gap
		prevOld = distinct[i]
		news[i] = prevNew
	}
	return identity
}

// canonOf is the canonical value of v, one of the values of w.out after
// canonMap.
func (w *canonWork) canonOf(v int64) int64 {
	distinct := w.out
	if len(distinct) <= 8 {
		for i, d := range distinct {
			if d == v {
				return w.news[i]
			}
		}
	}
	i, _ := slices.BinarySearch(distinct, v)
	return w.news[i]
}

// canonClass canonicalises, in place, the values of class c in v.
func (ol *ordLayout) canonClass(c int, v []int64, w *canonWork) {
	cl, ps := ol.classes[c], ol.pos[c]
	out := w.out[:0]
	for _, p := range ps {
		if x := v[p]; x < cl.Lo || x > cl.Hi {
			out = append(out, x)
		}
	}
	w.out = out
	if len(out) == 0 || canonMap(cl, w) {
		return
	}
	for _, p := range ps {
		if x := v[p]; x < cl.Lo || x > cl.Hi {
			v[p] = w.canonOf(x)
		}
	}
}

// canonAll canonicalises, in place, every class's values of v.
func (ol *ordLayout) canonAll(v []int64, w *canonWork) {
	for c := range ol.pos {
		ol.canonClass(c, v, w)
	}
}

// canonStep clears the positions of zero in next, the successor by step
// s of the canonical vector pre before the clearing, and canonicalises
// its class values: only the classes whose set of values outside the hull
// the step may have changed (see above). The clearing and the search for
// the classes it changes values of outside the hull are one pass, which
// skips a run of positions that are all 0 (the usual case).
func (ol *ordLayout) canonStep(s *Step, pre, next []int64, zero Zeros, lw *lazyWork) {
	// removed: the classes with a position changed from a value outside
	// the hull; changed: those with one changed to a value outside it
	// that is not a copy of a position of the class (its value in pre,
	// which is in the set already).
	var removed, changed uint64
	for j := 0; j+1 < len(zero); j += 2 {
		lo, seg := int(zero[j]), next[zero[j]:zero[j+1]]
		if orAll(seg) == 0 {
			continue
		}
		for k := range seg {
			if ol.outHull(lo+k, pre[lo+k]) {
				removed |= 1 << (ol.cls[lo+k] & 63)
			}
		}
		clear(seg)
	}
	for k, p := range s.ordDst {
		x, y := next[p], pre[p]
		if x == y {
			continue
		}
		if ol.outHull(p, y) {
			removed |= 1 << (ol.cls[p] & 63)
		}
		if ol.outHull(p, x) && s.ordSrc[k] < 0 {
			changed |= 1 << (ol.cls[p] & 63)
		}
	}
	if removed&^changed != 0 {
		changed |= ol.lost(s, pre, next, zero, removed&^changed)
	}
	if changed == 0 {
		return
	}
	w := lw.get()
	if len(ol.pos) > 64 {
		ol.canonAll(next, w)
		return
	}
	for ; changed != 0; changed &= changed - 1 {
		ol.canonClass(bits.TrailingZeros64(changed), next, w)
	}
}

// orAll is the bitwise or of v, 0 when every value is 0; four at a time,
// for the long runs of positions a profile clears.
func orAll(v []int64) int64 {
	var a, b, c, d int64
	for len(v) >= 4 {
		a, b, c, d = a|v[0], b|v[1], c|v[2], d|v[3]
		v = v[4:]
	}
	for _, x := range v {
		a |= x
	}
	return a | b | c | d
}

// lost returns the classes of mask (bit c&63 for class c) with a value
// outside the hull that a position held in pre, the step s changed, and
// no position of the class holds in next (after the clearing of zero).
func (ol *ordLayout) lost(s *Step, pre, next []int64, zero Zeros, mask uint64) uint64 {
	var lost uint64
	check := func(p int) {
		b := uint64(1) << (ol.cls[p] & 63)
		if y := pre[p]; mask&b != 0 && lost&b == 0 && next[p] != y && ol.outHull(p, y) && !ol.holds(int(ol.cls[p]), next, y) {
			lost |= b
		}
	}
	for j := 0; j+1 < len(zero); j += 2 {
		for p := int(zero[j]); p < int(zero[j+1]); p++ {
			if ol.cls[p] >= 0 {
				check(p)
			}
		}
	}
	for _, p := range s.ordDst {
		check(p)
	}
	return lost
}

// holds reports whether a position of class c holds y in v.
func (ol *ordLayout) holds(c int, v []int64, y int64) bool {
	for _, p := range ol.pos[c] {
		if v[p] == y {
			return true
		}
	}
	return false
}
