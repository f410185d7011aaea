package cegar

import (
	"bytes"
	"encoding/binary"
	"math"
	"math/rand"
	"slices"
	"testing"

	"fencer/predabs"
)

// TestKeySet interns enough keys of varied lengths to grow the table and
// the arena several times, and finds each again, by index and by lookup;
// a key not put is not found.
func TestKeySet(t *testing.T) {
	s := newKeySet()
	r := rand.New(rand.NewSource(1))
	var keys [][]byte
	for i := 0; i < 50000; i++ {
		k := binary.AppendUvarint(nil, uint64(i))
		k = append(k, make([]byte, r.Intn(40))...)
		keys = append(keys, k)
		h := s.hash(k)
		if _, ok := s.lookup(k, h); ok {
			t.Fatalf("key %d found before it is put", i)
		}
		idx := s.push(k)
		if int(idx) != i {
			t.Fatalf("push %d returned %d", i, idx)
		}
		if i%7 != 0 {
			s.put(h, idx)
		}
	}
	for i, k := range keys {
		if !bytes.Equal(s.key(int32(i)), k) {
			t.Fatalf("key %d: got %x, want %x", i, s.key(int32(i)), k)
		}
		j, ok := s.lookup(k, s.hash(k))
		if i%7 == 0 {
			if ok {
				t.Fatalf("key %d was not put, found at %d", i, j)
			}
			continue
		}
		if !ok || int(j) != i {
			t.Fatalf("key %d: lookup gave %d, %v", i, j, ok)
		}
	}
	if len(s.arena) < 2 || len(s.table) < 50000 {
		t.Errorf("the arena (%d chunks) and the table (%d slots) did not grow", len(s.arena), len(s.table))
	}
	// A key longer than a chunk is refused, and changes nothing.
	n, chunks := s.n, len(s.arena)
	if i := s.push(make([]byte, arenaChunk)); i != -1 || s.n != n || len(s.arena) != chunks {
		t.Errorf("a key of %d bytes: push gave %d (%d keys, %d chunks; before %d, %d)", arenaChunk, i, s.n, len(s.arena), n, chunks)
	}
	// One that fits in a chunk of its own is kept, and found again.
	big := bytes.Repeat([]byte{7}, arenaChunk-binary.MaxVarintLen64)
	if i := s.push(big); i != int32(n) || !bytes.Equal(s.key(i), big) {
		t.Errorf("a key of %d bytes: push gave %d, want %d, or its bytes differ", len(big), i, n)
	}
	if i := s.push(keys[1]); i != int32(n+1) || !bytes.Equal(s.key(i), keys[1]) || !bytes.Equal(s.key(int32(n)), big) {
		t.Errorf("a key after the big one: push gave %d, want %d, or the keys differ", i, n+1)
	}
}

// TestArena allocates runs of varied lengths across several chunks, fills
// them, and reads each back by its reference after the others.
func TestArena(t *testing.T) {
	var a arena[int32]
	type run struct {
		ref uint32
		n   int
	}
	var runs []run
	next := int32(1)
	r := rand.New(rand.NewSource(2))
	for i := 0; i < 20000; i++ {
		n := r.Intn(20)
		ref, s := a.alloc(n)
		if len(s) != n {
			t.Fatalf("alloc(%d) gave %d entries", n, len(s))
		}
		for j := range s {
			if s[j] != 0 {
				t.Fatalf("alloc(%d): entry %d is %d, not zero", n, j, s[j])
			}
			s[j] = next
			next++
		}
		runs = append(runs, run{ref, n})
	}
	want := int32(1)
	for _, x := range runs {
		for _, v := range a.run(x.ref, x.n) {
			if v != want {
				t.Fatalf("run at %x: got %d, want %d", x.ref, v, want)
			}
			want++
		}
	}
	if n := len(*a.chunks.Load()); n < 3 {
		t.Errorf("%d chunks for %d entries", n, next-1)
	}
}

