package cegar

import (
	"context"
	"testing"
	"time"

	"fencer/cs"
	"fencer/memmodel"
)

// Issue 26, item 7: --kinds full,store on the seqlock under PSO ends (the
// robustness check counts the store fences the loop installs) with two
// store fences, and the patched program is verified again here.
func TestSeqlockStoreFences(t *testing.T) {
	sol := newSolver(t)
	sys := benchSystem(t, "seqlock.cs")
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	r, patched, err := Insert(ctx, sys, sol, Options{Model: memmodel.PSO, StoreFences: true})
	if err != nil {
		t.Fatal(err)
	}
	if r.Verdict != Correct || len(r.Fences) != 2 {
		t.Fatalf("%s with %d fences, want correct with 2", r.Verdict, len(r.Fences))
	}
	for _, f := range r.Fences {
		if f.Kind != cs.StoreFence {
			t.Errorf("fence %+v is full; store fences suffice", f)
		}
	}
	psys, err := cs.Parse("patched.cs", patched)
	if err != nil {
		t.Fatal(err)
	}
	v, err := Verify(ctx, psys, sol, Options{Model: memmodel.PSO})
	if err != nil {
		t.Fatal(err)
	}
	if v.Verdict != Correct {
		t.Fatalf("the patched program is %s under PSO:\n%s", v.Verdict, patched)
	}
}
