package main

import "testing"

func TestSoftLimit(t *testing.T) {
	const mb = 1 << 20
	for _, c := range []struct{ live, max, want int64 }{
		{0, 12 << 30, gcFloor},            // small: the floor
		{300 * mb, 12 << 30, gcFloor},     // twice live is below the floor
		{600 * mb, 12 << 30, 1200 * mb},   // twice live
		{8 << 30, 12 << 30, 16 << 30},     // twice live, below twice max
		{20 << 30, 12 << 30, 24 << 30},    // past max (the exploration stops): twice max
		{100 * mb, 256 * mb, 256 * mb},    // max below the floor: max is the floor
		{200 * mb, 256 * mb, 400 * mb},    // ... and twice live above it
		{400 * mb, 256 * mb, 512 * mb},    // ... up to twice max
		{0, 1000 * mb, gcFloor},           // max above the floor
		{900 * mb, 1000 * mb, 1800 * mb},  // twice live
		{1500 * mb, 1000 * mb, 2000 * mb}, // twice max
	} {
		if got := softLimit(c.live, c.max); got != c.want {
			t.Errorf("softLimit(%d MB live, %d MB max) = %d MB, want %d MB", c.live/mb, c.max/mb, got/mb, c.want/mb)
		}
	}
}
