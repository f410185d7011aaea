package main

import "testing"

func TestSoftLimit(t *testing.T) {
	const mb = 1 << 20
	// The ceiling is max less cegar.MemoryOther: 64 MB, or an eighth of
	// a smaller max.
	for _, c := range []struct{ live, max, want int64 }{
		{0, 12 << 30, gcFloor},                  // small: the floor
		{100 * mb, 12 << 30, gcFloor},           // twice live is below the floor
		{600 * mb, 12 << 30, 1200 * mb},         // twice live
		{5 << 30, 12 << 30, 10 << 30},           // twice live, below the ceiling
		{8 << 30, 12 << 30, 12<<30 - 64*mb},     // the ceiling
		{20 << 30, 12 << 30, 12<<30 - 64*mb},    // past max (the exploration stops): the ceiling
		{100 * mb, 256 * mb, 224 * mb},          // the ceiling below the floor: the ceiling is the floor
		{150 * mb, 256 * mb, 224 * mb},          // ... and the limit
		{0, 1000 * mb, gcFloor},                 // max above the floor
		{400 * mb, 1000 * mb, 800 * mb},         // twice live
		{700 * mb, 1000 * mb, 1000*mb - 64*mb},  // the ceiling
		{1500 * mb, 1000 * mb, 1000*mb - 64*mb}, // past max
	} {
		if got := softLimit(c.live, 0, c.max); got != c.want {
			t.Errorf("softLimit(%d MB live, %d MB max) = %d MB, want %d MB", c.live/mb, c.max/mb, got/mb, c.want/mb)
		}
	}
	// The stores outside the heap count against the floor and the
	// ceiling, not against twice the live heap.
	for _, c := range []struct{ live, off, max, want int64 }{
		{0, 100 * mb, 12 << 30, gcFloor - 100*mb},   // the floor less the stores
		{100 * mb, 700 * mb, 12 << 30, 200 * mb},    // twice live above the floor's rest
		{100 * mb, 2 << 30, 12 << 30, 200 * mb},     // stores past the floor: twice live
		{4 << 30, 4 << 30, 12 << 30, 8<<30 - 64*mb}, // the ceiling less the stores
		{8 << 30, 4 << 30, 12 << 30, 8 << 30},       // that below the live heap: the live heap
		{100 * mb, 300 * mb, 256 * mb, 100 * mb},    // past max with the stores: the live heap
		{0, 500 * mb, 12 << 30, gcFloor / 4},        // the floor less the stores, at least a quarter of it
		{10 * mb, 100 * mb, 32 * mb, 28 * mb},       // the ceiling below a quarter of the floor: the ceiling
		{10 * mb, 20 << 30, 12 << 30, gcFloor / 4},  // stores past the ceiling: a quarter of the floor
	} {
		if got := softLimit(c.live, c.off, c.max); got != c.want {
			t.Errorf("softLimit(%d MB live, %d MB off, %d MB max) = %d MB, want %d MB", c.live/mb, c.off/mb, c.max/mb, got/mb, c.want/mb)
		}
	}
}
