package cegar

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"fencer/memmodel"
	"fencer/rmm"
)

// Memorax models whose variables start at "*" within a declared domain
// (cs.Init.Ranged) are explored with one explicit initial state per choice
// (domains/nondet.go): no predicate and no SMT query for them, the same
// verdicts and fence counts as their expectations, and an SC bug reached
// from one choice of the range only is found, with a trace that replays.
func TestRangedInitsAskNoSolver(t *testing.T) {
	cases := []struct {
		file   string
		model  memmodel.Model
		want   Verdict
		fences int
	}{
		{"constructs/nondet_pick.rmm", memmodel.TSO, SCBug, 0},
		{"constructs/nondet_range.rmm", memmodel.TSO, Correct, 0},
		{"constructs/nondet_range.rmm", memmodel.PSO, Correct, 0},
		{"dekker_nondet.rmm", memmodel.TSO, Correct, 1},
		{"dekker_nondet.rmm", memmodel.PSO, Correct, 1},
		{"peterson_nondet.rmm", memmodel.TSO, Correct, 1},
		{"peterson_nondet.rmm", memmodel.PSO, Correct, 2},
		{"dijkstra_nondet.rmm", memmodel.TSO, Correct, 1},
		{"dijkstra_nondet.rmm", memmodel.PSO, Correct, 1},
		{"lamport_fast_nondet.rmm", memmodel.TSO, Correct, 2},
		{"lamport_fast_nondet.rmm", memmodel.PSO, Correct, 3},
	}
	for _, c := range cases {
		path := filepath.Join("..", "benchmarks", "rmm", c.file)
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		sys, err := rmm.Reader{}.Parse(path, src)
		if err != nil {
			t.Fatal(err)
		}
		sol := newSolver(t)
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		r, _, err := Insert(ctx, sys, sol, Options{Model: c.model})
		cancel()
		if err != nil {
			t.Fatalf("%s %s: %v", c.file, c.model, err)
		}
		if r.Verdict != c.want || len(r.Fences) != c.fences || r.Stats.Queries != 0 {
			t.Errorf("%s %s: %s with %d fences and %d queries, want %s with %d fences and none", c.file, c.model, r.Verdict, len(r.Fences), r.Stats.Queries, c.want, c.fences)
		}
		if c.want == SCBug && (r.Trace == nil || len(r.Trace.Trace.Init) == 0) {
			t.Errorf("%s: no trace", c.file)
		}
	}
}
