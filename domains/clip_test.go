package domains

import (
	"math/rand"
	"slices"
	"testing"
)

// TestClipZeros compares clipZeros with the positions of zero inside in,
// run by run, on random sets of positions.
func TestClipZeros(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	for range 2000 {
		n := 1 + rng.Intn(40)
		var zero, in, both []int
		for i := range n {
			z, m := rng.Intn(3) > 0, rng.Intn(2) > 0
			if z {
				zero = append(zero, i)
			}
			if m {
				in = append(in, i)
			}
			if z && m {
				both = append(both, i)
			}
		}
		got := clipZeros(ZerosOf(zero), ZerosOf(in), nil)
		if want := ZerosOf(both); !slices.Equal(got, want) {
			t.Fatalf("zero %v in %v: got %v, want %v", zero, in, got, want)
		}
	}
}
