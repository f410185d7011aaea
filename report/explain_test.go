package report

import (
	"context"
	"path/filepath"
	"testing"

	"fencer/cegar"
	"fencer/memmodel"
)

// Every fence that insert finds on the benchmarks, under TSO and PSO, is
// explained by a reordering that its own witness trace contains
// (checkReordering), at the fence's site: for a fence after a statement,
// the write it names is that statement or inside it (an if/else, a
// loop).
func TestFenceExplanationsOnBenchmarks(t *testing.T) {
	if testing.Short() {
		t.Skip("runs insert on every benchmark")
	}
	var files []string
	for _, g := range []string{"*.cs", "litmus/*.cs", "litmus/x86/*.litmus", "rmm/*.rmm", "regressions/*.cs"} {
		more, _ := filepath.Glob(filepath.Join("..", "benchmarks", g))
		files = append(files, more...)
	}
	if len(files) < 60 {
		t.Fatalf("only %d benchmark files", len(files))
	}
	sol, err := cegar.NewZ3Solver()
	if err != nil {
		t.Fatal(err)
	}
	defer sol.Close()
	explained, fences := 0, 0
	for _, f := range files {
		sys, err := parseFile(f)
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		for _, m := range []memmodel.Model{memmodel.TSO, memmodel.PSO} {
			r, _, err := cegar.Insert(context.Background(), sys, sol, cegar.Options{Model: m, MaxK: 10, MaxPredicates: 400, MaxStates: 1_000_000, Workers: 1})
			if err != nil || r.Verdict != cegar.Correct {
				continue
			}
			rep := New("insert", sys, r)
			for _, fr := range rep.Fences {
				fences++
				if fr.Witness == nil {
					continue
				}
				name := filepath.Base(f) + " " + m.String()
				if fr.Reordering == nil {
					t.Errorf("%s: fence at line %d has a witness and no reordering", name, fr.Line)
					continue
				}
				explained++
				checkReordering(t, name, m, fr.Witness, *fr.Reordering)
				if fr.Place == "after" && fr.Reordering.Write.Line < fr.Line {
					t.Errorf("%s: fence after line %d explained by the write of line %d: %s", name, fr.Line, fr.Reordering.Write.Line, fr.Reordering.Description)
				}
			}
		}
	}
	if explained < 50 {
		t.Errorf("only %d of %d fences explained", explained, fences)
	}
	t.Logf("%d of %d fences explained and checked", explained, fences)
}
