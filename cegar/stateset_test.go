package cegar

import (
	"bytes"
	"encoding/binary"
	"math"
	"slices"
	"testing"

	"fencer/domains"
	"fencer/predabs"
)

// find, lookup and add are the store's lookups and adding with the key's
// hash computed from the key (hashOf), for the tests.

// find returns the slot of key k in the table and whether k is there.
func (s *stateStore) find(k stateKey) (uint64, bool) {
	return s.findHashed(k, s.hashOf(k))
}

// lookup returns the first node stored with key k.
func (s *stateStore) lookup(k stateKey) (int32, bool) {
	i, ok := s.find(k)
	if !ok {
		return -1, false
	}
	return s.firstAt(i), true
}

// add stores the node r with key k and cube c (addHashed).
func (s *stateStore) add(r rnode, k stateKey, c predabs.Cube, first int32) int32 {
	return s.addHashed(r, k, s.hashOf(k), c, first)
}

// TestStateStore stores states with shared value vectors, and finds each
// again by its key, with its values; a key with other values is another
// state.
func TestStateStore(t *testing.T) {
	st := newStateStore()
	defer st.release()
	vecs := [][]int64{{0, 1, -1}, {5, 1 << 40, 0}, {0, 1, -2}}
	for c := int32(0); c < 3000; c++ {
		for i, v := range vecs {
			k := st.keyOf(c, v, whole(3))
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
			idx, seen := st.lookup(st.keyOf(c, v, whole(3)))
			if !seen || st.at(idx).c != c || st.at(idx).via != int32(i) {
				t.Fatalf("state (%d, %v): lookup gave %d, %v", c, v, idx, seen)
			}
			st.values(idx, out, whole(3))
			if !slices.Equal(out, v) {
				t.Fatalf("values of %d: %v, want %v", idx, out, v)
			}
		}
	}
}

// whole is the runs of all of n positions (keptRuns with none zero).
func whole(n int) domains.Zeros { return keptRuns(nil, n) }

// TestAppendVals checks the store's encoding of value vectors against
// binary.AppendVarint's of the positions kept and its decoding (readVals)
// against the values there, 0 elsewhere, for values small and large,
// after other bytes, with every position kept and with runs left out.
func TestAppendVals(t *testing.T) {
	vecs := [][]int64{{}, {0}, {63, -64, 64, -65}, {1, 2, 1 << 40, -3, 0}, {math.MinInt64, math.MaxInt64, -1}}
	for _, at := range []int{-1, 0, 7, 8, 11, 16, 18} {
		v := make([]int64, 19)
		for j := range v {
			v[j] = int64(j%5) - 2
		}
		if at >= 0 {
			v[at] = 64
		}
		vecs = append(vecs, v, v[:16], v[:8])
	}
	// Runs of zeros, the ends of the one-byte range, and a value past it
	// after a run.
	z := make([]int64, 41)
	z[3], z[12], z[13], z[33] = 63, -64, 63, -1
	big := slices.Clone(z)
	big[30] = -65
	vecs = append(vecs, z, z[:32], big, make([]int64, 16))
	// Values in 0..63, eight at a time, with one outside at places
	// inside and after the words.
	for _, at := range []int{-1, 0, 7, 9, 16, 26} {
		for _, x := range []int64{64, -1, 127} {
			v := make([]int64, 27)
			for j := range v {
				v[j] = int64(j*7) % 64
			}
			if at >= 0 {
				v[at] = x
			}
			vecs = append(vecs, v)
		}
	}
	// The four after the words: a vector of 13 and one of 5, with one
	// value outside at places inside and around them.
	for _, at := range []int{-1, 0, 3, 4, 8, 9, 11, 12} {
		v := make([]int64, 13)
		for j := range v {
			v[j] = int64(j*5) % 64
		}
		if at >= 0 {
			v[at] = -1
		}
		vecs = append(vecs, v, v[8:], v[:5])
	}
	for _, v := range vecs {
		n := len(v)
		zeros := []domains.Zeros{nil, {0, int32(n)}}
		if n > 4 {
			zeros = append(zeros, domains.Zeros{0, 1}, domains.Zeros{1, 3, int32(n - 1), int32(n)}, domains.Zeros{2, int32(n / 2)})
		}
		for _, zero := range zeros {
			kept := keptRuns(zero, n)
			got := appendVals([]byte{9}, v, kept)
			want := []byte{9}
			wantOut := make([]int64, n)
			for j := 0; j+1 < len(kept); j += 2 {
				for p := kept[j]; p < kept[j+1]; p++ {
					want = binary.AppendVarint(want, v[p])
					wantOut[p] = v[p]
				}
			}
			if !bytes.Equal(got, want) {
				t.Errorf("appendVals(%v, %v) = %x, want %x", v, kept, got, want)
			}
			out := make([]int64, n)
			for j := range out {
				out[j] = 7 // readVals clears what is not kept
			}
			readVals(got[1:], out, kept)
			if !slices.Equal(out, wantOut) {
				t.Errorf("readVals(appendVals(%v, %v)) = %v, want %v", v, kept, out, wantOut)
			}
		}
	}
}

