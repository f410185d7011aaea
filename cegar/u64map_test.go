package cegar

import (
	"math/rand"
	"testing"
)

// u64map agrees with a Go map on random puts and gets, across growth
// and reset.
func TestU64Map(t *testing.T) {
	r := rand.New(rand.NewSource(1))
	var m u64map
	want := map[uint64]uint32{}
	for round := range 3 {
		for range 5000 {
			k := r.Uint64() % 3000 << (r.Intn(3) * 20)
			if r.Intn(2) == 0 {
				v := r.Uint32()
				m.put(k, v)
				want[k] = v
			}
			got, ok := m.get(k)
			w, wok := want[k]
			if ok != wok || got != w {
				t.Fatalf("round %d: get(%d) = %d, %v; want %d, %v", round, k, got, ok, w, wok)
			}
		}
		if m.n != len(want) {
			t.Fatalf("round %d: %d keys, want %d", round, m.n, len(want))
		}
		m.reset()
		clear(want)
	}
}
