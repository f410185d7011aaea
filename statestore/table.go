package statestore

import (
	"bytes"
	"math/bits"
	"unsafe"
)

// table interns records of w uint32 words: equal records get the same
// index, indices are 0, 1, 2, ... in the order records were first seen.
// The records live in a segvec (no Go allocation per record); the index is
// open addressing with linear probing over 64-bit words, each holding the
// high 32 bits of the record's hash (a tag that rejects most mismatches
// without touching the record) and the record's index plus one (0 marks an
// empty slot).
type table struct {
	data  segvec
	slots []uint64
	mask  uint64
}

// maxLoad is the load factor, in eighths, at which the slots double.
const maxLoad = 6

func newTable(w int) *table {
	t := &table{data: segvec{w: w}}
	t.slots = make([]uint64, 64)
	t.mask = 63
	return t
}

// hashWords is a 64-bit hash of a record: a multiply-rotate per word and
// the finaliser of MurmurHash3, so that both the low bits (the slot) and
// the high bits (the tag) depend on every word.
func hashWords(v []uint32) uint64 {
	h := uint64(len(v))*0x9e3779b97f4a7c15 + 0x2545f4914f6cdd1d
	i := 0
	for ; i+1 < len(v); i += 2 {
		k := uint64(v[i]) | uint64(v[i+1])<<32
		h = bits.RotateLeft64((h^k)*0xff51afd7ed558ccd, 29)
	}
	if i < len(v) {
		h = bits.RotateLeft64((h^uint64(v[i]))*0xff51afd7ed558ccd, 29)
	}
	h ^= h >> 33
	h *= 0xc4ceb9fe1a85ec53
	h ^= h >> 33
	return h
}

// equalWords reports whether a and b are equal: word by word when short,
// else comparing their bytes (the runtime's vectorised memequal, several
// times faster on records of a few dozen words, slower on a few words for
// the call).
func equalWords(a, b []uint32) bool {
	if len(a) != len(b) {
		return false
	}
	if len(a) <= 8 {
		for i := range a {
			if a[i] != b[i] {
				return false
			}
		}
		return true
	}
	return bytes.Equal(unsafe.Slice((*byte)(unsafe.Pointer(&a[0])), 4*len(a)), unsafe.Slice((*byte)(unsafe.Pointer(&b[0])), 4*len(b)))
}

// find returns the index of v and true, or the slot where v would go and
// false.
func (t *table) find(v []uint32, h uint64) (idx uint32, slot uint64, ok bool) {
	tag := h >> 32
	for i := h & t.mask; ; i = (i + 1) & t.mask {
		s := t.slots[i]
		if s == 0 {
			return 0, i, false
		}
		if s>>32 == tag {
			j := uint32(s) - 1
			if equalWords(t.data.at(j), v) {
				return j, i, true
			}
		}
	}
}

// lookup returns the index of v, if v was interned.
func (t *table) lookup(v []uint32) (uint32, bool) {
	idx, _, ok := t.find(v, hashWords(v))
	return idx, ok
}

// intern returns the index of v and whether v is new. It fails only when
// the table holds MaxStates records already.
func (t *table) intern(v []uint32) (idx uint32, fresh bool, err error) {
	h := hashWords(v)
	idx, slot, ok := t.find(v, h)
	if ok {
		return idx, false, nil
	}
	if t.data.n >= MaxStates {
		return 0, false, ErrFull
	}
	idx = t.data.push(v)
	t.slots[slot] = h>>32<<32 | uint64(idx+1)
	if uint64(t.data.n)*8 > uint64(len(t.slots))*maxLoad {
		t.grow()
	}
	return idx, true, nil
}

// grow doubles the slots and places every record again (its hash is
// computed again from the record: the slot keeps only the high half).
func (t *table) grow() {
	t.slots = make([]uint64, 2*len(t.slots))
	t.mask = uint64(len(t.slots) - 1)
	for j := uint32(0); j < t.data.n; j++ {
		h := hashWords(t.data.at(j))
		i := h & t.mask
		for t.slots[i] != 0 {
			i = (i + 1) & t.mask
		}
		t.slots[i] = h>>32<<32 | uint64(j+1)
	}
}

func (t *table) len() uint32 { return t.data.n }

func (t *table) bytes() int64 { return int64(len(t.slots))*8 + t.data.bytes() }
