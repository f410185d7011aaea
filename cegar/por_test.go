package cegar

import (
	"context"
	"fmt"
	"slices"
	"testing"

	"fencer/cs"
	"fencer/domains"
	"fencer/internal/progen"
	"fencer/kabs"
	"fencer/memmodel"
)

// The partial-order reduction against the unreduced exploration: on
// generated programs and on the finite benchmarks, verify and insert must
// give the same verdicts and the same numbers of fences with and without
// it; without it the trace of verify must still be a shortest one (the
// check the differential suite made before the reduction), with it a real
// execution to a bad state (realTrace).
func TestReductionTraces(t *testing.T) {
	sol := newSolver(t)
	n := 40
	if testing.Short() {
		n = 5
	}
	ctx := context.Background()
	for seed := int64(1); seed <= int64(n); seed++ {
		src := progen.Program(seed)
		sys, err := cs.Parse(fmt.Sprintf("gen%d.cs", seed), []byte(src))
		if err != nil {
			t.Fatal(err)
		}
		if !domains.Analyze(sys).AllFinite() {
			continue // the reduction is off: nothing to compare
		}
		if msg := compareReduction(ctx, sol, sys, true); msg != "" {
			t.Errorf("seed %d: %s\n%s", seed, msg, src)
		}
	}
}

func TestReductionBenchmarks(t *testing.T) {
	if testing.Short() {
		t.Skip("the Table-1 programs take seconds each under the race detector")
	}
	sol := newSolver(t)
	for _, name := range []string{"burns", "dekker_simple", "dekker_full", "dijkstra", "peterson", "sb", "mp", "lb", "sc_bug"} {
		sys := benchSystem(t, name+".cs")
		if msg := compareReduction(context.Background(), sol, sys, false); msg != "" {
			t.Errorf("%s: %s", name, msg)
		}
	}
}

// compareReduction runs verify and insert under every model with and
// without the reduction. With shortest (the generated programs, which the
// explicit checker explores exactly), the unreduced trace must be as short
// as the checker's.
func compareReduction(ctx context.Context, sol Solver, sys *cs.System, shortest bool) string {
	for _, m := range []memmodel.Model{memmodel.SC, memmodel.TSO, memmodel.PSO} {
		full, err := Verify(ctx, sys, sol, Options{Model: m, NoReduction: true})
		if err != nil {
			return err.Error()
		}
		red, err := Verify(ctx, sys, sol, Options{Model: m})
		if err != nil {
			return err.Error()
		}
		if full.Verdict != red.Verdict {
			return fmt.Sprintf("verify %s: %s without the reduction, %s with it", m, full.Verdict, red.Verdict)
		}
		if full.Trace != nil {
			r, err := memmodel.NewConcrete(sys, m).Explore(ctx, memmodel.Limits{MaxStates: oracleLimit})
			if err != nil {
				return err.Error()
			}
			if r.Verdict == memmodel.Unsafe && len(full.Trace.Trace.Steps) != len(r.Trace.Steps) && shortest {
				return fmt.Sprintf("verify %s without the reduction: trace of %d steps, the shortest has %d", m, len(full.Trace.Trace.Steps), len(r.Trace.Steps))
			}
			if msg := realTrace(sys, m, red.Trace, 0); msg != "" {
				return fmt.Sprintf("verify %s with the reduction: %s", m, msg)
			}
		}
		if m == memmodel.SC || full.Verdict == SCBug {
			continue
		}
		fi, _, err := Insert(ctx, sys, sol, Options{Model: m, NoReduction: true})
		if err != nil {
			return err.Error()
		}
		ri, _, err := Insert(ctx, sys, sol, Options{Model: m})
		if err != nil {
			return err.Error()
		}
		if fi.Verdict != ri.Verdict || len(fi.Fences) != len(ri.Fences) {
			return fmt.Sprintf("insert %s: %s with %d fences without the reduction, %s with %d with it", m, fi.Verdict, len(fi.Fences), ri.Verdict, len(ri.Fences))
		}
	}
	return ""
}

// The reduction must pay where it applies: on the 2-process Szymanski lock
// (all finite, many local steps) insert under TSO explores under 60% of the
// states it explores without it (measured: 30,562 against 113,753), with
// the same fences.
func TestReductionReduces(t *testing.T) {
	if testing.Short() {
		t.Skip("seconds under the race detector; make test runs it without")
	}
	sol := newSolver(t)
	sys := benchSystem(t, "scale", "szymanski.cs")
	ctx := context.Background()
	full, _, err := Insert(ctx, sys, sol, Options{Model: memmodel.TSO, NoReduction: true})
	if err != nil {
		t.Fatal(err)
	}
	red, _, err := Insert(ctx, sys, sol, Options{Model: memmodel.TSO})
	if err != nil {
		t.Fatal(err)
	}
	if full.Verdict != Correct || red.Verdict != Correct || len(full.Fences) != len(red.Fences) {
		t.Fatalf("without the reduction %s with %d fences, with it %s with %d", full.Verdict, len(full.Fences), red.Verdict, len(red.Fences))
	}
	if 10*red.Stats.States >= 6*full.Stats.States {
		t.Errorf("%d states with the reduction, %d without: not under 60%%", red.Stats.States, full.Stats.States)
	}
	t.Logf("%d states with the reduction, %d without", red.Stats.States, full.Stats.States)
}

