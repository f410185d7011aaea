package cegar

import (
	"bytes"
	"context"
	"testing"

	"fencer/cs"
	"fencer/memmodel"
)

// TestFinalCheckCheapPath: on Table 1 programs whose last exploration
// proves the fenced system correct (with --reconsider too), or whose
// verdict rests on robustness, the final check is the comparison of the
// patched program with that system (cs.SameAutomata) and explores nothing, and forcing the check from
// scratch (the comparison made to fail) gives the same answer with the
// states of one more exploration.
func TestFinalCheckCheapPath(t *testing.T) {
	for _, c := range []struct {
		file       string
		model      memmodel.Model
		reconsider bool
	}{
		{"dijkstra.cs", memmodel.TSO, false},
		{"dijkstra.cs", memmodel.PSO, false},
		{"bakery.cs", memmodel.TSO, false},
		{"ring_buffer.cs", memmodel.PSO, false},
		{"burns.cs", memmodel.TSO, true},
		// Verdicts that rest on robustness (Stats.Robust).
		{"peterson.cs", memmodel.TSO, false},
		{"peterson.cs", memmodel.PSO, false},
		{"seqlock.cs", memmodel.PSO, false},
		{"sb_procs.cs", memmodel.TSO, false},
	} {
		testFinalCheckOn(t, c.file, c.model, c.reconsider)
	}
}

func testFinalCheckOn(t *testing.T, file string, model memmodel.Model, reconsider bool) {
	sol := newSolver(t)
	old := sameAutomata
	defer func() { sameAutomata = old }()
	run := func(force bool) (*Result, []byte, int, bool) {
		calls, same := 0, false
		sameAutomata = func(a, b *cs.System) bool {
			calls++
			same = !force && cs.SameAutomata(a, b)
			return same
		}
		finalPhase := false
		opt := Options{Model: model, Reconsider: reconsider, Status: func(s Status) {
			if s.Phase == "final check" {
				finalPhase = true
			}
		}}
		r, patched, err := Insert(context.Background(), benchSystem(t, file), sol, opt)
		if err != nil {
			t.Fatalf("%s %s: %v", file, model, err)
		}
		if same && finalPhase {
			t.Errorf("%s %s: the comparison held and the final check explored anyway", file, model)
		}
		return r, patched, calls, same
	}
	cheap, cp, calls, same := run(false)
	if calls != 1 || !same {
		t.Fatalf("%s %s: %d comparisons, same %v: want the cheap path once (verdict %s, robust %q)", file, model, calls, same, cheap.Verdict, cheap.Stats.Robust)
	}
	full, fp, calls, _ := run(true)
	if calls != 1 {
		t.Fatalf("%s %s forced: %d comparisons", file, model, calls)
	}
	if cheap.Verdict != Correct || full.Verdict != Correct {
		t.Fatalf("%s %s: verdicts %s (cheap) and %s (from scratch)", file, model, cheap.Verdict, full.Verdict)
	}
	if !bytes.Equal(cp, fp) || len(cheap.Fences) != len(full.Fences) || len(cheap.Removed) != len(full.Removed) {
		t.Errorf("%s %s: different answers: %d fences, %d removed (cheap) and %d, %d (from scratch)", file, model, len(cheap.Fences), len(cheap.Removed), len(full.Fences), len(full.Removed))
	}
	for i := range cheap.Fences {
		if i < len(full.Fences) && (cheap.Fences[i].Site.ID != full.Fences[i].Site.ID || cheap.Fences[i].Kind != full.Fences[i].Kind) {
			t.Errorf("%s %s: fence %d differs", file, model, i)
		}
	}
	if full.Stats.States <= cheap.Stats.States {
		t.Errorf("%s %s: %d states from scratch, %d with the comparison: want more from scratch", file, model, full.Stats.States, cheap.Stats.States)
	}
	t.Logf("%s %s: %d fences, %d states (%d from scratch)", file, model, len(cheap.Fences), cheap.Stats.States, full.Stats.States)
}
