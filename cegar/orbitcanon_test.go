package cegar

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// leastImageNaive is the least image by building every image in full: the
// element (-1: the state itself) whose (control key, value vector) is the
// least, the first on a tie.
func leastImageNaive(s *stateSym, self string, keys []string, vals []int64) int {
	best, bestKey, bestVals := -1, self, slices.Clone(vals)
	img := make([]int64, len(vals))
	for a, k := range keys {
		for i, v := range vals {
			img[s.pos[a][i]] = v
		}
		c := strings.Compare(k, bestKey)
		if c < 0 || c == 0 && slices.Compare(img, bestVals) < 0 {
			best, bestKey = a, k
			copy(bestVals, img)
		}
	}
	return best
}

// TestChooseLeastImage checks leastKeys, only and
// stateSym.choose against leastImageNaive on random permutations, keys
// from a small alphabet (so that keys tie) and values from a small range
// (so that images tie too).
func TestChooseLeastImage(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 25))
	for range 3000 {
		n, m := 1+r.IntN(6), r.IntN(5)
		s := &stateSym{}
		for range m {
			pos := r.Perm(n)
			ipos := make([]int, n)
			for i, j := range pos {
				ipos[j] = i
			}
			s.pos, s.ipos = append(s.pos, pos), append(s.ipos, ipos)
		}
		key := func() string { return string(rune('a' + r.IntN(3))) }
		self, keys := key(), make([]string, m)
		for a := range keys {
			keys[a] = key()
		}
		bkeys := make([][]byte, m)
		for a, k := range keys {
			bkeys[a] = []byte(k)
		}
		least, selfLeast := leastKeys(nil, []byte(self), bkeys)
		for range 5 {
			vals := make([]int64, n)
			for i := range vals {
				vals[i] = int64(r.IntN(3))
			}
			want := leastImageNaive(s, self, keys, vals)
			got := int(only(least, selfLeast))
			if got == -2 {
				got = s.choose(least, selfLeast, vals)
			}
			if got != want {
				t.Fatalf("self %q keys %q pos %v vals %v: least image under %d, want %d", self, keys, s.pos, vals, got, want)
			}
		}
	}
}
