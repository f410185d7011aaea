package ordview_test

import (
	"context"
	"math/rand"
	"testing"
	"time"

	"fencer/cegar"
	"fencer/cs"
	"fencer/domains"
	"fencer/internal/refsem"
	"fencer/memmodel"
	"fencer/ordview"
)

// TestEngineViewAgainstRefsem runs the engine under SC with the order view
// forced on (domains.OrderViewAlways: the class variables of these finite
// programs are canonicalised although they are finite without it) on the
// generated programs of TestViewAgainstConcrete, and compares its verdict
// with the reference semantics: the view wired into the explorer
// (domains/order.go, cegar/ordview.go) must neither miss a bad state nor
// report one that refsem does not reach, and an SC bug's trace is a
// concrete run (the engine replays it before reporting it).
func TestEngineViewAgainstRefsem(t *testing.T) {
	domains.OrderViewAlways = true
	defer func() { domains.OrderViewAlways = false }()
	n := 60
	if testing.Short() {
		n = 25
	}
	sol, err := cegar.NewZ3Solver()
	if err != nil {
		t.Fatal(err)
	}
	defer sol.Close()
	var compared, viewed, bugs int
	for seed := 0; seed < n; seed++ {
		rnd := rand.New(rand.NewSource(int64(seed)))
		src := ordview.GenProgram(rnd)
		sys, err := cs.Parse("gen.cs", []byte(src))
		if err != nil {
			t.Fatalf("seed %d: %v\n%s", seed, err, src)
		}
		ref, err := refsem.Check([]byte(src), "sc")
		if err != nil || !ref.Complete {
			continue
		}
		if domains.Analyze(sys).UseOrderView() {
			viewed++
		}
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		r, err := cegar.Verify(ctx, sys, sol, cegar.Options{Model: memmodel.SC})
		cancel()
		if err != nil {
			t.Fatalf("seed %d: %v\n%s", seed, err, src)
		}
		var got bool
		switch r.Verdict {
		case cegar.Correct:
		case cegar.SCBug:
			got = true
			bugs++
		default:
			t.Fatalf("seed %d: verdict %s (%s)\n%s", seed, r.Verdict, r.Reason, src)
		}
		if got != ref.Bad {
			t.Fatalf("seed %d: engine through the view: bad=%v, refsem: bad=%v\n%s", seed, got, ref.Bad, src)
		}
		compared++
	}
	t.Logf("%d programs compared with refsem (%d with the view in use, %d with an SC bug)", compared, viewed, bugs)
	if viewed < compared/2 || bugs == 0 || compared == bugs {
		t.Errorf("too few programs exercise the view: %d compared, %d viewed, %d bugs", compared, viewed, bugs)
	}
}
