package cegar

import (
	"context"
	"testing"

	"fencer/cs"
	"fencer/kabs"
	"fencer/memmodel"
)

// TestQuotient: a lock whose waits go through local copies (two locations
// with one future each) is explored as its quotient (quotient.go); its
// TSO counterexamples, found in the quotient and lifted, are real runs of
// the program (compareReduction replays them), and verify and insert give
// the same verdicts and fences with and without the reduction.
func TestQuotient(t *testing.T) {
	src := `shared flag[2];
process P[i in 0..1] {
  local c;
  while (true) {
    flag[i] = 1;
    c = flag[1 - i];
    while (c != 0) {
      flag[i] = 0;
      flag[i] = 1;
      c = flag[1 - i];
    }
cs: skip;
    flag[i] = 0;
  }
}
mutex cs;
`
	sys, err := cs.Parse("q.cs", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	abs, err := kabs.NewAbs(sys, memmodel.TSO, 1)
	if err != nil {
		t.Fatal(err)
	}
	if _, merged, err := quotientOf(abs); err != nil || merged == 0 {
		t.Fatalf("quotient: %d locations merged, %v", merged, err)
	}
	sol := newSolver(t)
	if msg := compareReduction(context.Background(), sol, sys, false); msg != "" {
		t.Error(msg)
	}
	r, err := Verify(context.Background(), sys, sol, Options{Model: memmodel.TSO})
	if err != nil {
		t.Fatal(err)
	}
	if r.Trace == nil {
		t.Fatalf("verify tso: %s, want a counterexample", r.Verdict)
	}
	if msg := realTrace(sys, memmodel.TSO, r.Trace, 0); msg != "" {
		t.Error(msg)
	}

	// A bad state reached only through the body of the loop: the lifted
	// trace takes the read in the body, which the quotient merged into
	// the read before the loop.
	src = `shared x, y;
process P {
  local c, d;
  c = x;
  while (c != 0) {
    y = 1;
    c = x;
  }
  d = y;
  assert(d == 0);
}
process Q {
  x = 1;
  x = 0;
}
`
	if sys, err = cs.Parse("q2.cs", []byte(src)); err != nil {
		t.Fatal(err)
	}
	if abs, err = kabs.NewAbs(sys, memmodel.SC, 0); err != nil {
		t.Fatal(err)
	}
	if _, merged, err := quotientOf(abs); err != nil || merged == 0 {
		t.Fatalf("quotient: %d locations merged, %v", merged, err)
	}
	r, err = Verify(context.Background(), sys, sol, Options{Model: memmodel.SC})
	if err != nil {
		t.Fatal(err)
	}
	if r.Trace == nil {
		t.Fatalf("verify sc: %s, want a counterexample", r.Verdict)
	}
	if msg := realTrace(sys, memmodel.SC, r.Trace, 0); msg != "" {
		t.Error(msg)
	}
	reads := 0
	for _, s := range r.Trace.Trace.Steps {
		if s.Proc == 0 && s.Edge >= 0 && sys.Procs[0].Edges[s.Edge].Op.Kind == cs.OpRead && sys.Procs[0].Edges[s.Edge].Op.Shared == "x" {
			reads++
		}
	}
	if reads < 2 {
		t.Errorf("the trace reads x %d times in P, want 2 or more", reads)
	}
}
