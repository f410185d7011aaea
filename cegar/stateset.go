package cegar

import (
	"math/bits"
	"unsafe"

	"fencer/domains"
	"fencer/predabs"
)

// stateStore holds the stored states of one exploration: the nodes and the
// visited set, with no pointer per state (the garbage collector has nothing
// to scan there). It is a collapse compression (SPIN's) in two components:
// a state's key is its control node's id and the reference of its vector
// of explicit values, interned in vals (few distinct vectors are shared by
// many control states), so a key is 8 bytes.
//
// The nodes are dense, in the order they are stored, in chunks that never
// move: a node is its key (8 bytes), its parent's index (4) and its step
// (2: an index in the parent's control succs; the rare one that does not
// fit, and the initial states' -1, in bigVia). A node's depth is not kept:
// the explorer knows it from the BFS level the node is expanded in. The
// table holds, by slot, the index of the first node stored under a key
// (plus one; 0 is a free slot; less than the table's length, which grows
// for it when there are many more nodes than keys) in its low bits and, in
// the bits a table of that size leaves free, a tag of the key's hash (tagOf), so that a probe
// reads a node's key only when the tags agree: a lookup reads one slot and,
// almost always, only the node it finds. A state costs 14 bytes of node,
// 4-8 bytes of table (at a load between 3/8 and 3/4) and its share of the
// value vectors. States with the same key and different cubes are all
// stored, the first of them in the table; the cubes are kept only when
// there is one (an exploration with a predicate cube).
type stateStore struct {
	chunks []*stateChunk
	n      int
	// slabs hold the chunks, slabLeft of them still free in the last
	// (newChunk); they and the table's memory are out of the Go heap when
	// large (offheap.go), and returned by release.
	slabs    []block
	slabLeft int
	vals     vecSet // the value vectors, as varints
	vbuf     []byte
	// bigVia holds the steps that do not fit a node's 16 bits, by node.
	bigVia map[int32]int32
	// table is the visited set: tag<<bits | index+1 of the first node
	// stored under a key, 0 for a free slot, linear probing from the
	// key's hash (stateHash: of the control node and the hash of the
	// vector, not its reference, so that a successor's slot is known
	// before its vector is looked up: touchItems); bits is log2 of its
	// length; used counts the keys.
	table    []uint32
	tableMem block
	bits     uint
	used     int
	// cubes holds the cubes that are not nil, by node; more the cubes of
	// the states stored under the key of a first one, by its index, when
	// there are several.
	cubes map[int32]predabs.Cube
	more  map[int32][]predabs.Cube
	sink  uint64 // touchItems' loads, kept
	// sleepy says that the sleep sets are read (sleep.go): touchItems
	// loads them with the nodes.
	sleepy bool
}

// stateKey identifies a state up to its cube: its control node's id and
// its value vector's reference in the store (stateStore.keyOf); v < 0 when
// the store of value vectors is full (vecSet.push).
type stateKey struct{ c, v int32 }

// rnode is one combined abstract state of the BFS, with the step that
// reached it: what add takes and at returns (the store keeps it packed,
// stateChunk).
type rnode struct {
	c      int32 // the control node's id
	v      int32 // the value vector's reference (stateStore.vals)
	via    int32 // the step: an index in the parent's control succs; -1 for the initial state
	parent int32 // -1 for the initial state
}

// chunkBits is the size of the chunks of control nodes in the explorer:
// 1<<chunkBits of them.
const chunkBits = 10

// stateChunkBits is the size of the chunks of stored states: 1<<stateChunkBits
// of them.
const stateChunkBits = 10

// stateChunk holds the nodes of 1<<stateChunkBits stored states, by
// field: the keys together, so that a probe of the table reads 8 bytes.
type stateChunk struct {
	keys   [1 << stateChunkBits]stateKey
	parent [1 << stateChunkBits]int32
	via    [1 << stateChunkBits]uint16
	sleep  [1 << stateChunkBits]uint32 // sleep.go; 0 when sleep sets are off
}

// viaBig marks, in a chunk, a step kept in bigVia.
const viaBig = 1<<16 - 1

// tableFirst is log2 of the first table's length.
const tableFirst = 8

// slabMax is the most chunks of nodes in one slab: the slabs double from
// one chunk (14 KB) up to it (3.5 MB), so that a small exploration takes
// little and a large one few mappings.
const slabMax = 256

// newStateStore returns an empty store; the exploration that uses it
// calls release when done.
func newStateStore() *stateStore {
	s := &stateStore{bigVia: map[int32]int32{},
		cubes: map[int32]predabs.Cube{}, more: map[int32][]predabs.Cube{}}
	s.vals.init()
	s.newTable(tableFirst)
	return s
}

// release returns the memory of the nodes and the table (the mapped part
// to the system at once): the store is not to be used after, nor any
// node or slot read from it.
func (s *stateStore) release() {
	for i := range s.slabs {
		s.slabs[i].free()
	}
	s.tableMem.free()
	s.slabs, s.chunks, s.table, s.slabLeft = nil, nil, nil, 0
}

