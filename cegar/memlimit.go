package cegar

import (
	"fmt"
	"runtime/metrics"
)

// The memory limit (Options.MaxMemory) is checked against the live Go
// heap and the memory the state stores hold outside it (offheap.go), read
// now and then while an exploration runs (with the deadline): the heap
// counts what the exploration holds beside its store's nodes and table
// (the control nodes and their successors, the value vectors, the memos of
// the abstract post) and what earlier explorations left. The point where the
// limit is hit depends on the garbage collector's timing, as a deadline's
// does on the machine's speed.

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
// memory outside it exceed Options.MaxMemory (0: no limit); st is the
// exploration's store.
func (e *engine) memoryLimit(st *stateStore) error {
	if e.opt.MaxMemory <= 0 {
		return nil
	}
	h, off := heapInUse(), OffHeapBytes()
	if h+off <= e.opt.MaxMemory {
		return nil
	}
	return &errLimit{MemoryLimit, fmt.Sprintf("memory limit reached (%s of live heap and %s of state store outside it, over %s; %d abstract states in this exploration, their store %s)",
		FormatBytes(h), FormatBytes(off), FormatBytes(e.opt.MaxMemory), st.n, FormatBytes(st.bytes()))}
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
