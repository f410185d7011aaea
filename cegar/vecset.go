package cegar

import (
	"bytes"
	"encoding/binary"
	"hash/maphash"
	"slices"

	"fencer/domains"
)

// vecSet interns the value vectors of a state store (appendVals'
// encodings). A vector is known by its reference, its place in the arena
// (byteArena). The table (slots) holds the references under the vectors'
// hashes, so that finding a vector reads its slot and the vector, and
// nothing else: no index, no table of references. A vector
// costs its bytes, a length byte and 8-16 bytes of table (at a load
// between 3/8 and 3/4).
type vecSet struct {
	arena byteArena
	n     int // vectors pushed
	seed  maphash.Seed
	slots
}

// init makes s an empty set. Its arena has at most 1<<(31-arenaOffBits)
// chunks, so that references are int32: 2 GB of vectors.
func (s *vecSet) init() {
	s.arena.max = 1 << (31 - arenaOffBits)
	s.seed = maphash.MakeSeed()
	s.table = make([]uint64, 1<<8)
}

func (s *vecSet) hash(k []byte) uint64 { return maphash.Bytes(s.seed, k) }

// key returns the vector at ref (in the arena: not to be modified).
func (s *vecSet) key(ref int32) []byte { return s.arena.at(uint32(ref)) }

// lookup returns the reference of the vector k (hash h) in the table.
func (s *vecSet) lookup(k []byte, h uint64) (int32, bool) {
	return s.find(h, func(i int32) bool { return bytes.Equal(s.key(i), k) })
}

// push appends the vector k and returns its reference, -1 when the arena is
// full (2 GB) or k longer than a chunk; it is not in the table until put.
func (s *vecSet) push(k []byte) int32 {
	ref, ok := s.arena.push(k)
	if !ok {
		return -1
	}
	s.n++
	return int32(ref)
}

// put enters the vector at ref (hash h) in the table.
func (s *vecSet) put(h uint64, ref int32) {
	if s.full() {
		s.grow(func(j int32) uint64 { return s.hash(s.key(j)) })
	}
	s.place(h, ref)
}

// bytes is the memory of the set as allocated: arena and table.
func (s *vecSet) bytes() int64 {
	return int64(len(s.table))*8 + s.arena.bytes()
}

// appendVals appends the encoding of a value vector to b, as the store
// interns it: the values at the positions of kept (runs, as
// domains.Zeros: those of a profile that may be non-zero, keptRuns), in
// order, as zigzag varints (binary.AppendVarint's), with a fast path for
// the values of one byte. The other positions of a stored vector are 0
// (zeroAt), so they are left out: a bakery_4 state has 160 positions and
// keeps about 15.
func appendVals(b []byte, vals []int64, kept domains.Zeros) []byte {
	for j := 0; j+1 < len(kept); j += 2 {
		run := vals[kept[j]:kept[j+1]]
		n := len(b)
		b = slices.Grow(b, len(run))[:n+len(run)]
		if i := putSmall(b[n:], run); i < len(run) {
			b = b[:n+i]
			for _, v := range run[i:] {
				b = binary.AppendVarint(b, v)
			}
		}
	}
	return b
}

// putSmall writes the values of run into dst (as long) as zigzag bytes,
// up to the first that needs more than one, and returns how many it
// wrote. Eight values at a time when all are in 0..63 (most are: their
// zigzag bytes are 2v, one word shifted), then four, else one by one.
// (A loop of its own: inside appendVals' it kept its index on the
// stack.)
//
//go:noinline
func putSmall(dst []byte, run []int64) int {
	dst = dst[:len(run)]
	i := 0
	for i+8 <= len(run) {
		v := run[i : i+8 : i+8]
		if uint64(v[0]|v[1]|v[2]|v[3]|v[4]|v[5]|v[6]|v[7]) < 64 {
			w := uint64(v[0]) | uint64(v[1])<<8 | uint64(v[2])<<16 | uint64(v[3])<<24 |
				uint64(v[4])<<32 | uint64(v[5])<<40 | uint64(v[6])<<48 | uint64(v[7])<<56
			binary.LittleEndian.PutUint64(dst[i:i+8], w<<1)
			i += 8
			continue
		}
		for _, x := range v {
			u := uint64(x<<1) ^ uint64(x>>63)
			if u >= 0x80 {
				return i
			}
			dst[i] = byte(u)
			i++
		}
	}
	if i+4 <= len(run) {
		// The same for four of the last seven.
		if v := run[i : i+4 : i+4]; uint64(v[0]|v[1]|v[2]|v[3]) < 64 {
			w := uint32(v[0]) | uint32(v[1])<<8 | uint32(v[2])<<16 | uint32(v[3])<<24
			binary.LittleEndian.PutUint32(dst[i:i+4], w<<1)
			i += 4
		}
	}
	for ; i < len(run); i++ {
		x := run[i]
		u := uint64(x<<1) ^ uint64(x>>63)
		if u >= 0x80 {
			return i
		}
		dst[i] = byte(u)
	}
	return len(run)
}

