package cegar

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"fencer/cs"
	"fencer/internal/progen"
	"fencer/memmodel"
)

// Lean passes (lean.go) take the steps forward would take and count what
// it would count: with and without them every exploration stores the same
// states, computes the same successors, passes through the same states
// and re-expands the same ones, and the answer is the same.
func TestLeanPasses(t *testing.T) {
	sol := newSolver(t)
	type program struct {
		name  string
		sys   func() *cs.System
		model memmodel.Model
	}
	var programs []program
	for _, c := range []struct {
		file  string
		model memmodel.Model
	}{
		{"scale/bakery.cs:N=3", memmodel.TSO},
		{"scale/dijkstra.cs:N=3", memmodel.PSO},
		{"scale/filter.cs:N=3", memmodel.TSO},
		{"scale/burns.cs:N=3", memmodel.TSO},
		{"scale/szymanski.cs:N=3", memmodel.PSO},
		{"scale/forms/burns_loops.cs:N=3", memmodel.TSO}, // conditional candidates
		{"peterson.cs", memmodel.TSO},
		{"regressions/ring4_fetch_add.cs", memmodel.TSO},
	} {
		programs = append(programs, program{c.file, func() *cs.System { return benchSystem(t, c.file) }, c.model})
	}
	n := 40
	if testing.Short() {
		programs, n = programs[:1], 10
	}
	for seed := int64(1); seed <= int64(n); seed++ {
		name := fmt.Sprintf("gen%d.cs", seed)
		src := progen.Program(seed)
		programs = append(programs, program{name, func() *cs.System { return parseCS(t, src) }, memmodel.TSO})
	}
	defer func(old bool) { noLean = old }(noLean)
	for _, c := range programs {
		name := c.name + " " + c.model.String()
		var logs [2]string
		var answers [2]string
		for i, off := range []bool{true, false} {
			noLean = off
			var log strings.Builder
			logf := func(format string, args ...any) {
				if line := fmt.Sprintf(format, args...); strings.Contains(line, "exploration") && !strings.Contains(line, "memory") {
					fmt.Fprintln(&log, line)
				}
			}
			r, _, err := Insert(context.Background(), c.sys(), sol, Options{Model: c.model, Log: logf, Workers: 1})
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			logs[i], answers[i] = log.String(), fmt.Sprint(r.Verdict, fenceLines(r), r.Stats.States)
		}
		if answers[0] != answers[1] {
			t.Errorf("%s: %s with lean passes, %s without", name, answers[1], answers[0])
		}
		if logs[0] != logs[1] {
			t.Errorf("%s: with lean passes the explorations are\n%s\nwithout\n%s", name, logs[1], logs[0])
		}
		if !strings.Contains(logs[0], "passed through") {
			t.Logf("%s: no exploration with the partial-order reduction", name)
		}
	}
}
