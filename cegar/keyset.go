package cegar

import (
	"bytes"
	"encoding/binary"
	"hash/maphash"
	"math"
	"unsafe"
)

// keySet interns byte keys: the i-th key pushed has index i, its bytes in
// an arena of chunks of at most 1 MB (a varint length, then the key) and
// its place there in refs, 32 bits (the chunk << arenaOffBits | the
// offset); the keys put in the table are found again by lookup (an
// open-addressing table over the keys' 64-bit hashes, linear probing). There
// is no Go allocation and no pointer per key: a key costs its bytes and a
// length byte, 4 bytes of ref and, in the table, 8-16 bytes (at a load
// between 3/8 and 3/4). The arena holds up to arenaMaxChunks chunks (4 GB):
// push fails past it. The explorer keeps its control states (ctlKey: the
// vector of their components' ids) in one; the state store its value
// vectors in a vecSet (vecset.go), whose references are places in its
// arena, not dense indices.
type keySet struct {
	arena [][]byte
	refs  [][]uint32 // by index, in chunks of 1<<refBits
	n     int
	seed  maphash.Seed
	slots
}

const (
	refBits         = 10
	arenaFirstChunk = 1 << 12
	arenaOffBits    = 20
	arenaChunk      = 1 << arenaOffBits
	arenaMaxChunks  = 1 << (32 - arenaOffBits)
)

func newKeySet() keySet {
	return keySet{seed: maphash.MakeSeed(), slots: newSlots()}
}

func (s *keySet) hash(k []byte) uint64 { return maphash.Bytes(s.seed, k) }

// key returns key i (in the arena: not to be modified).
func (s *keySet) key(i int32) []byte {
	ref := s.refs[i>>refBits][i&(1<<refBits-1)]
	b := s.arena[ref>>arenaOffBits][ref&(arenaChunk-1):]
	l, k := binary.Uvarint(b)
	return b[k : k+int(l)]
}

// lookup returns the index of the key k (hash h) in the table.
func (s *keySet) lookup(k []byte, h uint64) (int32, bool) {
	return s.find(h, func(i int32) bool { return bytes.Equal(s.key(i), k) })
}

// push appends the key k and returns its index; it is not in the table
// until put. It returns -1, and changes nothing, when the arena is full or
// k is longer than a chunk holds.
func (s *keySet) push(k []byte) int32 {
	need := binary.MaxVarintLen64 + len(k)
	if need > arenaChunk || s.n == math.MaxInt32 {
		return -1
	}
	if len(s.arena) == 0 || cap(s.arena[len(s.arena)-1])-len(s.arena[len(s.arena)-1]) < need {
		if len(s.arena) == arenaMaxChunks {
			return -1
		}
		size := arenaFirstChunk // then doubling up to arenaChunk: a small exploration allocates little
		if len(s.arena) > 0 {
			size = min(2*cap(s.arena[len(s.arena)-1]), arenaChunk)
		}
		s.arena = append(s.arena, make([]byte, 0, max(size, need)))
	}
	a := &s.arena[len(s.arena)-1]
	ref := uint32(len(s.arena)-1)<<arenaOffBits | uint32(len(*a))
	*a = binary.AppendUvarint(*a, uint64(len(k)))
	*a = append(*a, k...)
	if s.n>>refBits == len(s.refs) {
		s.refs = append(s.refs, make([]uint32, 0, 1<<refBits))
	}
	ch := &s.refs[len(s.refs)-1]
	*ch = append(*ch, ref)
	s.n++
	return int32(s.n - 1)
}

// put enters the key of index idx (hash h) in the table.
func (s *keySet) put(h uint64, idx int32) {
	if s.full() {
		s.grow(func(j int32) uint64 { return s.hash(s.key(j)) })
	}
	s.place(h, idx)
}

// slots is an open-addressing table of indices by their 64-bit hashes,
// with linear probing: an entry is the hash's upper half << 32 |
// (index + 1), 0 when free. Its users look their keys up themselves (the
// equality differs); entering and growing are the same for all.
type slots struct {
	table []uint64
	used  int
}

func newSlots() slots { return slots{table: make([]uint64, 1<<8)} }

// full says whether one more entry would pass a load of 3/4: grow first.
func (t *slots) full() bool { return 4*(t.used+1) > 3*len(t.table) }

// grow doubles the table; rehash gives the hash of an index entered
// before. (Its users call it only when full: a closure made per entry
// would be an allocation per state.)
func (t *slots) grow(rehash func(int32) uint64) {
	old := t.table
	t.table, t.used = make([]uint64, 2*len(old)), 0
	for _, e := range old {
		if e != 0 {
			j := int32(uint32(e) - 1)
			t.place(rehash(j), j)
		}
	}
}

// find returns the index entered under a hash with h's top half for which
// eq holds, probing from h's place; -1 and false when there is none (eq
// is called only on a match of the hashes' top halves).
func (t *slots) find(h uint64, eq func(int32) bool) (int32, bool) {
	mask := uint64(len(t.table) - 1)
	for i := h & mask; ; i = (i + 1) & mask {
		e := t.table[i]
		if e == 0 {
			return -1, false
		}
		if uint32(e>>32) == uint32(h>>32) {
			if j := int32(uint32(e) - 1); eq(j) {
				return j, true
			}
		}
	}
}

// place enters idx under the hash h.
func (t *slots) place(h uint64, idx int32) {
	mask := uint64(len(t.table) - 1)
	i := h & mask
	for t.table[i] != 0 {
		i = (i + 1) & mask
	}
	t.table[i] = h>>32<<32 | uint64(uint32(idx)+1)
	t.used++
}

// bytes is the memory of the set as allocated: arena, refs, table.
func (s *keySet) bytes() int64 {
	b := int64(len(s.refs))*(1<<refBits)*int64(unsafe.Sizeof(uint32(0))) + int64(len(s.table))*8
	for _, a := range s.arena {
		b += int64(cap(a))
	}
	return b
}
