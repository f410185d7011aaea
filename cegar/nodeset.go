package cegar

import (
	"bytes"
	"encoding/binary"
	"hash/maphash"
	"math"
	"sync/atomic"
	"unsafe"
)

// nodeSet holds the control nodes of an exploration (ctlNode) and finds
// them by their keys (ctlKey: the vector of their components' ids). The
// i-th node added has id i; the nodes live in chunks of 1<<chunkBits that
// never move, a node's key inline when it fits (nodeKeyMax bytes: a few
// processes with components numbered below 128, or fewer with larger
// numbers), else in an arena (byteArena) with its place there in the
// node. The nodes put in the
// table are found again by lookup (idTable: open addressing over the
// keys' 64-bit hashes). There is no Go allocation and no pointer per node:
// a control state costs its 16-byte node, the bytes of a key that does not
// fit, and 4-8 bytes of table (at a load between 3/8 and 3/4). Finding a
// node reads its table entry and the node, whose key is there.
//
// One goroutine at a time writes (add, put: the explorer holds its lock);
// any number read at once without a lock (node, key, lookup). Nothing a
// reader reads moves: the chunks of nodes and of the arena are never
// reallocated, their lists are replaced, not changed, when one is added,
// and the table is replaced when it grows (idTable). A node is written
// whole before put publishes its id; a reader that finds the id, or gets
// the node through another synchronising operation, reads it whole. A
// lookup without the lock may miss a node put meanwhile, never find a
// wrong one: the explorer looks a missing key up again under its lock.
type nodeSet struct {
	nodes atomic.Pointer[[]*[1 << chunkBits]ctlNode]
	long  byteArena // the keys that do not fit in their node
	n     int
	seed  maphash.Seed
	ids   idTable
}

const (
	// nodeKeyMax is the longest key kept in its node; keyOut, as a
	// node's key length, says that the key is in the arena.
	nodeKeyMax = 7
	keyOut     = 0xff
)

// init makes s an empty set.
func (s *nodeSet) init() {
	s.seed = maphash.MakeSeed()
	s.long.max = 1 << (32 - arenaOffBits) // 4 GB
	s.ids.init()
}

func (s *nodeSet) hash(k []byte) uint64 { return maphash.Bytes(s.seed, k) }

// node returns the node with id i.
func (s *nodeSet) node(i int32) *ctlNode {
	return &(*s.nodes.Load())[i>>chunkBits][i&(1<<chunkBits-1)]
}

// key returns the key of n (in n or the arena: not to be modified).
func (s *nodeSet) key(n *ctlNode) []byte {
	if n.kl != keyOut {
		return n.key[:n.kl]
	}
	return s.long.at(binary.LittleEndian.Uint32(n.key[:4]))
}

// lookup returns the id of the node with key k (hash h) in the table.
func (s *nodeSet) lookup(k []byte, h uint64) (int32, bool) {
	return s.ids.find(h, func(i int32) bool { return bytes.Equal(s.key(s.node(i)), k) })
}

// add appends a node with key k and returns it, its other fields zero; it
// is not in the table until put. It returns nil, and changes nothing,
// when the arena is full or k is longer than a chunk holds.
func (s *nodeSet) add(k []byte) *ctlNode {
	if s.n == math.MaxInt32 {
		return nil
	}
	var ref uint32
	if len(k) > nodeKeyMax {
		var ok bool
		if ref, ok = s.long.push(k); !ok {
			return nil
		}
	}
	dir := s.nodes.Load()
	if dir == nil || s.n>>chunkBits == len(*dir) {
		var grown []*[1 << chunkBits]ctlNode
		if dir != nil {
			grown = append(grown, *dir...)
		}
		grown = append(grown, new([1 << chunkBits]ctlNode))
		s.nodes.Store(&grown)
	}
	n := s.node(int32(s.n))
	n.id = int32(s.n)
	if len(k) > nodeKeyMax {
		n.kl = keyOut
		binary.LittleEndian.PutUint32(n.key[:4], ref)
	} else {
		n.kl = uint8(len(k))
		copy(n.key[:], k)
	}
	s.n++
	return n
}

