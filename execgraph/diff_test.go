package execgraph_test

import (
	"context"
	"math/rand"
	"os"
	"testing"

	"fencer/cs"
	"fencer/execgraph"
	"fencer/internal/progen"
	"fencer/internal/refsem"
	"fencer/memmodel"
	"fencer/robust"
	"fencer/weakfix"
)

// The differential suite of the axiomatic models: on generated loop-free
// programs (progen.Weak), the explorer and package refsem's brute-force
// semantics, written from the cat files and sharing no code with it, agree
// on whether a bad execution exists, under arm, riscv and rmo, on the
// program as written and with random barriers at random sites; and the
// number of changes weakfix returns is at most refsem's fewest full
// fences (a full barrier orders at least what any change does) and, with
// weakfix's changes installed, refsem finds no bad execution; and where
// package robust proves every execution SC-equivalent, the explorer finds
// no bad execution that SC forbids. FENCER_SOAK
// runs ten times as many programs.
func TestDifferentialWeak(t *testing.T) {
	n := int64(250)
	if testing.Short() {
		n = 40
	}
	if os.Getenv("FENCER_SOAK") != "" {
		n *= 10
	}
	models := []memmodel.Model{memmodel.ARM, memmodel.RISCV, memmodel.RMO}
	kinds := []cs.FenceKind{cs.FullFence, cs.LoadFence, cs.StoreFence, cs.ReleaseFence, cs.TSOFence, cs.MaskFence(cs.StoreLoad)}
	compared, bad := 0, 0
	for seed := int64(1); seed <= n; seed++ {
		src := progen.Weak(seed)
		sys, err := cs.Parse("w.cs", []byte(src))
		if err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		prog, err := refsem.Compile("w.cs", []byte(src))
		if err != nil {
			t.Fatalf("seed %d: refsem: %v", seed, err)
		}
		r := rand.New(rand.NewSource(seed))
		for _, m := range models {
			for round := 0; round < 2; round++ {
				ch := execgraph.Changes{Fences: map[int]cs.FenceKind{}}
				ref := refsem.WeakOptions{Fences: map[refsem.SiteKey]cs.FenceKind{}}
				if round == 1 {
					for _, s := range sys.Sites {
						if r.Intn(3) == 0 {
							k := kinds[r.Intn(len(kinds))]
							ch.Fences[s.ID] = k
							ref.Fences[refsem.SiteKey{Start: s.Start, End: s.End, Before: s.Place == cs.Before, Bare: s.BareBody}] = k
						}
					}
				}
				got, err := execgraph.Explore(context.Background(), sys, m, execgraph.Options{Changes: ch})
				if err != nil || got.Verdict == execgraph.Unknown {
					continue
				}
				want, err := prog.RunWeak(m, ref)
				if err != nil {
					continue
				}
				compared++
				gotBad := got.Verdict != execgraph.NoBad
				if gotBad {
					bad++
				}
				if gotBad != want.Bad {
					t.Errorf("seed %d, %v, fences %v: explorer %v, refsem bad=%v\n%s\nrefsem witness:\n%s", seed, m, ch.Fences, got.Verdict, want.Bad, src, want.Witness)
				}
				// robustness: every execution SC-equivalent, so no bad
				// execution that SC forbids
				if ok, _ := robust.Analyze(sys, m).RobustFences(ch.Fences); ok && got.Verdict == execgraph.Bad {
					t.Errorf("seed %d, %v, fences %v: robust, but the explorer finds an execution SC forbids\n%s", seed, m, ch.Fences, src)
				}
			}
			if seed%3 != 0 {
				continue
			}
			// insertion: no more changes than full fences, and correct
			fix, err := weakfix.Insert(context.Background(), sys, m, weakfix.Options{CanRaise: func(int, int) bool { return true }}, nil)
			if err != nil || fix.Verdict != weakfix.Correct {
				continue
			}
			min, err := prog.MinFullFencesWeak(m, refsem.WeakOptions{})
			if err != nil || min < 0 {
				continue
			}
			if len(fix.Changes) > min {
				t.Errorf("seed %d, %v: %d changes, refsem needs %d full fences\n%s", seed, m, len(fix.Changes), min, src)
			}
			patched, err := weakfix.Patch(sys, fix.Changes)
			if err != nil {
				t.Fatalf("seed %d: patch: %v", seed, err)
			}
			pp, err := refsem.Compile("w.cs", patched)
			if err != nil {
				t.Fatalf("seed %d: the patched program: %v\n%s", seed, err, patched)
			}
			if res, err := pp.RunWeak(m, refsem.WeakOptions{}); err == nil && res.Bad {
				t.Errorf("seed %d, %v: refsem finds a bad execution of the patched program\n%s\n%s", seed, m, patched, res.Witness)
			}
		}
	}
	t.Logf("%d comparisons, %d with a bad execution", compared, bad)
	if compared < int(n) {
		t.Errorf("only %d comparisons for %d programs", compared, n)
	}
}
