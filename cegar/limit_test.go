package cegar

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"fencer/cs"
	"fencer/memmodel"
)

// A run that hits a limit is Unknown with Result.Limit saying which, and a
// reason that names no command-line flag (cmd/fencer adds it).
func TestLimits(t *testing.T) {
	sol := newSolver(t)
	klimit, err := cs.ParseFile(filepath.Join("..", "cmd", "fencer", "testdata", "klimit.cs"))
	if err != nil {
		t.Fatal(err)
	}
	timeout, cancel := context.WithTimeout(context.Background(), time.Nanosecond)
	defer cancel()
	<-timeout.Done()
	tests := []struct {
		name string
		ctx  context.Context
		sys  *cs.System
		opt  Options
		want Limit
	}{
		{"states", context.Background(), benchSystem(t, "peterson.cs"), Options{Model: memmodel.TSO, MaxStates: 20}, StateLimit},
		{"predicates", context.Background(), benchSystem(t, "seqlock.cs"), Options{Model: memmodel.TSO, MaxPredicates: 5}, PredicateLimit},
		{"k", context.Background(), klimit, Options{Model: memmodel.TSO, MaxK: 1}, KLimit},
		{"time", timeout, benchSystem(t, "peterson.cs"), Options{Model: memmodel.TSO}, TimeLimit},
		{"memory", context.Background(), benchSystem(t, "peterson.cs"), Options{Model: memmodel.TSO, MaxMemory: 1}, MemoryLimit},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, err := Verify(tt.ctx, tt.sys, sol, tt.opt)
			if err != nil {
				t.Fatal(err)
			}
			if r.Verdict != Unknown || r.Limit != tt.want {
				t.Fatalf("verdict %s, limit %s (%q); want unknown, %s", r.Verdict, r.Limit, r.Reason, tt.want)
			}
			if strings.Contains(r.Reason, "--") {
				t.Errorf("reason %q names a flag", r.Reason)
			}
		})
	}
}
