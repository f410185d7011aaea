package cegar

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"fencer/cs"
	"fencer/internal/progen"
	"fencer/memmodel"
)

// Shrinking candidate sets (shrink.go) may change how many refinements
// and states a run takes, never its answer: insert with and without it
// (Options.NoShrink) gives the same verdict and number of fences, under
// TSO and PSO, with full fences and with store fences too, on the Table 1
// benchmarks, the litmus tests, store-buffering rings, twoPairs and (not
// with -short) eight random ring programs of internal/progen. Every
// fence's witness is a real run to a bad state of the program.
func TestShrinkDifferential(t *testing.T) {
	sol := newSolver(t)
	type prog struct {
		name string
		sys  *cs.System
	}
	progs := []prog{{"twoPairs", parseCS(t, progen.TwoSBPairs)}}
	for _, n := range []int{3, 4} {
		progs = append(progs, prog{fmt.Sprintf("sbRing(%d)", n), parseCS(t, progen.SBRing(n, nil))})
	}
	names := []string{"sb.cs", "sb_procs.cs", "dekker_simple.cs", "peterson.cs", "burns.cs", "mp.cs", "litmus/2+2w.cs", "litmus/3sb.cs"}
	if !testing.Short() {
		names = []string{"bakery.cs", "burns.cs", "dekker_full.cs", "dekker_simple.cs", "dijkstra.cs", "lamport_fast.cs",
			"peterson.cs", "sb.cs", "sb_procs.cs", "mp.cs", "mp_array.cs", "lb.cs", "ring_buffer.cs", "spinlock_cas.cs", "seqlock.cs"}
		lit, err := filepath.Glob(filepath.Join("..", "benchmarks", "litmus", "*.cs"))
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range lit {
			names = append(names, filepath.Join("litmus", filepath.Base(f)))
		}
	}
	for _, name := range names {
		progs = append(progs, prog{name, benchSystem(t, name)})
	}
	for seed, n := int64(1), 0; !testing.Short() && n < 8; seed++ {
		src := progen.Ring(seed)
		if strings.Contains(src, "const N = 4") {
			continue // seconds to a minute each
		}
		progs = append(progs, prog{fmt.Sprintf("progen.Ring(%d)", seed), parseCS(t, src)})
		n++
	}
	run := func(sys *cs.System, opt Options) *Result {
		ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
		defer cancel()
		r, _, err := Insert(ctx, sys, sol, opt)
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	for _, p := range progs {
		for _, m := range []memmodel.Model{memmodel.TSO, memmodel.PSO} {
			for _, store := range []bool{false, true} {
				if store && m == memmodel.TSO {
					continue
				}
				what := fmt.Sprintf("%s %s store=%v", p.name, m, store)
				off := run(p.sys, Options{Model: m, StoreFences: store, NoShrink: true})
				on := run(p.sys, Options{Model: m, StoreFences: store})
				if off.Verdict == Unknown || on.Verdict == Unknown {
					t.Logf("%s: %s without shrinking, %s with it: not compared", what, off.Verdict, on.Verdict)
					continue
				}
				if off.Verdict != on.Verdict || len(off.Fences) != len(on.Fences) || storeCount(off) != storeCount(on) {
					t.Errorf("%s: %s with %d fences (%d store) without shrinking, %s with %d (%d store) with it",
						what, off.Verdict, len(off.Fences), storeCount(off), on.Verdict, len(on.Fences), storeCount(on))
					continue
				}
				for _, f := range on.Fences {
					if f.Witness == nil {
						continue
					}
					if msg := realTrace(f.Witness.Sys, m, f.Witness, 0); msg != "" {
						t.Errorf("%s: the witness of the fence at site %d: %s", what, f.Site.ID, msg)
					}
				}
				if on.Stats.Refinements.Fences > off.Stats.Refinements.Fences {
					t.Logf("%s: %d fence refinements with shrinking, %d without", what, on.Stats.Refinements.Fences, off.Stats.Refinements.Fences)
				}
			}
		}
	}
}

// storeCount is the number of store fences of r's answer.
func storeCount(r *Result) int {
	n := 0
	for _, f := range r.Fences {
		if f.Kind == cs.StoreFence {
			n++
		}
	}
	return n
}

// On a store-buffering ring of n processes written out, the first real
// counterexample delays every process, and one delayed process is enough:
// its candidate set shrinks to one process's sites, whose n images under
// the rotations ask for all n fences at once: one fence refinement, where
// without shrinking it takes one per necklace of fence sets. On twoPairs
// the candidate sets keep a site of each pair and the answer stays 2.
func TestShrinkRing(t *testing.T) {
	sol := newSolver(t)
	sizes := []int{4, 6}
	if testing.Short() {
		sizes = []int{4}
	}
	for _, n := range sizes {
		sys := parseCS(t, progen.SBRing(n, nil))
		for _, m := range []memmodel.Model{memmodel.TSO, memmodel.PSO} {
			on, _, err := Insert(context.Background(), sys, sol, Options{Model: m})
			if err != nil {
				t.Fatal(err)
			}
			if on.Verdict != Correct || len(on.Fences) != n || on.Stats.Refinements.Fences != 1 {
				t.Errorf("sbRing(%d) %s: %s, %d fences, %d fence refinements; want correct, %d fences, 1 refinement",
					n, m, on.Verdict, len(on.Fences), on.Stats.Refinements.Fences, n)
			}
			if n > 4 {
				continue // without shrinking: 13 refinements and tens of seconds
			}
			off, _, err := Insert(context.Background(), sys, sol, Options{Model: m, NoShrink: true})
			if err != nil {
				t.Fatal(err)
			}
			if off.Stats.Refinements.Fences <= 1 || off.Stats.States <= on.Stats.States {
				t.Errorf("sbRing(%d) %s: %d fence refinements and %d states without shrinking, %d and %d with it: no gain",
					n, m, off.Stats.Refinements.Fences, off.Stats.States, on.Stats.Refinements.Fences, on.Stats.States)
			}
		}
	}
	sys := parseCS(t, progen.TwoSBPairs)
	for _, m := range []memmodel.Model{memmodel.TSO, memmodel.PSO} {
		r, _, err := Insert(context.Background(), sys, sol, Options{Model: m})
		if err != nil {
			t.Fatal(err)
		}
		if r.Verdict != Correct || len(r.Fences) != 2 {
			t.Errorf("twoPairs %s: %s with %d fences, want correct with 2", m, r.Verdict, len(r.Fences))
		}
	}
}
