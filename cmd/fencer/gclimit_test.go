package main

import "testing"

func TestSoftLimit(t *testing.T) {
	const mb = 1 << 20
	for _, c := range []struct{ live, max, want int64 }{
		{0, 12 << 30, gcFloor},            // small: the floor
		{100 * mb, 12 << 30, gcFloor},     // twice live is below the floor
		{600 * mb, 12 << 30, 1200 * mb},   // twice live
		{8 << 30, 12 << 30, 16 << 30},     // twice live, below 1.5 times max
		{10 << 30, 12 << 30, 18 << 30},    // 1.5 times max
		{20 << 30, 12 << 30, 18 << 30},    // past max (the exploration stops): 1.5 times max
		{100 * mb, 256 * mb, 256 * mb},    // max below the floor: max is the floor
		{150 * mb, 256 * mb, 300 * mb},    // ... and twice live above it
		{400 * mb, 256 * mb, 384 * mb},    // ... up to 1.5 times max
		{0, 1000 * mb, gcFloor},           // max above the floor
		{700 * mb, 1000 * mb, 1400 * mb},  // twice live
		{900 * mb, 1000 * mb, 1500 * mb},  // 1.5 times max
		{1500 * mb, 1000 * mb, 1500 * mb}, // past max
	} {
		if got := softLimit(c.live, 0, c.max); got != c.want {
			t.Errorf("softLimit(%d MB live, %d MB max) = %d MB, want %d MB", c.live/mb, c.max/mb, got/mb, c.want/mb)
		}
	}
	// The stores outside the heap count against the floor and the
	// ceiling, not against twice the live heap.
	for _, c := range []struct{ live, off, max, want int64 }{
		{0, 100 * mb, 12 << 30, gcFloor - 100*mb},  // the floor less the stores
		{100 * mb, 700 * mb, 12 << 30, 200 * mb},   // twice live above the floor's rest
		{100 * mb, 2 << 30, 12 << 30, 200 * mb},    // stores past the floor: twice live
		{8 << 30, 4 << 30, 12 << 30, 14 << 30},     // 1.5 times max less the stores
		{100 * mb, 300 * mb, 256 * mb, 100 * mb},   // past max with the stores: the live heap
		{0, 500 * mb, 12 << 30, gcFloor / 4},       // the floor less the stores, at least a quarter of it
		{10 * mb, 100 * mb, 32 * mb, 32 * mb},      // max below a quarter of the floor: max
		{10 * mb, 20 << 30, 12 << 30, gcFloor / 4}, // stores past the ceiling: a quarter of the floor
	} {
		if got := softLimit(c.live, c.off, c.max); got != c.want {
			t.Errorf("softLimit(%d MB live, %d MB off, %d MB max) = %d MB, want %d MB", c.live/mb, c.off/mb, c.max/mb, got/mb, c.want/mb)
		}
	}
}
