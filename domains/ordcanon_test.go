package domains

import (
	"math/rand/v2"
	"slices"
	"testing"

	"fencer/ordview"
)

// canonVals is ordview.Class.Canon: the same canonical values on random
// vectors of classes with various hulls and caps, with its storage reused
// from one call to the next; and a canonical vector is a fixed point.
func TestCanonValsIsCanon(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	w := new(canonWork)
	for it := 0; it < 20000; it++ {
		lo := int64(r.IntN(5)) - 2
		c := &ordview.Class{Lo: lo, Hi: lo + int64(r.IntN(4)), Cap: 1 + int64(r.IntN(4))}
		n := r.IntN(40)
		vals := make([]int64, n)
		for i := range vals {
			vals[i] = int64(r.IntN(60)) - 30
			if r.IntN(3) == 0 {
				vals[i] = int64(r.IntN(1000)) - 500
			}
		}
		want := slices.Clone(vals)
		c.Canon(want, nil)
		got := slices.Clone(vals)
		canonVals(c, got, w)
		if !slices.Equal(got, want) {
			t.Fatalf("class %v, %v: canonVals %v, Canon %v", c, vals, got, want)
		}
		again := slices.Clone(got)
		canonVals(c, again, w)
		if !slices.Equal(again, got) {
			t.Fatalf("class %v: %v is not a fixed point: %v", c, got, again)
		}
	}
}

// canonStep from a canonical pre-state clears the positions of zero and
// canonicalises the classes whose positions the step assigned a new value
// or cleared, from or to one outside the hull (and skips the others): the result is the full canonical
// form of the cleared successor.
func TestCanonStepSkipsUnchanged(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	ol := &ordLayout{
		classes: []*ordview.Class{{Lo: 0, Hi: 1, Cap: 2}, {Lo: -1, Hi: 2, Cap: 3}},
		pos:     [][]int{{0, 2, 4, 6}, {1, 3, 5}},
		cls:     []int32{0, 1, 0, 1, 0, 1, 0, -1},
	}
	ol.setHulls()
	w := new(canonWork)
	for it := 0; it < 5000; it++ {
		pre := make([]int64, 8)
		for i := range pre {
			pre[i] = int64(r.IntN(40)) - 20
		}
		ol.canonAll(pre, w)
		next := slices.Clone(pre)
		s := &Step{}
		for k := r.IntN(3); k > 0; k-- {
			i := r.IntN(len(next))
			if slices.Contains(s.ordDst, i) {
				continue
			}
			j, d := r.IntN(len(next)), int64(r.IntN(5))-2
			next[i] = pre[j] + d
			if ol.cls[i] >= 0 { // as Compile: class positions, and copies
				src := -1
				if d == 0 && ol.cls[j] == ol.cls[i] {
					src = j
				}
				s.ordDst = append(s.ordDst, i)
				s.ordSrc = append(s.ordSrc, src)
			}
		}
		var zero Zeros
		if r.IntN(2) == 0 {
			lo := r.IntN(len(next))
			hi := lo + 1 + r.IntN(len(next)-lo)
			zero = Zeros{int32(lo), int32(hi)}
		}
		want := slices.Clone(next)
		if zero != nil {
			clear(want[zero[0]:zero[1]])
		}
		ol.canonAll(want, w)
		ol.canonStep(s, pre, next, zero, &lazyWork{w})
		if !slices.Equal(next, want) {
			t.Fatalf("from %v by %v, zero %v: canonStep %v, full %v", pre, s.ordDst, zero, next, want)
		}
	}
}
