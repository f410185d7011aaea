package cegar

import "testing"

// The memory limit counts a table's next doubling once the table is more
// than five eighths full, and leaves an exploration the limit less the
// rest of the process and an eighth.
func TestMemoryBudget(t *testing.T) {
	for _, c := range []struct {
		used int
		want int64
	}{{0, 0}, {640, 0}, {641, 4096}, {767, 4096}} {
		st := &stateStore{table: make([]uint32, 1024), used: c.used}
		if got := tableNext(st); got != c.want {
			t.Errorf("tableNext with %d of 1024 slots used = %d, want %d", c.used, got, c.want)
		}
	}
	const mb = 1 << 20
	for _, c := range []struct{ max, want int64 }{
		{2048 * mb, 2048*mb - 64*mb - 256*mb},
		{256 * mb, 256*mb - 32*mb - 32*mb},
	} {
		if got := ExploreBudget(c.max); got != c.want {
			t.Errorf("ExploreBudget(%d MB) = %d MB, want %d MB", c.max/mb, got/mb, c.want/mb)
		}
	}
}
