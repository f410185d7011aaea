package statestore

import (
	"fmt"
	"math/rand"
	"sync"
	"testing"

	"pgregory.net/rapid"
)

func key(v []uint32) string { return fmt.Sprint(v) }

// stores returns a fresh store of each kind for vectors of width w cut
// into components at starts.
func stores(t interface{ Fatal(...any) }, w int, starts []int) map[string]Store {
	c, err := NewCollapse(w, starts)
	if err != nil {
		t.Fatal(err)
	}
	return map[string]Store{"collapse": c}
}

// TestAgainstMap inserts random vectors, most of them a change of one
// component of a vector inserted before, into each store and into a
// map[string]int, and checks that both agree on which are new, on the
// indices, on the vectors and parents read back and on lookups.
func TestAgainstMap(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		w := rapid.IntRange(1, 40).Draw(rt, "width")
		var starts []int
		for i := 0; i < w; i++ {
			if i == 0 || rapid.IntRange(0, 3).Draw(rt, "cut") == 0 {
				starts = append(starts, i)
			}
		}
		maxVal := uint32(rapid.IntRange(1, 5).Draw(rt, "maxVal"))
		n := rapid.IntRange(1, 3000).Draw(rt, "n")
		seed := rapid.Int64().Draw(rt, "seed")
		for name, s := range stores(rt, w, starts) {
			rnd := rand.New(rand.NewSource(seed))
			ref := map[string]uint32{}
			var vecs [][]uint32
			var par []uint32
			for k := 0; k < n; k++ {
				v := make([]uint32, w)
				parent := NoParent
				if len(vecs) > 0 && rnd.Intn(8) != 0 {
					parent = uint32(rnd.Intn(len(vecs)))
					copy(v, vecs[parent])
					c := rnd.Intn(len(starts))
					end := w
					if c+1 < len(starts) {
						end = starts[c+1]
					}
					for j := starts[c]; j < end; j++ {
						if rnd.Intn(2) == 0 {
							v[j] = uint32(rnd.Intn(int(maxVal) + 1))
						}
					}
					if rnd.Intn(50) == 0 {
						v[rnd.Intn(w)] = rnd.Uint32() // a large value now and then
					}
				} else {
					for j := range v {
						v[j] = uint32(rnd.Intn(int(maxVal) + 1))
					}
				}
				want, dup := ref[key(v)]
				if !dup {
					want = uint32(len(vecs))
				}
				if got, ok := s.Lookup(v); ok != dup || (ok && got != want) {
					rt.Fatalf("%s: Lookup before insert %d: (%d, %v), want (%d, %v)", name, k, got, ok, want, dup)
				}
				idx, fresh, err := s.Insert(v, parent)
				if err != nil {
					rt.Fatal(err)
				}
				if fresh == dup || idx != want {
					rt.Fatalf("%s: insert %d: (%d, %v), want (%d, %v)", name, k, idx, fresh, want, !dup)
				}
				if !dup {
					ref[key(v)] = want
					vecs = append(vecs, v)
					par = append(par, parent)
				}
			}
			if s.Len() != len(vecs) {
				rt.Fatalf("%s: Len %d, want %d", name, s.Len(), len(vecs))
			}
			for i, v := range vecs {
				got := s.Vector([]uint32{7}, uint32(i))
				if key(got[1:]) != key(v) || got[0] != 7 {
					rt.Fatalf("%s: Vector(%d) = %v, want %v", name, i, got[1:], v)
				}
				if p := s.Parent(uint32(i)); p != par[i] {
					rt.Fatalf("%s: Parent(%d) = %d, want %d", name, i, p, par[i])
				}
				if j, ok := s.Lookup(v); !ok || j != uint32(i) {
					rt.Fatalf("%s: Lookup(%v) = %d, %v", name, v, j, ok)
				}
			}
			if len(vecs) > 0 {
				last := uint32(len(vecs) - 1)
				tr := Trace(s, last)
				if tr[len(tr)-1] != last || s.Parent(tr[0]) != NoParent {
					rt.Fatalf("%s: Trace(%d) = %v", name, last, tr)
				}
				for j := 1; j < len(tr); j++ {
					if par[tr[j]] != tr[j-1] {
						rt.Fatalf("%s: Trace(%d) = %v breaks at %d", name, last, tr, j)
					}
				}
			}
			if s.Bytes() <= 0 {
				rt.Fatalf("%s: Bytes %d", name, s.Bytes())
			}
		}
	})
}

func TestBadLayout(t *testing.T) {
	for _, c := range []struct {
		w      int
		starts []int
	}{{0, []int{0}}, {4, nil}, {4, []int{1}}, {4, []int{0, 2, 2}}, {4, []int{0, 4}}} {
		if _, err := NewCollapse(c.w, c.starts); err == nil {
			t.Errorf("NewCollapse(%d, %v): no error", c.w, c.starts)
		}
	}
	for name, s := range stores(t, 3, []int{0, 1}) {
		if _, _, err := s.Insert([]uint32{1, 2}, NoParent); err == nil {
			t.Errorf("%s: a vector of the wrong width was inserted", name)
		}
		if _, ok := s.Lookup([]uint32{1, 2, 3, 4}); ok {
			t.Errorf("%s: a vector of the wrong width was found", name)
		}
	}
}

// TestConcurrentReaders checks the contract under the race detector: a
// writer inserts and hands indices to readers, which read vectors and
// parents while the writer goes on.
func TestConcurrentReaders(t *testing.T) {
	for name, s := range stores(t, 12, []int{0, 4, 8}) {
		ch := make(chan uint32, 64)
		var wg sync.WaitGroup
		var mu sync.Mutex
		bad := 0
		for r := 0; r < 3; r++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				var buf []uint32
				for idx := range ch {
					buf = s.Vector(buf[:0], idx)
					if buf[0] != idx || (idx > 0 && s.Parent(idx) != idx-1) {
						mu.Lock()
						bad++
						mu.Unlock()
					}
				}
			}()
		}
		v := make([]uint32, 12)
		for i := uint32(0); i < 20000; i++ {
			v[0], v[5], v[11] = i, i%7, i%3
			p := NoParent
			if i > 0 {
				p = i - 1
			}
			idx, fresh, err := s.Insert(v, p)
			if err != nil || !fresh || idx != i {
				t.Fatalf("%s: insert %d: %d %v %v", name, i, idx, fresh, err)
			}
			ch <- idx
		}
		close(ch)
		wg.Wait()
		if bad > 0 {
			t.Errorf("%s: %d wrong reads", name, bad)
		}
	}
}

func TestLocate(t *testing.T) {
	prevK, prevOff := 0, uint32(0)
	for i := uint32(1); i < 10*segBase; i++ {
		k, off := locate(i)
		if k == prevK && off != prevOff+1 || k != prevK && (k != prevK+1 || off != 0 || prevOff != segBase<<prevK-1) {
			t.Fatalf("locate(%d) = %d, %d after %d, %d", i, k, off, prevK, prevOff)
		}
		prevK, prevOff = k, off
	}
	if k, off := locate(MaxStates); k >= maxSegs || uint64(off) >= uint64(segBase)<<k {
		t.Fatalf("locate(MaxStates) = %d, %d", k, off)
	}
}
