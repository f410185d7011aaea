package cegar

import (
	"context"
	"testing"

	"fencer/memmodel"
)

// A control state's profile found by its components' parts is the one its
// draft gives: with checkProfiles every new control state is also
// drafted, and a difference (or a badness that differs) fails the run.
// Over locks with locals, buffers, tails and predicates, the order view
// (Bakery, the ticket lock), nondeterministic values and a
// symmetric ring, under SC, TSO and PSO, with two workers.
func TestProfileByParts(t *testing.T) {
	checkProfiles = true
	defer func() { checkProfiles = false }()
	sol := newSolver(t)
	for _, file := range []string{"peterson.cs", "dijkstra.cs", "lamport_fast.cs", "bakery.cs", "ticket_lock.cs",
		"dekker_full.cs", "scale/burns.cs:N=3", "scale/szymanski.cs:N=3",
		"regressions/ring4_fetch_add.cs", "nondet.cs", "mp_array.cs"} {
		for _, m := range []memmodel.Model{memmodel.SC, memmodel.TSO, memmodel.PSO} {
			r, _, err := Insert(context.Background(), benchSystem(t, file), sol, Options{Model: m, Workers: 2})
			if err != nil {
				t.Fatalf("%s %s: %v", file, m, err)
			}
			if r.Verdict == Unknown {
				t.Errorf("%s %s: unknown (%s)", file, m, r.Reason)
			}
		}
	}
}
