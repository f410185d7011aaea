package cegar

import (
	"context"
	"fmt"
	"maps"
	"testing"

	"fencer/cs"
	"fencer/memmodel"
)

// A staged exploration (stage.go) gives the answer the exact-only
// explorations give one after the other, its stage 1 is the exact-only
// exploration under the precision's k (the same states, the same writes
// held back as that one leaves out), and it stores fewer states in all.
func TestStagedExploration(t *testing.T) {
	sol := newSolver(t)
	type program struct {
		file  string
		model memmodel.Model
	}
	programs := []program{
		// The buffers settle at three writes: a climb from k=1 to 4.
		{"scale/dijkstra.cs:N=3", memmodel.TSO},
		// The skeletons bound the buffers: straight to that k.
		{"scale/bakery.cs:N=3", memmodel.TSO},
		{"scale/bakery.cs:N=3", memmodel.PSO},
		// The ring's counterexample is found in the exact-only part
		// with all processes: in stage 1.
		{"regressions/ring4_fetch_add.cs", memmodel.TSO},
	}
	if testing.Short() {
		// The same kinds, smaller (the race detector's run).
		programs = []program{{"scale/dijkstra.cs", memmodel.TSO}, {"scale/bakery.cs", memmodel.PSO}, {"regressions/ring4_fetch_add.cs", memmodel.TSO}}
	}
	for _, c := range programs {
		name := c.file + " " + c.model.String()
		runs := map[bool]stagedRun{}
		for _, staged := range []bool{false, true} {
			run := stagedRun{exact: map[string]int{}, stage1: map[string]int{}}
			log := func(format string, args ...any) {
				var k, left, states, held int
				line := fmt.Sprintf(format, args...)
				if n, _ := fmt.Sscanf(line, "exact-only exploration under k=%d: %d writes to a tail left out, %d states", &k, &left, &states); n == 3 && k == 1 {
					run.exact[fmt.Sprint(left, states)]++
				}
				if n, _ := fmt.Sscanf(line, "staged exploration under k=%d: no bad state with at most 1 exact writes per buffer (%d states; %d of them go on with %d writes held back)", &k, &states, &held, &left); n == 4 {
					run.stage1[fmt.Sprint(left, states)]++
				}
			}
			r, _, err := Insert(context.Background(), benchSystem(t, c.file), sol, Options{Model: c.model, Log: log, NoStaging: !staged})
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			run.verdict, run.fences, run.states = r.Verdict, fmt.Sprint(fenceLines(r)), r.Stats.States
			runs[staged] = run
		}
		plain, staged := runs[false], runs[true]
		if plain.verdict != staged.verdict || plain.fences != staged.fences {
			t.Errorf("%s: %s with fences %s staged, %s with %s not", name, staged.verdict, staged.fences, plain.verdict, plain.fences)
		}
		// Every exact-only exploration under k=1 that the plain run made
		// is made by the staged run, on its own or as a stage 1.
		both := maps.Clone(staged.exact)
		for k, n := range staged.stage1 {
			both[k] += n
		}
		if !maps.Equal(both, plain.exact) {
			t.Errorf("%s: exact-only explorations under k=1 (writes left out, states) %v plain, %v and stages 1 %v staged", name, plain.exact, staged.exact, staged.stage1)
		}
		if len(staged.stage1) > 0 && staged.states >= plain.states {
			t.Errorf("%s: %d states staged, %d plain; want fewer", name, staged.states, plain.states)
		}
	}
}

type stagedRun struct {
	exact, stage1 map[string]int
	verdict       Verdict
	fences        string
	states        int
}

func fenceLines(r *Result) []cs.Pos {
	var out []cs.Pos
	for _, f := range r.Fences {
		out = append(out, f.Site.Pos())
	}
	return out
}