// put enters n (with key hash h) in the table.
func (s *nodeSet) put(h uint64, n *ctlNode) {
	s.ids.put(h, n.id, func(j int32) uint64 { return s.hash(s.key(s.node(j))) })
}

// bytes is the memory of the set as allocated: nodes, arena, table.
func (s *nodeSet) bytes() int64 {
	b := int64(s.ids.size()) * 4
	if dir := s.nodes.Load(); dir != nil {
		b += int64(len(*dir)) * int64(unsafe.Sizeof([1 << chunkBits]ctlNode{}))
	}
	return b + s.long.bytes()
}

// idTable is a nodeSet's table: its node ids by their keys' 64-bit hashes,
// open addressing with linear probing, in 32-bit entries. With a table of
// 1<<bits entries an entry is the hash's tag (the top 32-bits bits of its
// upper half) << bits | (id + 1), 0 when free: the ids stay below
// the table's length (put grows it first), and the tag's bits (8 at 16
// million entries) spare most probes the reading of a key that differs.
// One goroutine at a time enters (put); any number look up at once: an
// entry is stored and loaded atomically, and a grown table replaces the
// old one whole, so that a lookup on the old one finds what it held.
type idTable struct {
	cur  atomic.Pointer[idTab]
	used int
}

// idTab is one table of an idTable and its size, 1<<bits.
type idTab struct {
	e    []uint32
	bits uint
}

const idTableFirstBits = 8

func (t *idTable) init() {
	t.cur.Store(&idTab{e: make([]uint32, 1<<idTableFirstBits), bits: idTableFirstBits})
}

// size is the number of entries the table has room for.
func (t *idTable) size() int { return len(t.cur.Load().e) }

// tagOf is the tag of hash h in t (the store's tagOf).
func (t *idTab) tagOf(h uint64) uint32 { return tagOf(h, t.bits) }

// find returns the id entered under a hash with h's tag for which eq
// holds, probing from h's place; -1 and false when there is none.
func (t *idTable) find(h uint64, eq func(int32) bool) (int32, bool) {
	tab := t.cur.Load()
	mask, tag, low := uint64(len(tab.e)-1), tab.tagOf(h), uint32(1)<<tab.bits-1
	for i := h & mask; ; i = (i + 1) & mask {
		e := atomic.LoadUint32(&tab.e[i])
		if e == 0 {
			return -1, false
		}
		if e&^low == tag {
			if j := int32(e&low) - 1; eq(j) {
				return j, true
			}
		}
	}
}

// put enters idx under the hash h, growing the table first when one more
// entry would pass a load of 3/4 or idx would not fit; rehash gives the
// hash of an id entered before.
func (t *idTable) put(h uint64, idx int32, rehash func(int32) uint64) {
	tab := t.cur.Load()
	if 4*(t.used+1) > 3*len(tab.e) || uint64(idx)+1 >= uint64(len(tab.e)) {
		bits := tab.bits + 1
		for uint64(idx)+1 >= 1<<bits {
			bits++
		}
		grown := &idTab{e: make([]uint32, 1<<bits), bits: bits}
		low := uint32(1)<<tab.bits - 1
		for _, e := range tab.e {
			if e != 0 {
				j := int32(e&low) - 1
				grown.place(rehash(j), j)
			}
		}
		t.cur.Store(grown)
		tab = grown
	}
	tab.place(h, idx)
	t.used++
}

// place enters idx under h, atomically: readers may be probing the table.
func (t *idTab) place(h uint64, idx int32) {
	mask := uint64(len(t.e) - 1)
	i := h & mask
	for t.e[i] != 0 {
		i = (i + 1) & mask
	}
	atomic.StoreUint32(&t.e[i], t.tagOf(h)|(uint32(idx)+1))
}
