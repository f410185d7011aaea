package cegar

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"
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
	defer lowParallelFrom()()
	for _, c := range programs {
		name := c.file + " " + c.model.String()
		runs := map[int]stagedRun{} // plain, staged, staged on two workers
		for i, staged := range []bool{false, true, true} {
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
			// The last run on two workers, every level expanded by them
			// (lowParallelFrom): the states do not depend on it.
			workers := 1 + i/2
			r, _, err := Insert(context.Background(), benchSystem(t, c.file), sol, Options{Model: c.model, Log: log, NoStaging: !staged, Workers: workers})
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			run.verdict, run.fences, run.states = r.Verdict, fmt.Sprint(fenceLines(r)), r.Stats.States
			runs[i] = run
		}
		plain, staged, two := runs[0], runs[1], runs[2]
		// With two workers, states expanded ahead of a counterexample
		// count their writes left out too: only the states compare.
		if two.verdict != staged.verdict || two.fences != staged.fences || two.states != staged.states || fmt.Sprint(stageStates(two.stage1)) != fmt.Sprint(stageStates(staged.stage1)) {
			t.Errorf("%s: staged on two workers %s, %s, %d states, stages 1 %v; on one %s, %s, %d states, stages 1 %v", name,
				two.verdict, two.fences, two.states, two.stage1, staged.verdict, staged.fences, staged.states, staged.stage1)
		}
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

// stageStates returns the states of the stages 1 of m (keyed "left
// states"), sorted.
func stageStates(m map[string]int) []string {
	var out []string
	for k, n := range m {
		_, states, _ := strings.Cut(k, " ")
		for range n {
			out = append(out, states)
		}
	}
	slices.Sort(out)
	return out
}
