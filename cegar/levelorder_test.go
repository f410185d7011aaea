package cegar

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestSortLevel checks sortLevel against its definition: the states of a
// level grouped by node, the groups in the order of their first state,
// each group in the level's order; and that the marks of one level do not
// leak into the next, across the wrap of the stamps.
func TestSortLevel(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	st := newStateStore()
	defer st.release()
	const states = 2000
	for i := range states {
		st.add(rnode{via: -1, parent: -1}, st.keyOf(int32(r.IntN(50)), []int64{int64(i)}, whole(1)), nil, -1)
	}
	x := &explorer{}
	for call := range 600 {
		n := 1 + r.IntN(40)
		level := make([]int32, n)
		for j := range level {
			level[j] = int32(r.IntN(states))
			if r.IntN(4) == 0 {
				level[j] = -1 - level[j] // a re-expansion
			}
		}
		var want []int32
		var order []int32 // the nodes by first state
		node := func(e int32) int32 { return st.key(max(e, -1-e)).c }
		for _, e := range level {
			if c := node(e); !slices.Contains(order, c) {
				order = append(order, c)
			}
		}
		for _, c := range order {
			for _, e := range level {
				if node(e) == c {
					want = append(want, e)
				}
			}
		}
		x.sortLevel(st, level)
		if !slices.Equal(level, want) {
			t.Fatalf("call %d: sortLevel gave %v, want %v", call, level, want)
		}
	}
}
