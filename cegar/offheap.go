package cegar

import (
	"sync/atomic"
	"unsafe"
)

// The large pointer-free tables of a state store (its chunks of nodes, its
// table) live outside the Go heap, in memory mapped from the system
// (mapMemory) and returned when the exploration ends (stateStore.release):
// the garbage collector's soft limit follows the Go heap (cmd/fencer's
// gclimit.go lets it grow to twice what is live between collections), so
// data kept in the Go heap costs up to twice its size in memory, and a
// table being doubled costs both copies until the next collection. Mapped
// out of the heap, the store costs what it holds, and an old table is
// returned the moment it is replaced. The memory limit counts these bytes
// with the live heap (memlimit.go). On Linux a block of 2 MB or more is
// advised to be backed by huge pages (offheap_unix.go): the table is read
// at random, and with 4 KB pages most of those reads in a large
// exploration also miss the TLB.

// offHeap is the memory mapped for the stores of the running explorations.
var offHeap atomic.Int64

// OffHeapBytes returns the memory the state stores hold outside the Go heap.
func OffHeapBytes() int64 { return offHeap.Load() }

// mapMin is the least size mapped from the system; smaller blocks come from
// the Go heap (a mapping is a page at least, and a system call).
const mapMin = 64 << 10

// block is memory from allocBlock: mapped (returned by free) or, when
// small or when mapping fails, from the Go heap.
type block struct {
	b      []byte
	mapped bool
}

// allocBlock returns n zero bytes, aligned to 8.
func allocBlock(n int) block {
	if n >= mapMin {
		if b, ok := mapMemory(n); ok {
			offHeap.Add(int64(len(b)))
			return block{b, true}
		}
	}
	return block{make([]byte, n), false}
}

// free returns the block's memory if it was mapped; the block is not to be
// used after.
func (k *block) free() {
	if k.mapped {
		offHeap.Add(-int64(len(k.b)))
		unmapMemory(k.b)
	}
	*k = block{}
}

// asUint32s views b as uint32s.
func asUint32s(b []byte) []uint32 {
	if len(b) == 0 {
		return nil
	}
	return unsafe.Slice((*uint32)(unsafe.Pointer(&b[0])), len(b)/4)
}