// TestKeptRuns checks the complement of a profile's zero runs.
func TestKeptRuns(t *testing.T) {
	for _, c := range []struct {
		zero domains.Zeros
		n    int
		want domains.Zeros
	}{
		{nil, 0, domains.Zeros{0, 0}},
		{nil, 3, domains.Zeros{0, 3}},
		{domains.Zeros{0, 3}, 3, domains.Zeros{0, 3}},
		{domains.Zeros{0, 1, 4, 6}, 8, domains.Zeros{0, 8}},
		{domains.Zeros{0, 1, 4, 4 + keptLeast}, 10 + keptLeast, domains.Zeros{1, 4, 4 + keptLeast, 10 + keptLeast}},
		{domains.Zeros{3, 3 + keptGap - 1, 20, 20 + keptLeast}, 20 + keptLeast, domains.Zeros{0, 20}},
		{domains.Zeros{0, keptLeast}, 2 * keptLeast, domains.Zeros{keptLeast, 2 * keptLeast}},
		{domains.Zeros{0, keptLeast}, keptLeast, domains.Zeros{}},
	} {
		if got := keptRuns(c.zero, c.n); !slices.Equal(got, c.want) {
			t.Errorf("keptRuns(%v, %d) = %v, want %v", c.zero, c.n, got, c.want)
		}
	}
}

