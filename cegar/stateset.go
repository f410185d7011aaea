package cegar

import (
	"encoding/binary"
	"unsafe"

	"fencer/predabs"
)

// stateStore holds the stored states of one exploration: the nodes and the
// visited set, with no pointer per state (the garbage collector has nothing
// to scan there). It is a collapse compression (SPIN's) in two components:
// a state's key is its control node's id and the id of its vector of
// explicit values, interned in vals (few distinct vectors are shared by
// many control states), so a key is 8 bytes in the node itself and the
// table holds only the nodes' indices under their keys' hashes. A state
// costs its node (20 bytes), 8-16 bytes of table (at a load between 3/8
// and 3/4) and its share of the value vectors. States with the same key
// and different cubes are all stored, the first of them in the table; the
// cubes are kept only when there is one (an exploration with a predicate
// cube).
type stateStore struct {
	chunks [][]rnode
	n      int
	vals   keySet // the value vectors, as varints
	vbuf   []byte
	slots  // the first node stored with each key, by hashKey
	// cubes holds the cubes that are not nil, by node; more the cubes of
	// the states stored under the key of a first one, by its index, when
	// there are several.
	cubes map[int32]predabs.Cube
	more  map[int32][]predabs.Cube
}

// stateKey identifies a state up to its cube: its control node's id and
// its value vector's id in the store (stateStore.keyOf).
type stateKey struct{ c, v int32 }

// rnode is one combined abstract state of the BFS, with the step that
// reached it.
type rnode struct {
	c      int32 // the control node's id
	v      int32 // the value vector's id (stateStore.vals)
	via    int32 // the step: an index in the parent's control succs; -1 for the initial state
	parent int32 // -1 for the initial state
	depth  int32 // steps from the initial state, those forward passed through included
}

// chunkBits is the size of the chunks of nodes, of states here and of
// control nodes in the explorer: 1<<chunkBits of them.
const chunkBits = 10

func newStateStore() *stateStore {
	return &stateStore{vals: newKeySet(), slots: newSlots(),
		cubes: map[int32]predabs.Cube{}, more: map[int32][]predabs.Cube{}}
}

func (s *stateStore) at(i int32) *rnode { return &s.chunks[i>>chunkBits][i&(1<<chunkBits-1)] }

// keyOf returns the key of the state with control node c and values vals,
// interning vals.
func (s *stateStore) keyOf(c int32, vals []int64) stateKey {
	s.vbuf = appendVals(s.vbuf[:0], vals)
	return s.keyOfEncoded(c, s.vbuf, s.vals.hash(s.vbuf))
}

// keyOfEncoded is keyOf with the values encoded (appendVals) and hashed
// (valHash) already.
func (s *stateStore) keyOfEncoded(c int32, enc []byte, h uint64) stateKey {
	v, ok := s.vals.lookup(enc, h)
	if !ok {
		v = s.vals.push(enc)
		s.vals.put(h, v)
	}
	return stateKey{c, v}
}

// appendVals appends the encoding of a value vector to b (as the store
// interns it: varints).
func appendVals(b []byte, vals []int64) []byte {
	for _, v := range vals {
		b = binary.AppendVarint(b, v)
	}
	return b
}

// key returns the key of node i.
func (s *stateStore) key(i int32) stateKey {
	r := s.at(i)
	return stateKey{r.c, r.v}
}

// values reads the values of node i into out.
func (s *stateStore) values(i int32, out []int64) {
	b := s.vals.key(s.at(i).v)
	for j := range out {
		v, n := binary.Varint(b)
		out[j] = v
		b = b[n:]
	}
}

func (s *stateStore) cube(i int32) predabs.Cube { return s.cubes[i] }

// hashKey mixes the key's 64 bits (murmur3's finalizer).
func hashKey(k stateKey) uint64 {
	x := uint64(uint32(k.c))<<32 | uint64(uint32(k.v))
	x ^= x >> 33
	x *= 0xff51afd7ed558ccd
	x ^= x >> 33
	x *= 0xc4ceb9fe1a85ec53
	x ^= x >> 33
	return x
}

// lookup returns the first node stored with key k.
func (s *stateStore) lookup(k stateKey) (int32, bool) {
	h := hashKey(k)
	mask := uint64(len(s.table) - 1)
	for i := h & mask; ; i = (i + 1) & mask {
		e := s.table[i]
		if e == 0 {
			return -1, false
		}
		if uint32(e>>32) == uint32(h>>32) {
			j := int32(uint32(e) - 1)
			if r := s.at(j); r.c == k.c && r.v == k.v {
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
// first is the first node stored with that key, or -1 (then the node goes
// into the table).
func (s *stateStore) add(r rnode, k stateKey, c predabs.Cube, first int32) int32 {
	r.c, r.v = k.c, k.v
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
	if s.full() {
		s.grow(func(j int32) uint64 { return hashKey(s.key(j)) })
	}
	s.place(hashKey(k), idx)
	return idx
}

// bytes is the memory of the stored states (nodes, table, value vectors;
// the cubes not counted), as allocated.
func (s *stateStore) bytes() int64 {
	return int64(len(s.chunks))*(1<<chunkBits)*int64(unsafe.Sizeof(rnode{})) + int64(len(s.table))*8 + s.vals.bytes()
}
