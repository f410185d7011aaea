package fences

import (
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"pgregory.net/rapid"
)

func TestMinHittingSet(t *testing.T) {
	tests := []struct {
		name string
		sets [][]int
		want []int // nil with ok false
		ok   bool
	}{
		{"no sets", nil, []int{}, true},
		{"one singleton", [][]int{{7}}, []int{7}, true},
		{"empty set", [][]int{{1, 2}, {}}, nil, false},
		{"only empty set", [][]int{{}}, nil, false},
		{"one set takes smallest", [][]int{{5, 3, 9}}, []int{3}, true},
		{"common element", [][]int{{1, 2}, {2, 3}, {2, 4}}, []int{2}, true},
		{"disjoint", [][]int{{4, 1}, {2, 3}}, []int{1, 2}, true},
		{"duplicates in set", [][]int{{3, 3, 3}, {3, 1}}, []int{3}, true},
		{"duplicate sets", [][]int{{1, 2}, {2, 1}, {1, 2}}, []int{1}, true},
		{"triangle", [][]int{{0, 1}, {1, 2}, {0, 2}}, []int{0, 1}, true},
		{"greedy is not optimal", [][]int{
			// 2 hits the most sets, but then 0 and 1 are still needed.
			{0, 2}, {0, 2}, {0}, {1, 2}, {1, 2}, {1},
		}, []int{0, 1}, true},
		{"set cover trap", [][]int{
			// Element 9 hits the most sets but the optimum avoids it.
			{1, 9}, {1, 9}, {2, 9}, {2, 9},
			{1, 3}, {2, 4},
			{1}, {2},
		}, []int{1, 2}, true},
		{"lexicographic among equals", [][]int{{5, 1}, {6, 2}}, []int{1, 2}, true},
		{"lexicographic prefers small first", [][]int{{0, 10}, {10, 20}, {1, 20}}, []int{0, 20}, true},
		{"large ids", [][]int{{1000, 64}, {129, 64}}, []int{64}, true},
		{"sites past 64", [][]int{{70}, {65, 130}, {130, 200}}, []int{70, 130}, true},
		{"tso litmus shape", [][]int{{0, 1}, {0}, {1, 2}, {3}}, []int{0, 1, 3}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := cloneSets(tt.sets)
			got, ok := MinHittingSet(tt.sets)
			if ok != tt.ok || !slices.Equal(got, tt.want) || (tt.ok && got == nil) {
				t.Errorf("MinHittingSet(%v) = %v, %v; want %v, %v", tt.sets, got, ok, tt.want, tt.ok)
			}
			if !slices.EqualFunc(in, tt.sets, slices.Equal) {
				t.Errorf("input modified: %v, was %v", tt.sets, in)
			}
		})
	}
}

// bruteForce returns the lexicographically smallest minimum hitting set by
// trying every subset of the elements, smallest first.
func bruteForce(sets [][]int) ([]int, bool) {
	var ids []int
	for _, s := range sets {
		if len(s) == 0 {
			return nil, false
		}
		ids = append(ids, s...)
	}
	slices.Sort(ids)
	ids = slices.Compact(ids)
	var best []int
	for mask := 0; mask < 1<<len(ids); mask++ {
		var cand []int
		for i, id := range ids {
			if mask&(1<<i) != 0 {
				cand = append(cand, id)
			}
		}
		if !hitsAll(cand, sets) {
			continue
		}
		if best == nil || len(cand) < len(best) || len(cand) == len(best) && slices.Compare(cand, best) < 0 {
			best = cand
		}
	}
	if best == nil {
		best = []int{}
	}
	return best, true
}

func hitsAll(h []int, sets [][]int) bool {
	for _, s := range sets {
		hit := false
		for _, e := range s {
			if slices.Contains(h, e) {
				hit = true
				break
			}
		}
		if !hit {
			return false
		}
	}
	return true
}

func cloneSets(sets [][]int) [][]int {
	out := make([][]int, len(sets))
	for i, s := range sets {
		out[i] = slices.Clone(s)
	}
	return out
}

