package cegar

import (
	"context"
	"fmt"
	"regexp"
	"strconv"
	"testing"

	"fencer/memmodel"
)

// Sleep sets (sleep.go) change no answer, cut the successors computed,
// and store the same states whatever the number of workers.
func TestSleepSets(t *testing.T) {
	sol := newSolver(t)
	type program struct {
		file  string
		model memmodel.Model
		same  bool // the symmetry reduction is on: no sleep sets
	}
	programs := []program{
		{"scale/bakery.cs:N=3", memmodel.TSO, false},
		{"scale/bakery.cs:N=3", memmodel.PSO, false},
		{"scale/dijkstra.cs:N=3", memmodel.TSO, false},
		{"scale/burns.cs:N=3", memmodel.PSO, false},
		{"scale/filter.cs:N=3", memmodel.TSO, false},
		{"regressions/ring4_fetch_add.cs", memmodel.TSO, true},
	}
	if testing.Short() {
		programs = []program{{"scale/bakery.cs", memmodel.TSO, false}, {"regressions/ring4_fetch_add.cs", memmodel.TSO, true}}
	}
	succs := regexp.MustCompile(`(\d+) successors`)
	defer lowParallelFrom()()
	for _, c := range programs {
		name := c.file + " " + c.model.String()
		type run struct {
			verdict      Verdict
			fences       string
			states, succ int
		}
		var runs [3]run // no sleep sets; sleep sets; sleep sets on two workers
		for i := range runs {
			succ := 0
			log := func(format string, args ...any) {
				if m := succs.FindStringSubmatch(fmt.Sprintf(format, args...)); m != nil {
					n, _ := strconv.Atoi(m[1])
					succ += n
				}
			}
			r, _, err := Insert(context.Background(), benchSystem(t, c.file), sol, Options{Model: c.model, Log: log, NoSleep: i == 0, Workers: 1 + i/2})
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			runs[i] = run{r.Verdict, fmt.Sprint(fenceLines(r)), r.Stats.States, succ}
		}
		plain, sleep, two := runs[0], runs[1], runs[2]
		if plain.verdict != sleep.verdict || plain.fences != sleep.fences {
			t.Errorf("%s: %s with fences %s with sleep sets, %s with %s without", name, sleep.verdict, sleep.fences, plain.verdict, plain.fences)
		}
		if two != sleep {
			t.Errorf("%s: with sleep sets, on two workers %+v, on one %+v", name, two, sleep)
		}
		if c.same && sleep != plain || !c.same && sleep.succ >= plain.succ {
			t.Errorf("%s: %d successors computed with sleep sets, %d without; want %s", name, sleep.succ, plain.succ, map[bool]string{true: "the same", false: "fewer"}[c.same])
		}
	}
}
