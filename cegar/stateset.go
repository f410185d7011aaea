package cegar

import (
	"unsafe"

	"fencer/predabs"
)

// stateStore holds the stored states of one exploration: the nodes, their
// keys and the visited set, with no pointer per state (a state costs 16
// bytes of node, its key in a keySet, and the garbage collector has nothing
// to scan there). The key of a state is its control id and its values
// (explore's stateKey). States with the same key and different cubes are
// all stored, the first of them in the table; the cubes are kept only when
// there is one (an exploration with a predicate cube). A node's index is
// its key's index in keys.
type stateStore struct {
	chunks [][]rnode
	n      int
	keys   keySet
	// cubes holds the cubes that are not nil, by node; more the cubes of
	// the states stored under the key of a first one, by its index, when
	// there are several.
	cubes map[int32]predabs.Cube
	more  map[int32][]predabs.Cube
}

// rnode is one combined abstract state of the BFS, with the step that
// reached it.
type rnode struct {
	c      int32 // the control node's id
	via    int32 // the step: an index in the parent's control succs; -1 for the initial state
	parent int32 // -1 for the initial state
	depth  int32 // steps from the initial state, those forward passed through included
}

const chunkBits = 12

func newStateStore() *stateStore {
	return &stateStore{keys: newKeySet(), cubes: map[int32]predabs.Cube{}, more: map[int32][]predabs.Cube{}}
}

func (s *stateStore) at(i int32) *rnode { return &s.chunks[i>>chunkBits][i&(1<<chunkBits-1)] }

// key returns the key of node i (in the arena: not to be modified).
func (s *stateStore) key(i int32) []byte { return s.keys.key(i) }

func (s *stateStore) cube(i int32) predabs.Cube { return s.cubes[i] }

func (s *stateStore) hash(k []byte) uint64 { return s.keys.hash(k) }

// lookup returns the first node stored with key k (hash h).
func (s *stateStore) lookup(k []byte, h uint64) (int32, bool) { return s.keys.lookup(k, h) }

// subsumed reports whether a cube stored under the key of the first node
// covers c.
func (s *stateStore) subsumed(first int32, c predabs.Cube) bool {
	if m, ok := s.more[first]; ok {
		return subsumed(m, c)
	}
	return c.Implies(s.cubes[first])
}

// add stores the node r with key k and cube c, and returns its index.
// first is the first node stored with that key, or -1 (then h is the
// key's hash and the node goes into the table).
func (s *stateStore) add(r rnode, k []byte, c predabs.Cube, first int32, h uint64) int32 {
	if s.n>>chunkBits == len(s.chunks) {
		s.chunks = append(s.chunks, make([]rnode, 0, 1<<chunkBits))
	}
	ch := &s.chunks[len(s.chunks)-1]
	*ch = append(*ch, r)
	idx := s.keys.push(k)
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
	s.keys.put(h, idx)
	return idx
}

// bytes is the memory of the stored states (nodes, keys; the cubes not
// counted), as allocated.
func (s *stateStore) bytes() int64 {
	return int64(len(s.chunks))*(1<<chunkBits)*int64(unsafe.Sizeof(rnode{})) + s.keys.bytes()
}
