package statestore

import (
	"errors"
	"fmt"
)

// MaxStates is the number of states (and of distinct values of one
// component, or one tree node) a store can hold: indices are 32 bits and
// one value is reserved (NoParent).
const MaxStates = 1<<32 - 2

// NoParent is the parent of an initial state.
const NoParent = ^uint32(0)

// ErrFull is returned by Insert when a table of the store holds MaxStates
// records already.
var ErrFull = errors.New("statestore: more than 2^32-2 states or component values")

// Store is a set of state vectors of a fixed width, each with a 32-bit
// index (0, 1, 2, ... in the order the states were first inserted) and the
// index of the state it was first reached from.
//
// Contract: one goroutine, the writer, calls Insert and Lookup. Vector and
// Parent of an index may be called by any goroutine, concurrently with the
// writer, once the index was handed to it by the writer through something
// that synchronises (a channel, a mutex, a WaitGroup): the store never
// moves a vector or a parent once written. Len and Bytes are the writer's.
type Store interface {
	// Insert adds vec (len(vec) == Width()) with the given parent (NoParent
	// for an initial state) unless it is there already, and returns its
	// index and whether it is new. A state keeps the parent it was first
	// inserted with. vec is copied; the caller may reuse it.
	Insert(vec []uint32, parent uint32) (idx uint32, fresh bool, err error)
	// Lookup returns the index of vec, if it was inserted.
	Lookup(vec []uint32) (idx uint32, ok bool)
	// Vector appends the vector of state idx to dst and returns it.
	Vector(dst []uint32, idx uint32) []uint32
	// Parent returns the parent state idx was first inserted with.
	Parent(idx uint32) uint32
	// Len is the number of states.
	Len() int
	// Width is the length of the vectors.
	Width() int
	// Bytes is the memory the store holds: tables, vectors and parents,
	// counted as allocated (a table's slots and a segment count whole,
	// whether filled or not). It is what a memory limit should compare.
	Bytes() int64
}

// Trace returns the path of indices from an initial state to idx,
// following the parents.
func Trace(s Store, idx uint32) []uint32 {
	var path []uint32
	for i := idx; i != NoParent; i = s.Parent(i) {
		path = append(path, i)
		if len(path) > s.Len() {
			break // a cycle of parents cannot happen; never loop
		}
	}
	for i, j := 0, len(path)-1; i < j; i, j = i+1, j-1 {
		path[i], path[j] = path[j], path[i]
	}
	return path
}

// parents is the parent index of every state, in a segvec.
type parents struct{ v segvec }

func (p *parents) push(x uint32) {
	var w [1]uint32
	w[0] = x
	p.v.push(w[:])
}

func (p *parents) at(i uint32) uint32 { return p.v.at(i)[0] }

func checkWidth(got, want int) error {
	if got != want {
		return fmt.Errorf("statestore: vector of %d slots, the store's width is %d", got, want)
	}
	return nil
}
