package cegar

import "sync/atomic"

// arena holds short runs of T (the control states' profiles, one each) in
// chunks that never move, a run by a 32-bit reference: the chunk's index
// << 16 | the run's offset in it. Chunks grow from 1<<10 to 1<<16 entries,
// so that a small exploration allocates little. One goroutine at a time
// allocates (the explorer holds its lock); any goroutine reads a run whose
// reference it got through a synchronising operation: the list of chunks is
// replaced, not changed, when one is added.
type arena[T any] struct {
	chunks atomic.Pointer[[][]T]
	used   int // entries used in the last chunk
}

const (
	arenaFirst = 1 << 10
	arenaLast  = 1 << 16
)

// alloc returns a run of n zero entries (n <= 1<<16) and its reference.
func (a *arena[T]) alloc(n int) (uint32, []T) {
	if n == 0 {
		return 0, nil
	}
	cs := a.chunks.Load()
	if cs == nil || a.used+n > len((*cs)[len(*cs)-1]) {
		size := arenaFirst
		var grown [][]T
		if cs != nil {
			size = min(2*len((*cs)[len(*cs)-1]), arenaLast)
			grown = append(grown, *cs...)
		}
		grown = append(grown, make([]T, max(size, n)))
		a.chunks.Store(&grown)
		cs, a.used = &grown, 0
	}
	k := len(*cs) - 1
	off := a.used
	a.used += n
	return uint32(k)<<16 | uint32(off), (*cs)[k][off : off+n : off+n]
}

// run returns the run of n entries at ref.
func (a *arena[T]) run(ref uint32, n int) []T {
	if n == 0 {
		return nil
	}
	off := int(ref & (1<<16 - 1))
	return (*a.chunks.Load())[ref>>16][off : off+n : off+n]
}
