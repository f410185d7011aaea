package cegar

import (
	"context"
	"fmt"
	"testing"

	"fencer/memmodel"
)

// TestWorkersSameRun runs insert with one goroutine and with three (more
// than the machine's cores, so that expansions interleave; from levels of
// one state on) and asks for
// the same run: the successors are stored in the sequential order
// (parallel.go), so the states, refinements, predicates, fences and trace
// must all be equal. Only the number of solver queries may differ (two
// workers may ask the same question before either memoises it).
func TestWorkersSameRun(t *testing.T) {
	defer lowParallelFrom()()
	// The programs with predicates (the others are explored by one
	// worker: workersFor), and three without, two of them symmetric (sb,
	// sb4: the workers canonicalise the successors, orbitstates.go).
	names := []string{"ticket_lock.cs", "seqlock.cs", "producer_loop.cs", "nondet.cs", "sb.cs", "scale/burns.cs:N=3", "litmus/sb4.cs"}
	if !testing.Short() {
		names = append(names, "bakery.cs", "scale/bakery.cs")
	}
	ctx := context.Background()
	for _, name := range names {
		sys := benchSystem(t, name)
		for _, m := range []memmodel.Model{memmodel.TSO, memmodel.PSO} {
			// A fresh solver for each run: Spacer's interpolants depend on
			// the history of its context.
			one, _, err := Insert(ctx, sys, newSolver(t), Options{Model: m, Workers: 1})
			if err != nil {
				t.Fatal(err)
			}
			three, _, err := Insert(ctx, sys, newSolver(t), Options{Model: m, Workers: 3})
			if err != nil {
				t.Fatal(err)
			}
			if a, b := runSummary(one), runSummary(three); a != b {
				t.Errorf("%s %s: one worker: %s\nthree workers: %s", name, m, a, b)
			}
		}
	}
}

// runSummary is what must not depend on the number of workers.
func runSummary(r *Result) string {
	s := fmt.Sprintf("%s, states %d, refinements %+v, k %d, predicates %d, fences", r.Verdict, r.Stats.States, r.Stats.Refinements, r.Stats.K, r.Stats.Predicates)
	for _, f := range r.Fences {
		s += fmt.Sprintf(" %d", f.Site.ID)
	}
	if r.Trace != nil {
		s += fmt.Sprintf(", trace %v", r.Trace.Trace.Steps)
	}
	return s
}

// The provers an engine forks (its lia fallback's, its workers') are
// closed when the run ends, not when the solver is: a solver that serves
// many runs (the differential suite's, fencer check's) keeps no Z3
// context per run.
func TestForksReleased(t *testing.T) {
	defer lowParallelFrom()()
	sol := newSolver(t)
	sys := benchSystem(t, "ticket_lock.cs")
	for _, m := range []memmodel.Model{memmodel.SC, memmodel.TSO} {
		if _, _, err := Insert(context.Background(), sys, sol, Options{Model: m, Workers: 2}); err != nil {
			t.Fatal(err)
		}
		if _, err := Verify(context.Background(), sys, sol, Options{Model: m, Workers: 2}); err != nil {
			t.Fatal(err)
		}
		if n := len(sol.forks); n != 0 {
			t.Errorf("%s: %d forked provers left open after the runs", m, n)
		}
	}
}
