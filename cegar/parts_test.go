package cegar

import (
	"context"
	"testing"

	"fencer/memmodel"
)

// The parts of the graph (reach.go, reachParts and reachExact): a
// counterexample that needs no write in a tail is found in an exact-only
// part, and a proof is made under the k at which the exact-only part
// leaves no write out when the buffers settle, and under the precision's
// k with its tails when they do not. States are deterministic, so the
// bounds below are exact properties of the search, not timings.
func TestPartsOfTheGraph(t *testing.T) {
	sol := newSolver(t)
	for _, c := range []struct {
		file      string
		model     memmodel.Model
		fences    int
		k         int // the proof's k
		maxStates int // the run stores fewer
	}{
		// The ring of four needs every process and no tail: found in
		// the exact-only part with all processes (409,598 states with
		// tails).
		{"regressions/ring4_fetch_add.cs", memmodel.TSO, 1, 1, 20000},
		// The filter lock's counterexamples need two processes and no
		// tail: with tails, 235,666 states and a k refinement.
		{"scale/filter.cs:N=3", memmodel.TSO, 1, 1, 10000},
		// Dijkstra's buffers settle at three writes: the proof is the
		// exact-only exploration under k=4 (948,894 states under k=1
		// with tails).
		{"scale/dijkstra.cs:N=3", memmodel.TSO, 1, 4, 150000},
		// Burns's buffers do not settle (a loop that writes with no
		// fence): the climb stops and the proof is under k=1 with tails.
		{"scale/burns.cs:N=3", memmodel.TSO, 1, 1, 20000},
	} {
		r, _, err := Insert(context.Background(), benchSystem(t, c.file), sol, Options{Model: c.model})
		if err != nil {
			t.Fatalf("%s: %v", c.file, err)
		}
		if r.Verdict != Correct || len(r.Fences) != c.fences || r.Stats.K != c.k || r.Stats.States >= c.maxStates {
			t.Errorf("%s %s: %s, %d fences, k=%d, %d states; want correct, %d fences, k=%d, fewer than %d states",
				c.file, c.model, r.Verdict, len(r.Fences), r.Stats.K, r.Stats.States, c.fences, c.k, c.maxStates)
		}
	}
}

// A program whose verdict under the model is unsafe is still unsafe when
// the exact-only parts find its counterexample, and verify's trace is a
// run of the model (the differential tests check verdicts at large; this
// one checks the path of an exact-only part through Verify).
func TestExactOnlyCounterexampleIsReal(t *testing.T) {
	sol := newSolver(t)
	r, err := Verify(context.Background(), benchSystem(t, "scale/filter.cs:N=3"), sol, Options{Model: memmodel.TSO})
	if err != nil {
		t.Fatal(err)
	}
	if r.Verdict != Unsafe || r.Trace == nil {
		t.Fatalf("verify filter N=3 under TSO: %s; want unsafe with a trace", r.Verdict)
	}
}
