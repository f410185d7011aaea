package domains

import (
	"slices"
	"sync"

	"fencer/ordview"
)

// The canonical forms of the order view, computed on every successor of
// an exploration with the view (order.go): the same map as
// ordview.Class.Canon, without allocation, and only for the classes whose
// values a step changed.
//
// A step from a canonical vector that leaves every position of a class
// with its value leaves the class's values canonical (Canon depends on the
// class's values alone, and Canon(Canon(v)) = Canon(v)), so canonFrom
// canonicalises only the classes with a position whose value differs from
// the pre-state's. Every vector an exploration expands is canonical: the
// initial values of class variables are anchors of their class, in its
// hull, as is 0, the value of every other position at the start; and each
// successor is canonicalised. A widened version of a state (ordLayout.widen)
// is not canonical: its successors are canonicalised in full.

// canonWork is the reusable storage of the canonical forms of one step:
// the values of a class gathered, the distinct values outside the hull
// and their canonical values, and a vector for the successors of an
// UPDATE-AM (ordTail.choose).
type canonWork struct {
	vals, out, news, vec []int64
}

// canonPool holds canonWork between steps (steps are shared by the
// workers of an exploration, so the storage cannot live in a Step).
var canonPool = sync.Pool{New: func() any { return new(canonWork) }}

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
	if len(out) == 0 {
		return
	}
	if len(out) <= 16 {
		for i := 1; i < len(out); i++ {
			for j := i; j > 0 && out[j] < out[j-1]; j-- {
				out[j], out[j-1] = out[j-1], out[j]
			}
		}
	} else {
		slices.Sort(out)
	}
	n := 0
	for i, v := range out {
		if i == 0 || v != out[n-1] {
			out[n] = v
			n++
		}
	}
	distinct := out[:n]
	if cap(w.news) < n {
		w.news = make([]int64, n, 2*n)
	}
	news := w.news[:n]
	// above the hull, upwards; below it, downwards (ordview.Class.Canon)
	first := 0
	for first < n && distinct[first] <= c.Hi {
		first++
	}
	prevOld, prevNew := c.Hi, c.Hi
	for i := first; i < n; i++ {
		prevNew += min(distinct[i]-prevOld, c.Cap)
		prevOld = distinct[i]
		news[i] = prevNew
	}
	prevOld, prevNew = c.Lo, c.Lo
	for i := first - 1; i >= 0; i-- {
		prevNew -= min(prevOld-distinct[i], c.Cap)
		prevOld = distinct[i]
		news[i] = prevNew
	}
	for j, v := range vals {
		if v < c.Lo || v > c.Hi {
			i := 0
			if n <= 8 {
				for distinct[i] != v {
					i++
				}
			} else {
				i, _ = slices.BinarySearch(distinct, v)
			}
			vals[j] = news[i]
		}
	}
}

// canonClass canonicalises, in place, the values of class c in v.
func (ol *ordLayout) canonClass(c int, v []int64, w *canonWork) {
	ps := ol.pos[c]
	vals := w.vals[:0]
	for _, p := range ps {
		vals = append(vals, v[p])
	}
	w.vals = vals
	canonVals(ol.classes[c], vals, w)
	for j, p := range ps {
		v[p] = vals[j]
	}
}

// canonFrom canonicalises, in place, the class values of next, a
// successor of the canonical vector pre: only the classes with a position
// whose value differs from pre's (see above). pre nil: every class.
func (ol *ordLayout) canonFrom(pre, next []int64, w *canonWork) {
	for c, ps := range ol.pos {
		if pre != nil {
			same := true
			for _, p := range ps {
				if next[p] != pre[p] {
					same = false
					break
				}
			}
			if same {
				continue
			}
		}
		ol.canonClass(c, next, w)
	}
}