// TestStateStore stores states with shared value vectors, and finds each
// again by its key, with its values; a key with other values is another
// state.
func TestStateStore(t *testing.T) {
	st := newStateStore()
	vecs := [][]int64{{0, 1, -1}, {5, 1 << 40, 0}, {0, 1, -2}}
	for c := int32(0); c < 3000; c++ {
		for i, v := range vecs {
			k := st.keyOf(c, v)
			if _, seen := st.lookup(k); seen {
				t.Fatalf("state (%d, %v) seen before it is stored", c, v)
			}
			idx := st.add(rnode{via: int32(i), parent: -1}, k, nil, -1)
			if got := st.key(idx); got != k {
				t.Fatalf("key of %d: %v, want %v", idx, got, k)
			}
		}
	}
	if st.vals.n != len(vecs) {
		t.Errorf("%d value vectors interned, want %d", st.vals.n, len(vecs))
	}
	out := make([]int64, 3)
	for c := int32(0); c < 3000; c++ {
		for i, v := range vecs {
			idx, seen := st.lookup(st.keyOf(c, v))
			if !seen || st.at(idx).c != c || st.at(idx).via != int32(i) {
				t.Fatalf("state (%d, %v): lookup gave %d, %v", c, v, idx, seen)
			}
			st.values(idx, out)
			if !slices.Equal(out, v) {
				t.Fatalf("values of %d: %v, want %v", idx, out, v)
			}
		}
	}
}

// TestAppendVals checks the store's encoding of value vectors against
// binary.AppendVarint's and its decoding (readVals) against the values,
// small and large, after other bytes.
func TestAppendVals(t *testing.T) {
	vecs := [][]int64{{}, {0}, {63, -64, 64, -65}, {1, 2, 1 << 40, -3, 0}, {math.MinInt64, math.MaxInt64, -1}}
	for _, v := range vecs {
		got := appendVals([]byte{9}, v)
		want := []byte{9}
		for _, x := range v {
			want = binary.AppendVarint(want, x)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("appendVals(%v) = %x, want %x", v, got, want)
		}
		out := make([]int64, len(v))
		readVals(got[1:], out)
		if !slices.Equal(out, v) {
			t.Errorf("readVals(appendVals(%v)) = %v", v, out)
		}
	}
}

// TestStateStoreCubes stores states without a cube (the table keeps no
// nodes), then one with a cube: from then on the first node of every key,
// those stored before included, is found again, and a state seen is
// subsumed only by a cube that covers it.
func TestStateStoreCubes(t *testing.T) {
	st := newStateStore()
	vals := []int64{1, 2}
	var ks []stateKey
	for c := int32(0); c < 500; c++ {
		k := st.keyOf(c, vals)
		ks = append(ks, k)
		st.add(rnode{parent: -1}, k, nil, -1)
	}
	if st.first != nil {
		t.Fatalf("the table keeps nodes before any cube")
	}
	i, seen := st.find(ks[7])
	if !seen || !st.subsumedAt(i, predabs.Cube{1}) {
		t.Fatalf("a state seen without cubes is not subsumed")
	}
	k := st.keyOf(1000, vals)
	a := st.add(rnode{parent: -1}, k, predabs.Cube{1, 0}, -1)
	if st.first == nil {
		t.Fatalf("the table keeps no nodes after a cube")
	}
	for j, k := range ks {
		if got, ok := st.lookup(k); !ok || got != int32(j) {
			t.Fatalf("key %v: lookup gave %d, %v, want %d", k, got, ok, j)
		}
	}
	i, seen = st.find(k)
	if !seen || st.firstAt(i) != a {
		t.Fatalf("the state with a cube is not found")
	}
	if st.subsumedAt(i, predabs.Cube{-1, 0}) || !st.subsumedAt(i, predabs.Cube{1, 1}) {
		t.Fatalf("subsumption under the stored cube {1, 0} is wrong")
	}
	b := st.add(rnode{parent: -1}, k, predabs.Cube{-1, 0}, st.firstAt(i))
	if !st.subsumedAt(i, predabs.Cube{-1, 0}) || st.subsumedAt(i, predabs.Cube{0, 1}) || b != a+1 {
		t.Fatalf("a second cube under one key is not kept")
	}
}
