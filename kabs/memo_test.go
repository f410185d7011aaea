package kabs

import (
	"os"
	"path/filepath"
	"sync"
	"testing"

	"fencer/memmodel"
)

// successorsBFS returns the steps, control keys and transitions of every
// control state reachable in abs (at most limit of them), in BFS order.
func successorsBFS(abs *Abs, limit int) []Succ {
	var out []Succ
	eachCtl(abs, limit, func(_ *Ctl, succs []Succ) { out = append(out, succs...) })
	return out
}

// Successors is safe for concurrent use: goroutines that walk the same
// abstraction's control states at once, from a fresh memo, get the steps
// and control states of a walk alone, and one *Trans per relation (the
// memo interns them). Run with -race, this also checks that the memo's
// lock-free reads race with nothing.
func TestSuccessorsConcurrent(t *testing.T) {
	src, err := os.ReadFile(filepath.Join("..", "benchmarks", "dekker_simple.cs"))
	if err != nil {
		t.Fatal(err)
	}
	sys := parse(t, "dekker_simple", string(src))
	for _, m := range memmodel.BufferModels() {
		for _, k := range []int{1, 2} {
			ref, err := NewAbs(sys, m, k)
			if err != nil {
				t.Fatal(err)
			}
			want := successorsBFS(ref, 400)
			abs, _ := NewAbs(sys, m, k)
			const n = 4
			got := make([][]Succ, n)
			var wg sync.WaitGroup
			for g := range n {
				wg.Add(1)
				go func() {
					defer wg.Done()
					got[g] = successorsBFS(abs, 400)
				}()
			}
			wg.Wait()
			byKey := map[string]*Trans{}
			for g := range n {
				if len(got[g]) != len(want) {
					t.Fatalf("%s k=%d: goroutine %d found %d steps, one walk alone %d", m, k, g, len(got[g]), len(want))
				}
				for i, s := range got[g] {
					w := want[i]
					if s.Step != w.Step || s.Ctl.Key() != w.Ctl.Key() || s.T.Key() != w.T.Key() {
						t.Fatalf("%s k=%d: goroutine %d, step %d: %v to %s by %s, alone %v to %s by %s",
							m, k, g, i, s.Step, s.Ctl.Key(), s.T.Key(), w.Step, w.Ctl.Key(), w.T.Key())
					}
					if u, ok := byKey[s.T.Key()]; ok && u != s.T {
						t.Fatalf("%s k=%d: two transitions with key %s", m, k, s.T.Key())
					}
					byKey[s.T.Key()] = s.T
				}
			}
		}
	}
}
