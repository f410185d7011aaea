package cegar

import (
	"bytes"
	"encoding/binary"
	"hash/maphash"
	"math"
	"sync/atomic"
	"unsafe"
)

// keySet interns byte keys: the i-th key pushed has index i, its bytes in
// an arena of chunks of at most 1 MB (a varint length, then the key) and
// its place there in refs, 32 bits (the chunk << arenaOffBits | the
// offset); the keys put in the table are found again by lookup (an
// open-addressing table over the keys' 64-bit hashes, linear probing). There
// is no Go allocation and no pointer per key: a key costs its bytes and a
// length byte, 4 bytes of ref and, in the table, 4-8 bytes (at a load
// between 3/8 and 3/4). The arena holds up to arenaMaxChunks chunks (4 GB):
// push fails past it. The explorer keeps its control states (ctlKey: the
// vector of their components' ids) in one; the state store its value
// vectors in a vecSet (vecset.go), whose references are places in its
// arena, not dense indices.
//
// One goroutine at a time writes (push, put: the explorer holds its lock);
// any number read at once without a lock (key, lookup). Nothing a reader
// reads moves: the chunks of the arena and of refs are never reallocated,
// their lists are replaced, not changed, when one is added, and the table
// is replaced when it grows (idTable). A key's bytes and ref are written
// before put publishes its index; a reader that finds the index, or gets
// it through another synchronising operation, reads them whole. A lookup
// without the lock may miss a key put meanwhile, never find a wrong one:
// the explorer looks a missing key up again under its lock.
type keySet struct {
	// chunks lists the arena's chunks at their full length (readers);
	// last is the last chunk up to what is used (the writer's).
	chunks atomic.Pointer[[][]byte]
	last   []byte
	refs   atomic.Pointer[[]*[1 << refBits]uint32] // by index, in chunks
	n      int
	seed   maphash.Seed
	ids    idTable
}

const (
	refBits         = 10
	arenaFirstChunk = 1 << 12
	arenaOffBits    = 20
	arenaChunk      = 1 << arenaOffBits
	arenaMaxChunks  = 1 << (32 - arenaOffBits)
)

// init makes s an empty set.
func (s *keySet) init() {
	s.seed = maphash.MakeSeed()
	s.ids.init()
}

func (s *keySet) hash(k []byte) uint64 { return maphash.Bytes(s.seed, k) }

// key returns key i (in the arena: not to be modified).
func (s *keySet) key(i int32) []byte {
	ref := (*s.refs.Load())[i>>refBits][i&(1<<refBits-1)]
	b := (*s.chunks.Load())[ref>>arenaOffBits][ref&(arenaChunk-1):]
	l, k := binary.Uvarint(b)
	return b[k : k+int(l)]
}

// lookup returns the index of the key k (hash h) in the table.
func (s *keySet) lookup(k []byte, h uint64) (int32, bool) {
	return s.ids.find(h, func(i int32) bool { return bytes.Equal(s.key(i), k) })
}

// push appends the key k and returns its index; it is not in the table
// until put. It returns -1, and changes nothing, when the arena is full or
// k is longer than a chunk holds.
func (s *keySet) push(k []byte) int32 {
	need := binary.MaxVarintLen64 + len(k)
	if need > arenaChunk || s.n == math.MaxInt32 {
		return -1
	}
	chunks := s.chunks.Load()
	if chunks == nil || cap(s.last)-len(s.last) < need {
		var grown [][]byte
		size := arenaFirstChunk // then doubling up to arenaChunk: a small exploration allocates little
		if chunks != nil {
			if len(*chunks) == arenaMaxChunks {
				return -1
			}
			grown = append(grown, *chunks...)
			size = min(2*cap(s.last), arenaChunk)
		}
		c := make([]byte, max(size, need))
		grown = append(grown, c)
		s.chunks.Store(&grown)
		chunks, s.last = &grown, c[:0]
	}
	ref := uint32(len(*chunks)-1)<<arenaOffBits | uint32(len(s.last))
	s.last = binary.AppendUvarint(s.last, uint64(len(k)))
	s.last = append(s.last, k...)
	refs := s.refs.Load()
	if refs == nil || s.n>>refBits == len(*refs) {
		var grown []*[1 << refBits]uint32
		if refs != nil {
			grown = append(grown, *refs...)
		}
		grown = append(grown, new([1 << refBits]uint32))
		s.refs.Store(&grown)
		refs = &grown
	}
	(*refs)[s.n>>refBits][s.n&(1<<refBits-1)] = ref
	s.n++
	return int32(s.n - 1)
}