// readVals decodes an appendVals encoding with the same kept into out,
// which is as long as the vector: 0 at the positions outside kept. Most
// vectors have one byte per value (then the encoding has one byte per
// position kept): those are decoded without a varint's branches.
func readVals(b []byte, out []int64, kept domains.Zeros) {
	clear(out)
	if len(b) == keptLen(kept) {
		for j := 0; j+1 < len(kept); j += 2 {
			run := out[kept[j]:kept[j+1]]
			getSmall(run, b[:len(run)])
			b = b[len(run):]
		}
		return
	}
	for j := 0; j+1 < len(kept); j += 2 {
		run := out[kept[j]:kept[j+1]]
		for i := range run {
			if u := b[0]; u < 0x80 {
				run[i] = int64(u>>1) ^ -int64(u&1)
				b = b[1:]
				continue
			}
			v, n := binary.Varint(b)
			run[i] = v
			b = b[n:]
		}
	}
}

// getSmall decodes the zigzag bytes b into run (as long): eight at a
// time when all are even (values in 0..63, the word shifted), then four,
// else one by one.
func getSmall(run []int64, b []byte) {
	run = run[:len(b)]
	i := 0
	for ; i+8 <= len(b); i += 8 {
		w := binary.LittleEndian.Uint64(b[i : i+8])
		r := run[i : i+8 : i+8]
		if w&0x0101010101010101 == 0 {
			w >>= 1
			r[0], r[1], r[2], r[3] = int64(byte(w)), int64(byte(w>>8)), int64(byte(w>>16)), int64(byte(w>>24))
			r[4], r[5], r[6], r[7] = int64(byte(w>>32)), int64(byte(w>>40)), int64(byte(w>>48)), int64(byte(w>>56))
			continue
		}
		for k, u := range b[i : i+8] {
			r[k] = int64(u>>1) ^ -int64(u&1)
		}
	}
	if i+4 <= len(b) {
		if w := binary.LittleEndian.Uint32(b[i : i+4]); w&0x01010101 == 0 {
			w >>= 1
			r := run[i : i+4 : i+4]
			r[0], r[1], r[2], r[3] = int64(byte(w)), int64(byte(w>>8)), int64(byte(w>>16)), int64(byte(w>>24))
			i += 4
		}
	}
	for ; i < len(b); i++ {
		u := b[i]
		run[i] = int64(u>>1) ^ -int64(u&1)
	}
}

// keptLen is the number of positions of kept.
func keptLen(kept domains.Zeros) int {
	n := 0
	for j := 0; j+1 < len(kept); j += 2 {
		n += int(kept[j+1] - kept[j])
	}
	return n
}

// keptRuns returns the runs of the positions 0..n-1 outside zero (runs):
// those a state's vector is stored by (appendVals). A gap of fewer than
// keptGap positions between two runs is kept too, its zeros encoded, and
// so is every position when fewer than keptLeast are left out: a run
// costs more to encode and decode than a few values of one byte.
func keptRuns(zero domains.Zeros, n int) domains.Zeros {
	kept := domains.Zeros{}
	add := func(lo, hi int32) {
		if k := len(kept); k > 0 && lo-kept[k-1] < keptGap {
			kept[k-1] = hi
			return
		}
		kept = append(kept, lo, hi)
	}
	at := int32(0)
	for j := 0; j+1 < len(zero); j += 2 {
		if zero[j] > at {
			add(at, zero[j])
		}
		at = zero[j+1]
	}
	if int(at) < n {
		add(at, int32(n))
	}
	if n-keptLen(kept) < keptLeast {
		return domains.Zeros{0, int32(n)}
	}
	return kept
}

// keptGap is the shortest gap between two runs of keptRuns, keptLeast
// the fewest positions it leaves out.
const keptGap, keptLeast = 8, 16

// slots is an open-addressing table of indices by their 64-bit hashes,
// with linear probing: an entry is the hash's upper half << 32 |
// (index + 1), 0 when free. Its users look their keys up themselves (the
// equality differs); entering and growing are the same for all.
type slots struct {
	table []uint64
	used  int
}

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
