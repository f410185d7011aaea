package cegar

import (
	"context"
	"testing"
	"time"

	"fencer/cs"
	"fencer/memmodel"
)

// A program with no unbounded variable is explored and classified without
// a single SMT query (and the Z3 context is never created).
func TestFiniteProgramsAskNoSolver(t *testing.T) {
	progs := map[string]*cs.System{}
	// regressions/three_procs_z_a.cs is the 3-process program of the speed
	// issue: every variable is finite once the loop guard bounds T1's counter.
	// In regressions/soak_5111_value_chain.cs value chains through shared
	// memory make the static analysis give up on most variables: they are
	// dynamic (domains/dynamic.go). Before, TSO and PSO took minutes of
	// predicate refinement: the deadline makes that a failure.
	for _, name := range []string{"dijkstra", "peterson", "lamport_fast", "regressions/three_procs_z_a", "regressions/soak_5111_value_chain"} {
		sys := benchSystem(t, name+".cs")
		progs[name] = sys
	}
	for name, sys := range progs {
		for _, m := range []memmodel.Model{memmodel.TSO, memmodel.PSO} {
			sol, _ := NewZ3Solver()
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			r, _, err := Insert(ctx, sys, sol, Options{Model: m})
			cancel()
			if err != nil {
				t.Fatalf("%s %s: %v", name, m, err)
			}
			if r.Verdict != Correct || r.Stats.Queries != 0 || sol.ctx != nil {
				t.Errorf("%s %s: %s (%s), %d queries, Z3 started %v", name, m, r.Verdict, r.Reason, r.Stats.Queries, sol.ctx != nil)
			}
			sol.Close()
		}
	}
}
