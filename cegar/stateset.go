package cegar

import (
	"bytes"
	"encoding/binary"
	"hash/maphash"
	"unsafe"

	"fencer/predabs"
)

// stateStore holds the stored states of one exploration: the nodes, their
// keys and the visited set, with no pointer per state (a state costs about
// 24 bytes of node, its key, and 8-16 bytes of table, and the garbage
// collector has nothing to scan there). The key of a state is its control
// id and its values (explore's stateKey); the keys live in an arena of
// large chunks. States with the same key and different cubes are all
// stored, the first of them in the table; the cubes are kept only when
// there is one (an exploration with a predicate cube).
type stateStore struct {
	chunks [][]rnode
	n      int
	arena  [][]byte
	seed   maphash.Seed
	table  []uint64 // 0, or the key hash's upper half << 32 | (node index + 1)
	used   int
	// cubes holds the cubes that are not nil, by node; more the cubes of
	// the states stored under the key of a first one, by its index, when
	// there are several.
	cubes map[int32]predabs.Cube
	more  map[int32][]predabs.Cube
}

// rnode is one combined abstract state of the BFS, with the step that
// reached it.
type rnode struct {
	c      int32  // the control node's id
	via    int32  // the step: an index in the parent's control succs; -1 for the initial state
	parent int32  // -1 for the initial state
	depth  int32  // steps from the initial state, those forward passed through included
	key    uint64 // the key's place in the arena: chunk << 32 | offset
}

const (
	chunkBits  = 12
	arenaChunk = 1 << 20
)

func newStateStore() *stateStore {
	return &stateStore{seed: maphash.MakeSeed(), table: make([]uint64, 1<<10),
		cubes: map[int32]predabs.Cube{}, more: map[int32][]predabs.Cube{}}
}

func (s *stateStore) at(i int32) *rnode { return &s.chunks[i>>chunkBits][i&(1<<chunkBits-1)] }

// key returns the key of node i (in the arena: not to be modified).
func (s *stateStore) key(i int32) []byte {
	ref := s.at(i).key
	b := s.arena[ref>>32][uint32(ref):]
	l, k := binary.Uvarint(b)
	return b[k : k+int(l)]
}

func (s *stateStore) cube(i int32) predabs.Cube { return s.cubes[i] }

func (s *stateStore) hash(k []byte) uint64 { return maphash.Bytes(s.seed, k) }

// lookup returns the first node stored with key k (hash h).
func (s *stateStore) lookup(k []byte, h uint64) (int32, bool) {
	mask := uint64(len(s.table) - 1)
	for i := h & mask; ; i = (i + 1) & mask {
		e := s.table[i]
		if e == 0 {
			return -1, false
		}
		if uint32(e>>32) == uint32(h>>32) {
			if j := int32(uint32(e) - 1); bytes.Equal(s.key(j), k) {
				return j, true
			}
		}
	}
}

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
	need := binary.MaxVarintLen64 + len(k)
	if len(s.arena) == 0 || cap(s.arena[len(s.arena)-1])-len(s.arena[len(s.arena)-1]) < need {
		s.arena = append(s.arena, make([]byte, 0, max(arenaChunk, need)))
	}
	a := &s.arena[len(s.arena)-1]
	r.key = uint64(len(s.arena)-1)<<32 | uint64(len(*a))
	*a = binary.AppendUvarint(*a, uint64(len(k)))
	*a = append(*a, k...)
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
	if 4*(s.used+1) > 3*len(s.table) {
		s.grow()
	}
	s.put(h, idx)
	return idx
}

func (s *stateStore) put(h uint64, idx int32) {
	mask := uint64(len(s.table) - 1)
	i := h & mask
	for s.table[i] != 0 {
		i = (i + 1) & mask
	}
	s.table[i] = h>>32<<32 | uint64(uint32(idx)+1)
	s.used++
}

func (s *stateStore) grow() {
	old := s.table
	s.table = make([]uint64, 2*len(old))
	s.used = 0
	for _, e := range old {
		if e != 0 {
			j := int32(uint32(e) - 1)
			s.put(s.hash(s.key(j)), j)
		}
	}
}

// bytes is the memory of the stored states (nodes, key arena, table; the
// cubes not counted), as allocated.
func (s *stateStore) bytes() int64 {
	b := int64(len(s.chunks))*(1<<chunkBits)*int64(unsafe.Sizeof(rnode{})) + int64(len(s.table))*8
	for _, a := range s.arena {
		b += int64(cap(a))
	}
	return b
}
