package cegar

import (
	"context"
	"testing"

	"fencer/cs"
	"fencer/memmodel"
)

// Options.Status reports each phase of insert (SC, the model, the final
// check of the patched program) with the engine's counts, and is not
// called when unset (Progress alone still is). The final check is forced
// to verify from scratch (it is a comparison when the patched program
// lowers to the system proved: TestFinalCheckCheapPath).
func TestStatusPhases(t *testing.T) {
	old := sameAutomata
	defer func() { sameAutomata = old }()
	sameAutomata = func(a, b *cs.System) bool { return false }
	sys := benchSystem(t, "dekker_simple.cs")
	sol := newSolver(t)
	var seen []Status
	phases := map[string]bool{}
	progress := 0
	opt := Options{Model: memmodel.TSO, Status: func(s Status) { seen = append(seen, s); phases[s.Phase] = true },
		Progress: func(int) { progress++ }}
	r, _, err := Insert(context.Background(), sys, sol, opt)
	if err != nil {
		t.Fatal(err)
	}
	if r.Verdict != Correct || len(r.Fences) == 0 {
		t.Fatalf("verdict %s with %d fences", r.Verdict, len(r.Fences))
	}
	if !phases["SC"] || !phases["TSO"] || !phases["final check"] {
		t.Errorf("phases %v", phases)
	}
	if progress != len(seen) {
		t.Errorf("Progress called %d times, Status %d", progress, len(seen))
	}
	last := map[string]Status{}
	for _, s := range seen {
		if s.Round < 1 || s.Predicates < 0 || s.States < 0 || s.Fences < 0 {
			t.Errorf("status %+v", s)
		}
		if s.Phase == "SC" && (s.K != 0 || s.Fences != 0) {
			t.Errorf("SC status %+v", s)
		}
		if s.Phase == "TSO" && s.K < 1 {
			t.Errorf("TSO status %+v", s)
		}
		if p, ok := last[s.Phase]; ok && (s.States < p.States || s.Round < p.Round) {
			t.Errorf("%s went back: %+v after %+v", s.Phase, s, p)
		}
		last[s.Phase] = s
	}
	if last["TSO"].Fences != len(r.Fences) && r.Stats.Robust == "" {
		t.Errorf("last TSO status has %d fences, result %d", last["TSO"].Fences, len(r.Fences))
	}
}
