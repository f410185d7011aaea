package cegar

import (
	"fencer/domains"
	"fencer/predabs"
	"fencer/statestore"
)

// stateStore holds the stored states of one exploration. The key of a
// state, its control node's id and its values, is a vector in a compact
// state store (package statestore, collapse compression: the id, the
// shared values and each process's values are the components, so a step
// of one process adds one new component at most); beside it, by node,
// what is not part of the key: the step that reached the node, its parent
// node, its depth, and its cube. States with the same key and different
// cubes are all stored as nodes of the one key, the first of them is the
// key's (first); the cubes are kept only when there is one (an
// exploration with a predicate cube). Only the goroutine that stores
// states touches it.
type stateStore struct {
	ss     *statestore.Collapse
	perm   []int // the vector slot of each value (after the id in slot 0)
	chunks [][]rnode
	n      int
	first  []int32 // by key: its first node
	vec    []uint32
	vals   statestore.Values
	// cubes holds the cubes that are not nil, by node; more the cubes of
	// the states stored under the key of a first one, by its index, when
	// there are several.
	cubes map[int32]predabs.Cube
	more  map[int32][]predabs.Cube
}

// rnode is one combined abstract state of the BFS, with the step that
// reached it.
type rnode struct {
	via    int32  // the step: an index in the parent's control succs; -1 for the initial state
	parent int32  // -1 for the initial state
	depth  int32  // steps from the initial state, those forward passed through included
	key    uint32 // the index of the state's key in the statestore
}

const chunkBits = 12

// newStateStore returns the store of an exploration with layout lay: the
// vector is the control id, then the shared values, then each process's.
func newStateStore(lay *domains.Layout) (*stateStore, error) {
	n := lay.Len()
	s := &stateStore{perm: make([]int, n), vec: make([]uint32, 1+n),
		cubes: map[int32]predabs.Cube{}, more: map[int32][]predabs.Cube{}}
	starts := []int{0}
	slot := 1
	for owner := -1; slot <= n; owner++ {
		from := slot
		for i := 0; i < n; i++ {
			if lay.Owner(i) == owner {
				s.perm[i] = slot
				slot++
			}
		}
		if slot > from {
			starts = append(starts, from)
		}
	}
	var err error
	s.ss, err = statestore.NewCollapse(1+n, starts)
	return s, err
}

func (s *stateStore) at(i int32) *rnode { return &s.chunks[i>>chunkBits][i&(1<<chunkBits-1)] }

func (s *stateStore) cube(i int32) predabs.Cube { return s.cubes[i] }

// encode makes the key of the state (control node id, vals) in s.vec and
// returns it (valid until the next encode).
func (s *stateStore) encode(id int32, vals []int64) ([]uint32, error) {
	s.vec[0] = uint32(id)
	perm := s.perm[:len(vals)]
	for i, v := range vals {
		w, ok := statestore.Small(v)
		if !ok {
			var err error
			if w, err = s.vals.Slot(v); err != nil {
				return nil, err
			}
		}
		s.vec[perm[i]] = w
	}
	return s.vec, nil
}

// state decodes node i: it returns its control node's id and puts its
// values into vals.
func (s *stateStore) state(i int32, vals []int64) int32 {
	s.vec = s.ss.Vector(s.vec[:0], s.at(i).key)
	for j := range vals {
		vals[j] = s.vals.Value(s.vec[s.perm[j]])
	}
	return int32(s.vec[0])
}

// ctlID is the control node's id of node i.
func (s *stateStore) ctlID(i int32) int32 {
	s.vec = s.ss.Vector(s.vec[:0], s.at(i).key)
	return int32(s.vec[0])
}

// intern adds the key vec (reached from node parent, -1 for none) to the
// store unless it is there, and returns its index and, if it was there
// already, the first node stored with it (else -1). A new key must be
// given to add next, or the exploration ends.
func (s *stateStore) intern(vec []uint32, parent int32) (key uint32, first int32, err error) {
	pk := statestore.NoParent
	if parent >= 0 {
		pk = s.at(parent).key
	}
	key, fresh, err := s.ss.Insert(vec, pk)
	if err != nil {
		return 0, -1, err
	}
	if fresh {
		return key, -1, nil
	}
	return key, s.first[key], nil
}

// subsumed reports whether a cube stored under the key of the first node
// covers c.
func (s *stateStore) subsumed(first int32, c predabs.Cube) bool {
	if m, ok := s.more[first]; ok {
		return subsumed(m, c)
	}
	return c.Implies(s.cubes[first])
}

// add stores the node r (its key interned by intern) with cube c, and
// returns its index. first is the first node stored with that key, or -1
// when the key is new.
func (s *stateStore) add(r rnode, c predabs.Cube, first int32) int32 {
	if s.n>>chunkBits == len(s.chunks) {
		s.chunks = append(s.chunks, make([]rnode, 0, 1<<chunkBits))
	}
	ch := &s.chunks[len(s.chunks)-1]
	*ch = append(*ch, r)
	idx := int32(s.n)
	s.n++
	if c != nil {
		s.cubes[idx] = c
	}
	if first >= 0 {
		stored, ok := s.more[first]
		if !ok {
			stored = []predabs.Cube{s.cubes[first]}
		}
		s.more[first] = insertCube(stored, c)
		return idx
	}
	s.first = append(s.first, idx)
	return idx
}

// bytes is the memory of the states' keys and nodes (the cubes not
// counted), as allocated.
func (s *stateStore) bytes() int64 {
	return s.ss.Bytes() + int64(len(s.chunks))*(1<<chunkBits)*16 + int64(cap(s.first))*4 + s.vals.Bytes()
}
