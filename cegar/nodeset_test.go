package cegar

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math/rand"
	"testing"
)

// TestNodeSet adds enough nodes with keys of varied lengths (in the node
// and in the arena) to grow the table and the arena several times, and
// finds each again, by id and by lookup; a node not put is not found.
func TestNodeSet(t *testing.T) {
	var s nodeSet
	s.init()
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
		n := s.add(k)
		if n == nil || int(n.id) != i {
			t.Fatalf("add %d returned %v", i, n)
		}
		if i%7 != 0 {
			s.put(h, n)
		}
	}
	for i, k := range keys {
		if got := s.key(s.node(int32(i))); !bytes.Equal(got, k) {
			t.Fatalf("key %d: got %x, want %x", i, got, k)
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
	if s.long.nchunks() < 2 || s.ids.size() < 50000 {
		t.Errorf("the arena (%d chunks) and the table (%d slots) did not grow", s.long.nchunks(), s.ids.size())
	}
	// A key longer than a chunk is refused, and changes nothing.
	n, chunks := s.n, s.long.nchunks()
	if nd := s.add(make([]byte, arenaChunk)); nd != nil || s.n != n || s.long.nchunks() != chunks {
		t.Errorf("a key of %d bytes: add gave %v (%d nodes, %d chunks; before %d, %d)", arenaChunk, nd, s.n, s.long.nchunks(), n, chunks)
	}
	// One that fits in a chunk of its own is kept, and found again.
	big := bytes.Repeat([]byte{7}, arenaChunk-binary.MaxVarintLen64)
	if nd := s.add(big); nd == nil || nd.id != int32(n) || !bytes.Equal(s.key(nd), big) {
		t.Errorf("a key of %d bytes: add gave %v, want id %d, or its bytes differ", len(big), nd, n)
	}
	if nd := s.add(keys[1]); nd == nil || nd.id != int32(n+1) || !bytes.Equal(s.key(nd), keys[1]) || !bytes.Equal(s.key(s.node(int32(n))), big) {
		t.Errorf("a key after the big one: add gave %v, want id %d, or the keys differ", nd, n+1)
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

// TestNodeSetReadersDuringWrites has readers look keys up and read them
// back while one writer pushes and puts more, growing the arena, refs and
// the table (run it with -race): a reader finds only the key it asked
// for, and every key put before it started.
func TestNodeSetReadersDuringWrites(t *testing.T) {
	var s nodeSet
	s.init()
	key := func(i int) []byte {
		k := binary.AppendUvarint(nil, uint64(i))
		return append(k, bytes.Repeat([]byte{byte(i)}, i%23)...)
	}
	put := func(i int) {
		k := key(i)
		s.put(s.hash(k), s.add(k))
	}
	const before, total = 2000, 60000
	for i := 0; i < before; i++ {
		put(i)
	}
	done := make(chan struct{})
	errs := make(chan string, 4)
	for r := 0; r < 3; r++ {
		go func(r int) {
			rnd := rand.New(rand.NewSource(int64(r)))
			for {
				select {
				case <-done:
					errs <- ""
					return
				default:
				}
				i := rnd.Intn(total)
				k := key(i)
				j, ok := s.lookup(k, s.hash(k))
				switch {
				case ok && (int(j) != i || !bytes.Equal(s.key(s.node(j)), k)):
					errs <- fmt.Sprintf("key %d found at %d (%x)", i, j, s.key(s.node(j)))
					return
				case !ok && i < before:
					errs <- fmt.Sprintf("key %d, put before the readers started, not found", i)
					return
				}
			}
		}(r)
	}
	for i := before; i < total; i++ {
		put(i)
	}
	close(done)
	for r := 0; r < 3; r++ {
		if e := <-errs; e != "" {
			t.Fatal(e)
		}
	}
	for i := 0; i < total; i++ {
		if j, ok := s.lookup(key(i), s.hash(key(i))); !ok || int(j) != i {
			t.Fatalf("key %d after the writes: lookup gave %d, %v", i, j, ok)
		}
	}
}