// newTable replaces the table by an empty one of 1<<bits slots; the old
// one's memory is returned first.
func (s *stateStore) newTable(bits uint) {
	s.tableMem.free()
	s.table = nil
	s.tableMem = allocBlock(4 << bits)
	s.table, s.bits = asUint32s(s.tableMem.b), bits
}

// slabChunks is the number of chunks of slab i: 1, 2, 4, ... slabMax.
func slabChunks(i int) int { return 1 << min(i, bits.Len(slabMax)-1) }

// newChunk appends a chunk of nodes, from the last slab or a new one.
func (s *stateStore) newChunk() {
	size := int(unsafe.Sizeof(stateChunk{}))
	if s.slabLeft == 0 {
		n := slabChunks(len(s.slabs))
		s.slabs = append(s.slabs, allocBlock(n*size))
		s.slabLeft = n
	}
	b := s.slabs[len(s.slabs)-1].b
	off := len(b) - s.slabLeft*size
	s.slabLeft--
	s.chunks = append(s.chunks, (*stateChunk)(unsafe.Pointer(&b[off])))
}

// at returns node i.
func (s *stateStore) at(i int32) rnode {
	ch, j := s.chunks[i>>stateChunkBits], i&(1<<stateChunkBits-1)
	via := int32(ch.via[j])
	if via == viaBig {
		via = s.bigVia[i]
	}
	return rnode{c: ch.keys[j].c, v: ch.keys[j].v, via: via, parent: ch.parent[j]}
}

