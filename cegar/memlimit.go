package cegar

import (
	"fmt"
	"runtime/metrics"
)

// The memory limit (Options.MaxMemory) bounds the memory of the process.
// The process holds the Go heap, with the garbage that piles up between
// collections; the state stores outside it (offheap.go); and the rest: the
// binary and its libraries, the solver's contexts (MemoryOther). The
// command line's soft limit of the garbage collector keeps the Go heap
// within MaxMemory less the stores and the rest (cmd/fencer's gclimit.go),
// so an exploration stops while the collector still has room to work: when
// the live heap and the stores, with the next doubling of the store's table
// when it is near (tableNext), pass MaxMemory less the rest and an eighth
// (ExploreBudget). They are read now and then while an exploration runs
// (with the deadline): the heap counts what the exploration holds beside
// its store's nodes and table (the control nodes and their successors, the
// value vectors, the memos of the abstract post) and what earlier
// explorations left. The point where the limit is hit depends on the
// garbage collector's timing, as a deadline's does on the machine's speed.

// MemoryOther is what a process under a memory limit of max keeps for what
// is neither the Go heap nor the state stores: the binary, its libraries
// (Z3) and the solver's contexts; 64 MB, or an eighth of a smaller max.
func MemoryOther(max int64) int64 { return min(64<<20, max/8) }

// ExploreBudget is the live heap and state stores at which an exploration
// stops under a memory limit of max: max less MemoryOther and less an
// eighth, the collector's least headroom above the live heap.
func ExploreBudget(max int64) int64 { return max - MemoryOther(max) - max/8 }

// heapMetrics are the live heap as the last garbage collection marked it
// (what the program holds, without the garbage that GOGC lets pile up
// between collections: fencer runs with GOGC=400), the collections so
// far, and the bytes of heap objects, live or not yet swept (used before
// the first collection).
var heapMetrics = [...]string{"/gc/heap/live:bytes", "/gc/cycles/total:gc-cycles", "/memory/classes/heap/objects:bytes"}

// heapInUse returns the bytes of the Go heap in use (heapMetrics): the
// live heap of the last collection, or before any, every object.
func heapInUse() int64 {
	s := make([]metrics.Sample, len(heapMetrics))
	for i, name := range heapMetrics {
		s[i].Name = name
	}
	metrics.Read(s)
	for _, x := range s {
		if x.Value.Kind() != metrics.KindUint64 {
			return 0
		}
	}
	if s[1].Value.Uint64() == 0 {
		return int64(s[2].Value.Uint64())
	}
	return int64(s[0].Value.Uint64())
}

// memoryLimit returns the limit error when the heap in use and the stores'
// memory outside it, with the next doubling of st's table when it is near,
// exceed the ExploreBudget of Options.MaxMemory (0: no limit); st is the
// exploration's store.
func (e *engine) memoryLimit(st *stateStore) error {
	if e.opt.MaxMemory <= 0 {
		return nil
	}
	h, off, next := heapInUse(), OffHeapBytes(), tableNext(st)
	budget := ExploreBudget(e.opt.MaxMemory)
	if h+off+next <= budget {
		return nil
	}
	doubling := ""
	if next > 0 {
		doubling = fmt.Sprintf(" and %s more when its table next doubles", FormatBytes(next))
	}
	return &errLimit{MemoryLimit, fmt.Sprintf("memory limit reached (%s of live heap and %s of state stores outside it%s, over the %s that %s allows them; %d abstract states in this exploration, their store %s)",
		FormatBytes(h), FormatBytes(off), doubling, FormatBytes(budget), FormatBytes(e.opt.MaxMemory), st.n, FormatBytes(st.bytes()))}
}

// tableNext is the memory that the next doubling of st's table adds (the
// old table is returned before the new one is mapped: stateStore.grow),
// once the table is more than five eighths full (it doubles at three
// quarters), else 0: a doubling adds the table's size at once, between two
// checks of the limit.
func tableNext(st *stateStore) int64 {
	if 8*st.used <= 5*len(st.table) {
		return 0
	}
	return int64(len(st.table)) * 4
}

// noteStore records the store of an exploration that ends in the stats:
// the largest one's bytes, its control states' bytes and its states.
func (s *Stats) noteStore(bytes, control int64, states int) {
	if states > s.StoreStates {
		s.StoreBytes, s.ControlBytes, s.StoreStates = bytes, control, states
	}
}

// addStore takes the largest store of o's stats too (the runs of one
// Insert: the SC check, the model's loop, the final check).
func (s *Stats) addStore(o Stats) { s.noteStore(o.StoreBytes, o.ControlBytes, o.StoreStates) }

// FormatBytes writes n bytes with a binary unit: 512 B, 3.5 KB, 1.2 GB
// (KB = 1024 bytes, as --max-memory reads them).
func FormatBytes(n int64) string {
	const unit = 1024
	if n < unit {
		return fmt.Sprintf("%d B", n)
	}
	x, u := float64(n)/unit, 0
	for x >= unit && u < 3 {
		x /= unit
		u++
	}
	return fmt.Sprintf("%.1f %cB", x, "KMGT"[u])
}
