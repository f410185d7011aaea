package cegar

import (
	"math/rand"
	"testing"
)

// BenchmarkStateStore stores a million states of 4096 control ids and 256
// value vectors in a random order, each looked up twice before (a state
// seen is looked up again, as successors are): the table and the nodes
// outgrow the caches, as in an exploration.
func BenchmarkStateStore(b *testing.B) {
	const n = 1 << 20
	r := rand.New(rand.NewSource(1))
	perm := r.Perm(n)
	vecs := make([][]int64, 256)
	for i := range vecs {
		vecs[i] = []int64{int64(i), int64(i * 7), -int64(i)}
	}
	all := whole(3)
	b.ReportAllocs()
	for b.Loop() {
		st := newStateStore()
		for j, p := range perm {
			k := st.keyOf(int32(p>>8), vecs[p&255], all)
			for range 2 {
				if _, seen := st.find(k); seen {
					continue
				}
				st.add(rnode{via: int32(j & 7), parent: int32(j - 1)}, k, nil, -1)
			}
		}
		if st.n != n {
			b.Fatalf("%d states stored, want %d", st.n, n)
		}
		b.ReportMetric(float64(st.bytes())/n, "B/state")
		releaseStore(st)
	}
}