// keyOf returns the key of the state with control node c and values vals,
// interning vals at the positions kept (c's profile's: appendVals).
func (s *stateStore) keyOf(c int32, vals []int64, kept domains.Zeros) stateKey {
	s.vbuf = appendVals(s.vbuf[:0], vals, kept)
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

// touchItems loads what storing the successors of items will read (a
// batch of states expanded before they are stored): the slots of both
// tables where their probes start, for all of them, then the vectors,
// nodes and sleep sets those slots name where the hashes agree. The loads
// of a pass do not depend on each other, so their cache misses overlap
// (the successors are scattered over the tables), and the lookups that
// follow (keysOf, findHashed, arrive) find them in the cache.
func (s *stateStore) touchItems(items []item) {
	for t := range items {
		s.touchSlots(items[t].outs)
	}
	for t := range items {
		s.touchMatches(items[t].outs)
	}
}

// keysOf returns, in keys, the keys of the successors outs, their vectors
// interned in order as keyOfEncoded does (after touchItems).
func (s *stateStore) keysOf(outs []succRec, keys []stateKey) []stateKey {
	keys = keys[:0]
	for i := range outs {
		keys = append(keys, s.keyOfEncoded(outs[i].next.id, outs[i].enc, outs[i].h))
	}
	return keys
}

// touchSlots loads the slots of both tables where the probes of the
// successors outs start (touchItems' first pass).
func (s *stateStore) touchSlots(outs []succRec) {
	sink := s.sink
	vm := uint64(len(s.vals.table) - 1)
	km := uint64(len(s.table) - 1)
	for i := range outs {
		sink += s.vals.table[outs[i].h&vm] + uint64(s.table[outs[i].sh&km])
	}
	s.sink = sink
}

// touchMatches loads the vectors, nodes and sleep sets that the slots of
// outs name where the hashes agree (touchItems' second pass).
func (s *stateStore) touchMatches(outs []succRec) {
	sink := s.sink
	vm := uint64(len(s.vals.table) - 1)
	km := uint64(len(s.table) - 1)
	idxMask := uint32(km)
	for i := range outs {
		if e := s.vals.table[outs[i].h&vm]; e != 0 && e>>32 == outs[i].h>>32 {
			sink += uint64(s.vals.arena.head(uint32(e) - 1))
		}
		h := outs[i].sh
		if e := s.table[h&km]; e != 0 && e&^idxMask == tagOf(h, s.bits) {
			j := int32(e&idxMask) - 1
			sink += uint64(s.key(j).c)
			if s.sleepy {
				sink += uint64(s.sleep(j))
			}
		}
	}
	s.sink = sink
}

// sleep returns the sleep set of node i (sleep.go).
func (s *stateStore) sleep(i int32) uint32 {
	return s.chunks[i>>stateChunkBits].sleep[i&(1<<stateChunkBits-1)]
}

// setSleep sets the sleep set of node i.
func (s *stateStore) setSleep(i int32, z uint32) {
	s.chunks[i>>stateChunkBits].sleep[i&(1<<stateChunkBits-1)] = z
}

// key returns the key of node i.
func (s *stateStore) key(i int32) stateKey {
	return s.chunks[i>>stateChunkBits].keys[i&(1<<stateChunkBits-1)]
}

// values reads the values of node i into out; kept are the positions its
// vector was stored by (its control node's profile's: appendVals).
func (s *stateStore) values(i int32, out []int64, kept domains.Zeros) {
	readVals(s.vals.key(s.key(i).v), out, kept)
}

func (s *stateStore) cube(i int32) predabs.Cube { return s.cubes[i] }

// stateHash is the table's hash of the state with control node c and a
// vector of hash hv (vecSet.hash of its encoding): murmur3's finalizer
// of the two mixed.
func stateHash(c int32, hv uint64) uint64 {
	x := hv ^ uint64(uint32(c))*0x9e3779b97f4a7c15
	x ^= x >> 33
	x *= 0xff51afd7ed558ccd
	x ^= x >> 33
	x *= 0xc4ceb9fe1a85ec53
	x ^= x >> 33
	return x
}

// hashOf is the table's hash of key k, its vector hashed again (keysOf
// gives it for the successors of a state).
func (s *stateStore) hashOf(k stateKey) uint64 {
	return stateHash(k.c, s.vals.hash(s.vals.key(k.v)))
}

// tagOf is the tag of hash h in a table of 1<<bits slots: the hash's top
// 32-bits bits, placed above the bits that hold a node's index plus one
// (which is less than the table's length: its load is at most 3/4); 0
// when bits is 32.
func tagOf(h uint64, bits uint) uint32 {
	return uint32(h>>(32+bits)) << bits
}

// findHashed returns the slot of key k, of hash h (hashOf), in the table
// and whether k is there (else the free slot where it would go).
func (s *stateStore) findHashed(k stateKey, h uint64) (uint64, bool) {
	mask := uint64(len(s.table) - 1)
	idxMask := uint32(mask)
	tag := tagOf(h, s.bits)
	for i := h & mask; ; i = (i + 1) & mask {
		e := s.table[i]
		if e == 0 {
			return i, false
		}
		if e&^idxMask == tag && s.key(int32(e&idxMask)-1) == k {
			return i, true
		}
	}
}

// firstAt is the first node stored with the key in slot i.
func (s *stateStore) firstAt(i uint64) int32 {
	return int32(s.table[i]&uint32(len(s.table)-1)) - 1
}

// subsumedAt reports whether a cube stored under the key found in slot i
// covers c: always when no state with a cube is stored (the cubes stored
// are all nil, true).
func (s *stateStore) subsumedAt(i uint64, c predabs.Cube) bool {
	if len(s.cubes) == 0 {
		return true
	}
	return s.subsumed(s.firstAt(i), c)
}

// subsumed reports whether a cube stored under the key of the first node
// covers c.
func (s *stateStore) subsumed(first int32, c predabs.Cube) bool {
	if m, ok := s.more[first]; ok {
		return subsumed(m, c)
	}
	return c.Implies(s.cubes[first])
}

// addHashed stores the node r with key k, of hash h (hashOf), and cube c,
// and returns its index. first is the first node stored with that key, or
// -1 (then the node goes into the table; h is not read otherwise).
func (s *stateStore) addHashed(r rnode, k stateKey, h uint64, c predabs.Cube, first int32) int32 {
	idx := int32(s.n)
	j := idx & (1<<stateChunkBits - 1)
	if j == 0 {
		s.newChunk()
	}
	ch := s.chunks[len(s.chunks)-1]
	ch.keys[j], ch.parent[j] = k, r.parent
	if r.via >= 0 && r.via < viaBig {
		ch.via[j] = uint16(r.via)
	} else {
		ch.via[j] = viaBig
		s.bigVia[idx] = r.via
	}
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
	for 4*(s.used+1) > 3*len(s.table) || int(idx)+1 >= len(s.table) {
		s.grow()
	}
	s.place(h, idx)
	s.used++
	return idx
}

// place enters node idx, whose key has hash h and is not in the table, in
// the free slot its probe reaches first.
func (s *stateStore) place(h uint64, idx int32) {
	mask := uint64(len(s.table) - 1)
	i := h & mask
	for s.table[i] != 0 {
		i = (i + 1) & mask
	}
	s.table[i] = tagOf(h, s.bits) | uint32(idx+1)
}

// grow doubles the table. It is rebuilt from the nodes, read in the order
// they were stored (the first node of each key comes before the others
// with that key), not from the old table, which is returned first: the two
// are not held at once, and the nodes are read in sequence.
func (s *stateStore) grow() {
	s.newTable(s.bits + 1)
	dup := len(s.more) > 0                   // some nodes share a key with an earlier one
	for j := int32(0); int(j) < s.n-1; j++ { // the last node is not in the table yet (add)
		k := s.key(j)
		h := s.hashOf(k)
		if dup {
			if _, seen := s.findHashed(k, h); seen {
				continue
			}
		}
		s.place(h, j)
	}
}

// bytes is the memory of the stored states (nodes, table, value vectors;
// the cubes not counted), as allocated.
func (s *stateStore) bytes() int64 {
	return int64(len(s.chunks))*int64(unsafe.Sizeof(stateChunk{})) +
		int64(len(s.table))*4 + s.vals.bytes()
}
