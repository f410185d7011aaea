package cegar

import (
	"context"
	"path/filepath"
	"testing"

	"fencer/cs"
	"fencer/kabs"
)

// issue11 is the 3-process program of issue 11: every variable is finite
// once the loop guard bounds T1's counter.
const issue11 = `
shared z, a;
process T0 {
  local r0, r2;
  r2 = z;
  if (r2 == 1) a = r2;
  while (true) { r0 = a; if (r0 == 1) goto g1; }
g1: skip;
}
process T1 {
  local r0, r2;
  while (r0 < 2) { z = r0 + 1; r0 = r0 + 1; }
  r0 = z;
  r2 = r0 + 1;
  assert(r2 > 2);
}
process T2 {
  local r2;
  assume(a == 1);
  atomic { r2 = a; z = r2 + 1; }
}
`

// A program with no unbounded variable is explored and classified without
// a single SMT query (and the Z3 context is never created).
func TestFiniteProgramsAskNoSolver(t *testing.T) {
	progs := map[string]*cs.System{}
	for _, name := range []string{"dijkstra", "peterson", "lamport_fast"} {
		sys, err := cs.ParseFile(filepath.Join("..", "benchmarks", name+".cs"))
		if err != nil {
			t.Fatal(err)
		}
		progs[name] = sys
	}
	sys, err := cs.Parse("issue11.cs", []byte(issue11))
	if err != nil {
		t.Fatal(err)
	}
	progs["issue11"] = sys
	for name, sys := range progs {
		for _, m := range []kabs.Model{kabs.TSO, kabs.PSO} {
			sol, _ := NewZ3Solver()
			r, _, err := Insert(context.Background(), sys, sol, Options{Model: m})
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
