package main

import (
	"os"
	"runtime/debug"
	"runtime/metrics"
	"sync"
	"time"

	"fencer/cegar"
)

// The garbage collector's soft memory limit follows the live heap, within
// what --max-memory allows. fencer runs with GOGC=400 (tuneGC): the heap
// may grow to five times what is live between collections, and the soft
// limit holds it back. A fixed limit made every run whose live heap came
// near it collect without pause (the runtime then gives the collector up
// to half the CPU), long before --max-memory stopped the exploration. So
// the limit starts at gcFloor (a small run stays small) and, as the live
// heap grows, rises to twice the live heap (the collector then works as
// with GOGC=100: a collection per live heap's worth of allocation, never
// harder), up to --max-memory less what the process holds outside the Go
// runtime: the state stores (cegar.OffHeapBytes) and the binary, its
// libraries and the solver (cegar.MemoryOther). The process then stays
// within --max-memory: an exploration stops when its live heap and stores
// pass cegar.ExploreBudget, an eighth of --max-memory below that ceiling,
// so the collector works harder only as the live heap nears the budget,
// and always has that eighth to collect in. The stores count against the
// floor and the ceiling, not against twice the live heap, so that a run
// whose memory is mostly its store collects while its heap is small rather
// than let the heap grow to the floor beside the store. GOMEMLIMIT in the
// environment takes precedence.

// gcFloor is the soft limit while the live heap is small. Below it the
// heap grows to five times what is live (GOGC=400): the runs that stay
// there are fast and small; above it, to twice, which with the state
// stores outside the heap costs the collector little (the heap left is
// the control states, mostly in pointer-free arenas).
const gcFloor = 256 << 20

// gcPoll is how often the live heap is read (runtime/metrics, cheap).
const gcPoll = 50 * time.Millisecond

// softLimit returns the soft memory limit for a live heap of live bytes,
// off bytes of state stores outside the heap and --max-memory maxMem:
// twice the live heap, at least gcFloor (or the ceiling, when that is
// below gcFloor) less off but not below a quarter of gcFloor (a collection
// per few megabytes allocated would cost more than it saves), at most the
// ceiling maxMem less cegar.MemoryOther less off (but the stores do not
// bring it below the live heap: past that the exploration stops at its
// next check of the memory limit, and a limit below what is live would
// have the collector run without pause until then).
func softLimit(live, off, maxMem int64) int64 {
	lo, hi := int64(gcFloor), maxMem-cegar.MemoryOther(maxMem)
	if hi < gcFloor {
		lo = hi
	}
	lo, hi = max(lo-off, min(lo, gcFloor/4)), max(hi-off, min(hi, live))
	return min(max(2*live, lo), max(hi, lo))
}

var followOnce sync.Once

// followMemory starts, once, the goroutine that sets the soft limit from
// the live heap and maxMem (softLimit), unless GOMEMLIMIT is set. It sets
// the first limit before it returns.
func followMemory(maxMem int64) {
	if os.Getenv("GOMEMLIMIT") != "" || maxMem <= 0 {
		return
	}
	followOnce.Do(func() {
		cur := softLimit(liveHeap(), cegar.OffHeapBytes(), maxMem)
		debug.SetMemoryLimit(cur)
		go func() {
			for range time.Tick(gcPoll) {
				if l := softLimit(liveHeap(), cegar.OffHeapBytes(), maxMem); l != cur {
					debug.SetMemoryLimit(l)
					cur = l
				}
			}
		}()
	})
}

// liveHeap is the live heap marked by the last collection (0 before any).
func liveHeap() int64 {
	s := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	metrics.Read(s)
	if s[0].Value.Kind() != metrics.KindUint64 {
		return 0
	}
	return int64(s[0].Value.Uint64())
}
