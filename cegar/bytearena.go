package cegar

import (
	"encoding/binary"
	"sync/atomic"
)

// byteArena holds byte strings, each as a varint length and its bytes, in
// chunks of at most 1 MB that never move, a string by its 32-bit
// reference: the chunk's index << arenaOffBits | its offset there. Chunks
// grow from 4 KB, doubling, so that a small exploration allocates little;
// there are at most max of them. It has no Go allocation and no pointer
// per string. One goroutine at a time pushes; any number read at once
// without a lock: the list of chunks is replaced, not changed, when one is
// added, and a reader reads a string whose reference it got through a
// synchronising operation (nodeSet). The state store's value vectors
// (vecSet) and the control keys too long for their node (nodeSet) live in
// one each.
type byteArena struct {
	// chunks lists the chunks at their full length (readers); last is the
	// last chunk up to what is used (the writer's).
	chunks atomic.Pointer[[][]byte]
	last   []byte
	max    int
}

const (
	arenaFirstChunk = 1 << 12
	arenaOffBits    = 20
	arenaChunk      = 1 << arenaOffBits
)

// push appends k and returns its reference; false, and nothing changed,
// when the arena has max chunks and no room or k is longer than a chunk.
func (a *byteArena) push(k []byte) (uint32, bool) {
	need := binary.MaxVarintLen64 + len(k)
	if need > arenaChunk {
		return 0, false
	}
	chunks := a.chunks.Load()
	if chunks == nil || cap(a.last)-len(a.last) < need {
		var grown [][]byte
		size := arenaFirstChunk
		if chunks != nil {
			if len(*chunks) == a.max {
				return 0, false
			}
			grown = append(grown, *chunks...)
			size = min(2*cap(a.last), arenaChunk)
		}
		c := make([]byte, max(size, need))
		grown = append(grown, c)
		a.chunks.Store(&grown)
		chunks, a.last = &grown, c[:0]
	}
	ref := uint32(len(*chunks)-1)<<arenaOffBits | uint32(len(a.last))
	a.last = binary.AppendUvarint(a.last, uint64(len(k)))
	a.last = append(a.last, k...)
	return ref, true
}

// at returns the string at ref (in the arena: not to be modified).
func (a *byteArena) at(ref uint32) []byte {
	b := (*a.chunks.Load())[ref>>arenaOffBits][ref&(arenaChunk-1):]
	if l := b[0]; l < 0x80 { // the length in one byte
		return b[1 : 1+int(l)]
	}
	l, k := binary.Uvarint(b)
	return b[k : k+int(l)]
}

// head returns the first byte at ref (of the string's length): loading it
// brings the string into the cache.
func (a *byteArena) head(ref uint32) byte {
	return (*a.chunks.Load())[ref>>arenaOffBits][ref&(arenaChunk-1)]
}

// nchunks is the number of chunks.
func (a *byteArena) nchunks() int {
	if c := a.chunks.Load(); c != nil {
		return len(*c)
	}
	return 0
}

// bytes is the memory of the chunks, as allocated.
func (a *byteArena) bytes() int64 {
	n := int64(0)
	if c := a.chunks.Load(); c != nil {
		for _, b := range *c {
			n += int64(cap(b))
		}
	}
	return n
}