// TestBackEdges: without its back edges, the subgraph of edges that may be
// local is acyclic (the static cycle proviso, doc.go), and a spin loop
// through a read has no back edge.
func TestBackEdges(t *testing.T) {
	for _, path := range [][]string{{"scale", "dijkstra.cs:N=3"}, {"scale", "szymanski.cs:N=3"}, {"scale", "filter.cs:N=3"}, {"dekker_full.cs"}, {"lamport_fast.cs"}} {
		sys := benchSystem(t, path...)
		abs, err := kabs.NewAbs(sys, memmodel.TSO, 1)
		if err != nil {
			t.Fatal(err)
		}
		for pi, p := range sys.Procs {
			mayBeLocal := func(op cs.Op) bool { return abs.MayBeLocal(pi, op) }
			back := backEdges(p, mayBeLocal)
			// Kahn's algorithm on the local edges that are not back edges.
			in := make([]int, p.NumLocs)
			for ei, e := range p.Edges {
				if mayBeLocal(e.Op) && !back[ei] {
					in[e.To]++
				}
			}
			var queue []int
			for l := range in {
				if in[l] == 0 {
					queue = append(queue, l)
				}
			}
			seen := 0
			for len(queue) > 0 {
				l := queue[0]
				queue = queue[1:]
				seen++
				for _, ei := range p.Out[l] {
					e := p.Edges[ei]
					if mayBeLocal(e.Op) && !back[ei] {
						if in[e.To]--; in[e.To] == 0 {
							queue = append(queue, int(e.To))
						}
					}
				}
			}
			if seen != p.NumLocs {
				t.Errorf("%v %s: a cycle of local edges without a back edge", path, p.Name)
			}
			for ei, e := range p.Edges {
				if back[ei] && !mayBeLocal(e.Op) {
					t.Errorf("%v %s: edge %d is a back edge but never local", path, p.Name, ei)
				}
			}
		}
	}
	// A spin loop `while (x == 0) {}` goes through its read of a variable
	// another process writes: no back edge. Through a read of a variable
	// only it writes (a local step, kabs.Abs.Owned), it has one.
	for _, c := range []struct {
		src  string
		back bool
	}{
		{"shared x; process P { local r; while (true) { r = x; if (r == 1) { x = 0; } } } process Q { x = 1; }", false},
		{"shared x; process P { local r; while (true) { r = x; if (r == 1) { x = 0; } } } process Q { local r; r = x; }", true},
	} {
		sys, err := cs.Parse("spin.cs", []byte(c.src))
		if err != nil {
			t.Fatal(err)
		}
		abs, err := kabs.NewAbs(sys, memmodel.TSO, 1)
		if err != nil {
			t.Fatal(err)
		}
		if got := slices.Contains(backEdges(sys.Procs[0], func(op cs.Op) bool { return abs.MayBeLocal(0, op) }), true); got != c.back {
			t.Errorf("%s: a back edge %v, want %v", c.src, got, c.back)
		}
	}
}

// TestValueProviso: the cycle proviso decided on the values of the
// process's static locals (por.go) gives the same verdicts and fences as
// no reduction, real traces, and fewer states than the static proviso on
// a lock whose loops restart through a flag (benchmarks/scale/forms:
// burns_loops, 70,906 states against 21,751 at N = 3 when it was made).
func TestValueProviso(t *testing.T) {
	sol := newSolver(t)
	ctx := context.Background()
	for _, path := range [][]string{{"scale", "forms", "burns_loops.cs"}, {"scale", "forms", "dijkstra_c.cs"}} {
		sys := benchSystem(t, path...)
		if msg := compareReduction(ctx, sol, sys, false); msg != "" {
			t.Errorf("%s: %s", path[len(path)-1], msg)
		}
	}
	sys := benchSystem(t, "scale", "forms", "burns_loops.cs:N=3")
	run := func(off bool) *Result {
		noValueProviso = off
		defer func() { noValueProviso = false }()
		r, _, err := Insert(ctx, sys, sol, Options{Model: memmodel.TSO})
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	static, vals := run(true), run(false)
	if static.Verdict != Correct || vals.Verdict != Correct || len(static.Fences) != len(vals.Fences) {
		t.Fatalf("static proviso: %s with %d fences; with values: %s with %d", static.Verdict, len(static.Fences), vals.Verdict, len(vals.Fences))
	}
	if vals.Stats.States >= static.Stats.States {
		t.Errorf("%d states with the proviso on values, %d with the static one", vals.Stats.States, static.Stats.States)
	}
	t.Logf("%d states with the proviso on values, %d with the static one", vals.Stats.States, static.Stats.States)
}
