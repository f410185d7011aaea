package cegar

import (
	"context"
	"testing"

	"fencer/memmodel"
)

// The robustness shortcut: the producer loop of issue 13, which the
// k-abstraction cannot decide under TSO, is correct with no fence, proved by
// robustness with no buffer abstraction (k 0); under PSO its one fence
// makes it robust, which ends the loop and the final check.
func TestRobustShortcut(t *testing.T) {
	sys := benchSystem(t, "producer_loop.cs")
	sol := newSolver(t)
	ctx := context.Background()
	r, _, err := Insert(ctx, sys, sol, Options{Model: memmodel.TSO})
	if err != nil {
		t.Fatal(err)
	}
	if r.Verdict != Correct || len(r.Fences) != 0 || r.Stats.K != 0 || r.Stats.Robust != RobustProof(memmodel.TSO) {
		t.Errorf("tso insert: %v, %d fences, k %d, robust %q", r.Verdict, len(r.Fences), r.Stats.K, r.Stats.Robust)
	}
	r, err = Verify(ctx, sys, sol, Options{Model: memmodel.TSO})
	if err != nil {
		t.Fatal(err)
	}
	if r.Verdict != Correct || r.Model != memmodel.TSO || r.Stats.Robust == "" {
		t.Errorf("tso verify: %v under %v, robust %q", r.Verdict, r.Model, r.Stats.Robust)
	}
	r, _, err = Insert(ctx, sys, sol, Options{Model: memmodel.PSO})
	if err != nil {
		t.Fatal(err)
	}
	if r.Verdict != Correct || len(r.Fences) != 1 || r.Fences[0].Site.Text != "d = n;" || r.Fences[0].Witness == nil || r.Stats.Robust != RobustProof(memmodel.PSO) {
		t.Errorf("pso insert: %v, fences %v, robust %q", r.Verdict, r.Fences, r.Stats.Robust)
	}
}

// A robust program with an SC bug: the shortcut does not apply (it only
// proves correctness), and verify finds a trace under the model.
func TestRobustShortcutSCBug(t *testing.T) {
	sys := benchSystem(t, "sc_bug.cs")
	sol := newSolver(t)
	r, err := Verify(context.Background(), sys, sol, Options{Model: memmodel.TSO})
	if err != nil {
		t.Fatal(err)
	}
	if r.Verdict != Unsafe || r.Stats.Robust != "" || r.Trace == nil || r.Trace.Model != memmodel.TSO {
		t.Errorf("verify sc_bug under tso: %v, robust %q", r.Verdict, r.Stats.Robust)
	}
}

// BenchmarkInsertRobust runs insert on the programs that robustness decides
// (TSO) or ends (PSO): one op is one whole run.
func BenchmarkInsertRobust(b *testing.B) {
	for _, tc := range []struct {
		name  string
		model memmodel.Model
	}{{"producer_loop", memmodel.TSO}, {"producer_loop", memmodel.PSO}, {"seqlock", memmodel.TSO}, {"ticket_lock", memmodel.TSO}} {
		b.Run(tc.name+"/"+tc.model.String(), func(b *testing.B) {
			sys := benchSystem(b, tc.name+".cs")
			sol := newSolver(b)
			for i := 0; i < b.N; i++ {
				r, _, err := Insert(context.Background(), sys, sol, Options{Model: tc.model})
				if err != nil {
					b.Fatal(err)
				}
				if r.Verdict != Correct || r.Stats.Robust == "" {
					b.Fatalf("%s: %s %s (robust %q)", tc.name, r.Verdict, r.Reason, r.Stats.Robust)
				}
				b.ReportMetric(float64(len(r.Fences)), "fences")
			}
		})
	}
}
