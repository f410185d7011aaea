package cegar

import (
	"context"
	"testing"

	"fencer/memmodel"
)

// BenchmarkInsert runs insert under TSO on the Table 1 programs; the time
// per op is the time of one whole run (SC check, CEGAR loop, final check).
func BenchmarkInsert(b *testing.B) {
	for _, name := range []string{"dekker_simple", "peterson", "dijkstra", "burns", "dekker_full", "lamport_fast", "bakery", "ticket_lock"} {
		b.Run(name, func(b *testing.B) {
			sys := benchSystem(b, name+".cs")
			sol := newSolver(b)
			for i := 0; i < b.N; i++ {
				r, _, err := Insert(context.Background(), sys, sol, Options{Model: memmodel.TSO})
				if err != nil {
					b.Fatal(err)
				}
				if r.Verdict != Correct {
					b.Fatalf("%s: %s %s", name, r.Verdict, r.Reason)
				}
				b.ReportMetric(float64(len(r.Fences)), "fences")
				b.ReportMetric(float64(r.Stats.States), "states")
			}
		})
	}
}