func TestMinHittingSetProperties(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		universe := rapid.IntRange(1, 10).Draw(t, "universe")
		elem := rapid.IntRange(0, universe-1)
		sets := rapid.SliceOfN(rapid.SliceOfN(elem, 0, 5), 0, 12).Draw(t, "sets")
		// Sparse IDs exercise the mapping to dense indices.
		scale := rapid.SampledFrom([]int{1, 7, 64}).Draw(t, "scale")
		for _, s := range sets {
			for i := range s {
				s[i] *= scale
			}
		}
		in := cloneSets(sets)

		got, ok := MinHittingSet(sets)
		want, wantOK := bruteForce(sets)
		if ok != wantOK {
			t.Fatalf("ok = %v, want %v", ok, wantOK)
		}
		if !slices.EqualFunc(in, sets, slices.Equal) {
			t.Fatalf("input modified")
		}
		if !ok {
			if got != nil {
				t.Fatalf("got %v with ok false", got)
			}
			return
		}
		if !slices.IsSorted(got) || len(slices.Compact(slices.Clone(got))) != len(got) {
			t.Fatalf("result %v not sorted and duplicate-free", got)
		}
		if !hitsAll(got, sets) {
			t.Fatalf("result %v misses a set of %v", got, sets)
		}
		if len(got) != len(want) {
			t.Fatalf("size %d (%v), minimum is %d (%v)", len(got), got, len(want), want)
		}
		if !slices.Equal(got, want) {
			t.Fatalf("got %v, lexicographically smallest minimum is %v", got, want)
		}

		// Determinism: the order of sets and of their elements does not
		// matter.
		perm := cloneSets(sets)
		rapid.Permutation(perm).Draw(t, "perm")
		for _, s := range perm {
			slices.Reverse(s)
		}
		again, ok2 := MinHittingSet(perm)
		if !ok2 || !slices.Equal(again, got) {
			t.Fatalf("permuted input gave %v, %v; want %v", again, ok2, got)
		}
	})
}

// randomInstance returns m sets of 1..maxSize sites drawn from 0..n-1.
func randomInstance(r *rand.Rand, n, m, maxSize int) [][]int {
	sets := make([][]int, m)
	for i := range sets {
		size := 1 + r.IntN(maxSize)
		for range size {
			sets[i] = append(sets[i], r.IntN(n))
		}
	}
	return sets
}

// TestMinHittingSetSize checks that instances of the sizes fence insertion
// produces (64 sites, a few hundred counterexamples) are solved quickly, and
// that the result is a minimal hitting set: no element can be dropped.
func TestMinHittingSetSize(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	start := time.Now()
	for round := range 20 {
		sets := randomInstance(r, 64, 300, 2+round%8)
		got, ok := MinHittingSet(sets)
		if !ok || !hitsAll(got, sets) {
			t.Fatalf("round %d: %v, %v does not hit every set", round, got, ok)
		}
		for i := range got {
			smaller := slices.Delete(slices.Clone(got), i, i+1)
			if hitsAll(smaller, sets) {
				t.Fatalf("round %d: %v is not minimal, %v hits too", round, got, smaller)
			}
		}
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("20 instances of 64 sites and 300 sets took %v", d)
	}
}

// BenchmarkMinHittingSet runs 64 sites and 300 sets of 1..6 sites (the easy,
// usual case) and 64 sites and 100 sets of exactly 4 sites (random and
// unstructured: the hard case for branch and bound).
func BenchmarkMinHittingSet(b *testing.B) {
	for _, bc := range []struct {
		name       string
		m, maxSize int
		exact      bool
	}{
		{"64x300/1-6", 300, 6, false},
		{"64x100/4", 100, 4, true},
	} {
		b.Run(bc.name, func(b *testing.B) {
			r := rand.New(rand.NewPCG(3, 4))
			inst := make([][][]int, 10)
			for i := range inst {
				inst[i] = randomInstance(r, 64, bc.m, bc.maxSize)
				if bc.exact {
					for j := range inst[i] {
						for len(inst[i][j]) < bc.maxSize {
							inst[i][j] = append(inst[i][j], r.IntN(64))
						}
					}
				}
			}
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				MinHittingSet(inst[i%len(inst)])
			}
		})
	}
}
