package cegar

import (
	"unsafe"

	"fencer/predabs"
)

// stateStore holds the stored states of one exploration: the nodes and the
// visited set, with no pointer per state (the garbage collector has nothing
// to scan there). It is a collapse compression (SPIN's) in two components:
// a state's key is its control node's id and the reference of its vector
// of explicit values, interned in vals (few distinct vectors are shared by
// many control states), so a key is 8 bytes in the node itself. The table
// holds the keys themselves, mixed (hashKey: a bijection, so equal mixed
// keys are equal keys), so that a lookup reads one slot and no node; the
// index of the node stored under a key is kept beside the table (first)
// only once a state with a cube is stored: without cubes a state seen is a
// state subsumed. A state costs its node (20 bytes), 8-16 bytes of table
// (at a load between 3/8 and 3/4; 12-24 with cubes) and its share of the
// value vectors. States with the same key and different cubes are all
// stored, the first of them in the table; the cubes are kept only when
// there is one (an exploration with a predicate cube).
type stateStore struct {
	chunks [][]rnode
	n      int
	vals   vecSet // the value vectors, as varints
	vbuf   []byte
	// keys is the table: hashKey of the keys stored, 0 for a free slot,
	// linear probing; used counts them. first holds, by slot, the first
	// node stored with the key there, once a state with a cube is (nil
	// before).
	keys  []uint64
	used  int
	first []int32
	// cubes holds the cubes that are not nil, by node; more the cubes of
	// the states stored under the key of a first one, by its index, when
	// there are several.
	cubes map[int32]predabs.Cube
	more  map[int32][]predabs.Cube
	sink  uint64 // keysOf's loads, kept
}

// stateKey identifies a state up to its cube: its control node's id and
// its value vector's reference in the store (stateStore.keyOf); v < 0 when
// the store of value vectors is full (vecSet.push).
type stateKey struct{ c, v int32 }

// rnode is one combined abstract state of the BFS, with the step that
// reached it.
type rnode struct {
	c      int32 // the control node's id
	v      int32 // the value vector's reference (stateStore.vals)
	via    int32 // the step: an index in the parent's control succs; -1 for the initial state
	parent int32 // -1 for the initial state
	depth  int32 // steps from the initial state, those forward passed through included
}

// chunkBits is the size of the chunks of nodes, of states here and of
// control nodes in the explorer: 1<<chunkBits of them.
const chunkBits = 10

func newStateStore() *stateStore {
	return &stateStore{vals: newVecSet(), keys: make([]uint64, 1<<8),
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
		if v >= 0 {
			s.vals.put(h, v)
		}
	}
	return stateKey{c, v}
}

// keysOf returns, in keys, the keys of the successors outs, their vectors
// interned in order as keyOfEncoded does. The table slots where their
// probes start are loaded for all of them before any is used: those loads
// do not depend on each other, so their cache misses overlap (the
// successors of a state are scattered over the tables).
func (s *stateStore) keysOf(outs []succRec, keys []stateKey) []stateKey {
	var sink uint64
	vm := uint64(len(s.vals.table) - 1)
	for i := range outs {
		sink += s.vals.table[outs[i].h&vm]
	}
	keys = keys[:0]
	for i := range outs {
		keys = append(keys, s.keyOfEncoded(outs[i].next.id, outs[i].enc, outs[i].h))
	}
	km := uint64(len(s.keys) - 1)
	for _, k := range keys {
		sink += s.keys[hashKey(k)&km]
	}
	s.sink = sink
	return keys
}

// key returns the key of node i.
func (s *stateStore) key(i int32) stateKey {
	r := s.at(i)
	return stateKey{r.c, r.v}
}

// values reads the values of node i into out.
func (s *stateStore) values(i int32, out []int64) {
	readVals(s.vals.key(s.at(i).v), out)
}

func (s *stateStore) cube(i int32) predabs.Cube { return s.cubes[i] }

// hashKey mixes the key's 64 bits (murmur3's finalizer, a bijection that
// maps only 0 to 0: the control id is taken plus one, so that no key
// mixes to 0, the free slot).
func hashKey(k stateKey) uint64 {
	x := uint64(uint32(k.c)+1)<<32 | uint64(uint32(k.v))
	x ^= x >> 33
	x *= 0xff51afd7ed558ccd
	x ^= x >> 33
	x *= 0xc4ceb9fe1a85ec53
	x ^= x >> 33
	return x
}

// find returns the slot of key k in the table and whether k is there (else
// the free slot where it would go).
func (s *stateStore) find(k stateKey) (uint64, bool) {
	h := hashKey(k)
	mask := uint64(len(s.keys) - 1)
	for i := h & mask; ; i = (i + 1) & mask {
		switch s.keys[i] {
		case h:
			return i, true
		case 0:
			return i, false
		}
	}
}

// firstAt is the first node stored with the key in slot i; -1 when no
// state with a cube is stored (then no caller needs it: seenAt).
func (s *stateStore) firstAt(i uint64) int32 {
	if s.first == nil {
		return -1
	}
	return s.first[i]
}

// lookup returns the first node stored with key k.
func (s *stateStore) lookup(k stateKey) (int32, bool) {
	i, ok := s.find(k)
	if !ok {
		return -1, false
	}
	if s.first == nil {
		return s.nodeOf(k), true
	}
	return s.first[i], true
}

// nodeOf finds the node stored with key k by a scan (for lookup before
// the table keeps nodes: tests and the initial states).
func (s *stateStore) nodeOf(k stateKey) int32 {
	for j := int32(0); int(j) < s.n; j++ {
		if s.key(j) == k {
			return j
		}
	}
	return -1
}

// subsumedAt reports whether a cube stored under the key found in slot i
// covers c: always when no state with a cube is stored (the cubes stored
// are all nil, true).
func (s *stateStore) subsumedAt(i uint64, c predabs.Cube) bool {
	if s.first == nil {
		return true
	}
	return s.subsumed(s.first[i], c)
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
		if s.first == nil {
			s.keepFirst()
		}
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
	if 4*(s.used+1) > 3*len(s.keys) {
		s.grow()
	}
	i, _ := s.find(k)
	s.keys[i] = hashKey(k)
	if s.first != nil {
		s.first[i] = idx
	}
	s.used++
	return idx
}

// keepFirst starts keeping the first node of each key of the table: the
// nodes stored so far, all without a cube, each have a key of their own.
func (s *stateStore) keepFirst() {
	s.first = make([]int32, len(s.keys))
	for j := int32(0); int(j) < s.n-1; j++ { // the last node is not in the table yet
		i, _ := s.find(s.key(j))
		s.first[i] = j
	}
}

// grow doubles the table.
func (s *stateStore) grow() {
	old, oldFirst := s.keys, s.first
	s.keys = make([]uint64, 2*len(old))
	if oldFirst != nil {
		s.first = make([]int32, len(s.keys))
	}
	mask := uint64(len(s.keys) - 1)
	for j, h := range old {
		if h == 0 {
			continue
		}
		i := h & mask
		for s.keys[i] != 0 {
			i = (i + 1) & mask
		}
		s.keys[i] = h
		if oldFirst != nil {
			s.first[i] = oldFirst[j]
		}
	}
}

// bytes is the memory of the stored states (nodes, table, value vectors;
// the cubes not counted), as allocated.
func (s *stateStore) bytes() int64 {
	return int64(len(s.chunks))*(1<<chunkBits)*int64(unsafe.Sizeof(rnode{})) +
		int64(len(s.keys))*8 + int64(len(s.first))*4 + s.vals.bytes()
}