// TestStateStoreCubes stores states without a cube, then states with
// cubes: the first node of every key, those stored before included, is
// found again, a state seen is subsumed only by a cube that covers it, and
// further nodes under a key (more nodes than keys) do not go into the
// table, which still finds every first node after it grows.
func TestStateStoreCubes(t *testing.T) {
	st := newStateStore()
	defer st.release()
	vals := []int64{1, 2}
	var ks []stateKey
	for c := int32(0); c < 500; c++ {
		k := st.keyOf(c, vals, whole(len(vals)))
		ks = append(ks, k)
		st.add(rnode{parent: -1}, k, nil, -1)
	}
	i, seen := st.find(ks[7])
	if !seen || !st.subsumedAt(i, predabs.Cube{1}) {
		t.Fatalf("a state seen without cubes is not subsumed")
	}
	k := st.keyOf(1000, vals, whole(len(vals)))
	a := st.add(rnode{parent: -1}, k, predabs.Cube{1, 0}, -1)
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
	// Many more nodes than keys: 300 keys get 20 nodes each, with cubes
	// that are full assignments (none covers another); the table grows
	// for their indices.
	full := func(r int) predabs.Cube {
		c := make(predabs.Cube, 8)
		for b := range c {
			c[b] = int8(r>>b&1*2 - 1)
		}
		return c
	}
	var many []stateKey
	for j := int32(0); j < 300; j++ {
		many = append(many, st.keyOf(2000+j, vals, whole(len(vals))))
	}
	for r := 0; r < 20; r++ {
		for j, k := range many {
			i, seen := st.find(k)
			first := int32(-1)
			if seen {
				if st.subsumedAt(i, full(r)) {
					t.Fatalf("cube %d of key %d subsumed", r, j)
				}
				first = st.firstAt(i)
			}
			st.add(rnode{via: int32(r), parent: int32(j)}, k, full(r), first)
		}
	}
	for j, k := range many {
		i, seen := st.find(k)
		if !seen || st.firstAt(i) != int32(502+j) || !st.subsumedAt(i, full(19)) || st.subsumedAt(i, full(20)) {
			t.Fatalf("key %d of many: found %v, first %d, want %d", j, seen, st.firstAt(i), 502+j)
		}
	}
	// New keys after them have indices beyond the table's length before:
	// the table grows for them.
	before := len(st.table)
	for j := int32(0); j < 10; j++ {
		k := st.keyOf(5000+j, vals, whole(len(vals)))
		idx := st.add(rnode{parent: -1}, k, nil, -1)
		if got, ok := st.lookup(k); !ok || got != idx {
			t.Fatalf("new key %d: lookup gave %d, %v, want %d", j, got, ok, idx)
		}
	}
	if len(st.table) <= before || len(st.table) <= st.n {
		t.Fatalf("a table of %d slots (%d before) for %d nodes", len(st.table), before, st.n)
	}
	for j, k := range many {
		if got, ok := st.lookup(k); !ok || got != int32(502+j) {
			t.Fatalf("key %d of many after growth: lookup gave %d, %v", j, got, ok)
		}
	}
	for j, k := range ks {
		if got, ok := st.lookup(k); !ok || got != int32(j) {
			t.Fatalf("key %v after growth: lookup gave %d, %v, want %d", k, got, ok, j)
		}
	}
}

// TestStateStoreNodes stores nodes with steps that do not fit 16 bits
// and the initial states' -1, and reads every field back; the table grows
// across several chunks of nodes.
func TestStateStoreNodes(t *testing.T) {
	st := newStateStore()
	defer st.release()
	vals := []int64{3}
	n := int32(3 << stateChunkBits)
	viaOf := func(c int32) int32 {
		switch c % 7 {
		case 0:
			return -1
		case 1:
			return viaBig + c
		case 2:
			return viaBig - 1
		}
		return c % 1000
	}
	for c := int32(0); c < n; c++ {
		st.add(rnode{via: viaOf(c), parent: c - 1}, st.keyOf(c, vals, whole(len(vals))), nil, -1)
	}
	for c := int32(0); c < n; c++ {
		r := st.at(c)
		via := viaOf(c)
		if r.c != c || r.via != via || r.parent != c-1 || r.v != st.key(c).v {
			t.Fatalf("node %d: %+v, want control %d, step %d, parent %d", c, r, c, via, c-1)
		}
		if i, ok := st.lookup(stateKey{c, r.v}); !ok || i != c {
			t.Fatalf("node %d: lookup gave %d, %v", c, i, ok)
		}
	}
	if _, ok := st.lookup(stateKey{n, st.key(0).v}); ok {
		t.Fatalf("a key not stored is found")
	}
}

// TestSlabChunks checks the sizes of the slabs of chunks: doubling from
// one, then slabMax for good.
func TestSlabChunks(t *testing.T) {
	want := []int{1, 2, 4, 8, 16, 32, 64, 128, 256, 256, 256}
	for i, w := range want {
		if got := slabChunks(i); got != w {
			t.Errorf("slabChunks(%d) = %d, want %d", i, got, w)
		}
	}
	for _, i := range []int{63, 64, 65, 1000} {
		if got := slabChunks(i); got != slabMax {
			t.Errorf("slabChunks(%d) = %d, want %d", i, got, slabMax)
		}
	}
}

// releaseStore returns the store's memory (stateStore.release).
func releaseStore(st *stateStore) { st.release() }
