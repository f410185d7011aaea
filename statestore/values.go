package statestore

import "errors"

// Values encodes 64-bit integers as the uint32 slots of a vector, exactly:
// a value whose zigzag encoding (0, -1, 1, -2, ... as 0, 1, 2, 3, ...)
// fits in 31 bits is that encoding, so the small values of a program cost
// no table; any other value is interned, its slot 1<<31 | its index among
// the interned values. Equal values get equal slots, different values
// different ones, so vectors compare as the values do.
//
// Slot and Value are the writer's (they share the table of large values).
type Values struct {
	big  map[int64]uint32
	bigv []int64
}

// ErrTooManyValues is returned by Slot when 2^31 large values are interned.
var ErrTooManyValues = errors.New("statestore: more than 2^31 distinct large values")

const bigBit = 1 << 31

// Small returns the slot of x and true when x needs no table (its zigzag
// encoding fits in 31 bits): the same slot Slot returns. It is inlined,
// so an encoder's loop calls Slot only for the rare large value.
func Small(x int64) (uint32, bool) {
	z := uint64(x<<1) ^ uint64(x>>63)
	return uint32(z), z < bigBit
}

// Slot returns the slot of x.
func (v *Values) Slot(x int64) (uint32, error) {
	if w, ok := Small(x); ok {
		return w, nil
	}
	return v.bigSlot(x)
}

// bigSlot is Slot of a value whose zigzag encoding needs 32 bits or more
// (apart and not inlined, so that Slot is).
//
//go:noinline
func (v *Values) bigSlot(x int64) (uint32, error) {
	if j, ok := v.big[x]; ok {
		return bigBit | j, nil
	}
	if len(v.bigv) >= bigBit {
		return 0, ErrTooManyValues
	}
	if v.big == nil {
		v.big = map[int64]uint32{}
	}
	j := uint32(len(v.bigv))
	v.big[x] = j
	v.bigv = append(v.bigv, x)
	return bigBit | j, nil
}

// Value returns the value of a slot that Slot returned.
func (v *Values) Value(w uint32) int64 {
	if w&bigBit != 0 {
		return v.bigv[w&^bigBit]
	}
	return int64(w>>1) ^ -int64(w&1)
}

// Bytes is the memory of the large values (about: the map counted at 16
// bytes an entry).
func (v *Values) Bytes() int64 { return int64(cap(v.bigv))*8 + int64(len(v.big))*16 }

// Table interns records of a fixed number of uint32 words, as a store's
// components are interned: equal records get the same index, indices are
// 0, 1, 2, ... in the order records were first seen. An explorer uses it
// for parts of a state that vary in length, as lists of cells (a store
// buffer: each cell a write and the index of the rest). Intern is the
// writer's; At may be called by any goroutine for an index handed to it.
type Table struct{ t *table }

// NewTable returns an empty table of records of w words (w > 0).
func NewTable(w int) *Table { return &Table{newTable(w)} }

// Intern returns the index of rec and whether it is new; rec is copied.
func (t *Table) Intern(rec []uint32) (uint32, bool, error) {
	if err := checkWidth(len(rec), t.t.data.w); err != nil {
		return 0, false, err
	}
	return t.t.intern(rec)
}

// At returns record i (aliasing the table's memory: not to be changed).
func (t *Table) At(i uint32) []uint32 { return t.t.data.at(i) }

// Len is the number of records.
func (t *Table) Len() int { return int(t.t.len()) }

// Bytes is the memory the table holds, as allocated.
func (t *Table) Bytes() int64 { return t.t.bytes() }