// put enters the key of index idx (hash h) in the table.
func (s *keySet) put(h uint64, idx int32) {
	s.ids.put(h, idx, func(j int32) uint64 { return s.hash(s.key(j)) })
}

// idTable is a keySet's table: its indices by their keys' 64-bit hashes,
// open addressing with linear probing, in 32-bit entries. With a table of
// 1<<bits entries an entry is the hash's tag (the top 32-bits bits of its
// upper half) << bits | (index + 1), 0 when free: the indices stay below
// the table's length (put grows it first), and the tag's bits (8 at 16
// million entries) spare most probes the reading of a key that differs.
// One goroutine at a time enters (put); any number look up at once: an
// entry is stored and loaded atomically, and a grown table replaces the
// old one whole, so that a lookup on the old one finds what it held.
type idTable struct {
	cur  atomic.Pointer[idTab]
	used int
}

// idTab is one table of an idTable and its size, 1<<bits.
type idTab struct {
	e    []uint32
	bits uint
}

const idTableFirstBits = 8

func (t *idTable) init() {
	t.cur.Store(&idTab{e: make([]uint32, 1<<idTableFirstBits), bits: idTableFirstBits})
}

// size is the number of entries the table has room for.
func (t *idTable) size() int { return len(t.cur.Load().e) }

// tagOf is the tag of hash h in a table of 1<<bits entries.
func (t *idTab) tagOf(h uint64) uint32 { return uint32(h>>32) >> t.bits << t.bits }

// find returns the index entered under a hash with h's tag for which eq
// holds, probing from h's place; -1 and false when there is none.
func (t *idTable) find(h uint64, eq func(int32) bool) (int32, bool) {
	tab := t.cur.Load()
	mask, tag, low := uint64(len(tab.e)-1), tab.tagOf(h), uint32(1)<<tab.bits-1
	for i := h & mask; ; i = (i + 1) & mask {
		e := atomic.LoadUint32(&tab.e[i])
		if e == 0 {
			return -1, false
		}
		if e&^low == tag {
			if j := int32(e&low) - 1; eq(j) {
				return j, true
			}
		}
	}
}

// put enters idx under the hash h, growing the table first when one more
// entry would pass a load of 3/4 or idx would not fit; rehash gives the
// hash of an index entered before.
func (t *idTable) put(h uint64, idx int32, rehash func(int32) uint64) {
	tab := t.cur.Load()
	if 4*(t.used+1) > 3*len(tab.e) || uint64(idx)+1 >= uint64(len(tab.e)) {
		bits := tab.bits + 1
		for uint64(idx)+1 >= 1<<bits {
			bits++
		}
		grown := &idTab{e: make([]uint32, 1<<bits), bits: bits}
		low := uint32(1)<<tab.bits - 1
		for _, e := range tab.e {
			if e != 0 {
				j := int32(e&low) - 1
				grown.place(rehash(j), j)
			}
		}
		t.cur.Store(grown)
		tab = grown
	}
	tab.place(h, idx)
	t.used++
}

// place enters idx under h, atomically: readers may be probing the table.
func (t *idTab) place(h uint64, idx int32) {
	mask := uint64(len(t.e) - 1)
	i := h & mask
	for t.e[i] != 0 {
		i = (i + 1) & mask
	}
	atomic.StoreUint32(&t.e[i], t.tagOf(h)|(uint32(idx)+1))
}

// bytes is the memory of the set as allocated: arena, refs, table.
func (s *keySet) bytes() int64 {
	b := int64(s.ids.size()) * 4
	if refs := s.refs.Load(); refs != nil {
		b += int64(len(*refs)) * int64(unsafe.Sizeof([1 << refBits]uint32{}))
	}
	if chunks := s.chunks.Load(); chunks != nil {
		for _, a := range *chunks {
			b += int64(cap(a))
		}
	}
	return b
}
