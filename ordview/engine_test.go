package ordview_test

import (
	"context"
	"fmt"
	"math/rand"
	"strings"
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

// TestEngineWidenedSpurious: a program whose only bad state the widened
// view reaches and the concrete system does not. y is x + 3 exactly; the
// view cuts the gap between x and y (cap 2), and the move t = x + 1 towards
// y is widened into a version with the gap exactly 2, from which t reaches
// y's value after two more moves: a counterexample through a widened step.
// The engine replays it, finds it is not a run, drops the view and
// explores again: correct, and the log says why.
func TestEngineWidenedSpurious(t *testing.T) {
	src := `
shared x, y;
process P {
  local r, t, u;
  for (j in 0..4) { r = x; x = r + 1; }
  r = x; r = r + 1; r = r + 1; r = r + 1; y = r;
  t = x; t = t + 1; t = t + 1; t = t + 1;
  u = y;
  assert(t == u);
}
`
	domains.OrderViewAlways = true
	defer func() { domains.OrderViewAlways = false }()
	sys, err := cs.Parse("w.cs", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	ref, err := refsem.Check([]byte(src), "sc")
	if err != nil || !ref.Complete || ref.Bad {
		t.Fatalf("refsem: %+v, %v; want complete and safe", ref, err)
	}
	sol, err := cegar.NewZ3Solver()
	if err != nil {
		t.Fatal(err)
	}
	defer sol.Close()
	var log []string
	r, err := cegar.Verify(context.Background(), sys, sol, cegar.Options{Model: memmodel.SC,
		Log: func(f string, args ...any) { log = append(log, fmt.Sprintf(f, args...)) }})
	if err != nil || r.Verdict != cegar.Correct {
		t.Fatalf("verdict %v (%s), %v", r.Verdict, r.Reason, err)
	}
	dropped := false
	for _, l := range log {
		dropped = dropped || strings.Contains(l, "went through a widened step")
	}
	if !dropped {
		t.Errorf("no spurious counterexample through a widened step was met; log:\n%s", strings.Join(log, "\n"))
	}
}

// TestEngineViewBufferedAgainstRefsem is TestEngineViewAgainstRefsem under
// TSO and PSO: the order view in the k-abstraction (buffer slots,
// last-write values and tail value sets of class variables as class
// positions, domains/orderbuf.go "Buffers") must neither miss a bad state
// nor report one that refsem does not reach. The engine may answer
// unknown (a k-abstraction that does not converge); those are counted,
// not compared.
func TestEngineViewBufferedAgainstRefsem(t *testing.T) {
	domains.OrderViewAlways = true
	defer func() { domains.OrderViewAlways = false }()
	n := 25 // refsem under TSO and PSO takes seconds on some of them
	if testing.Short() {
		n = 10
	}
	sol, err := cegar.NewZ3Solver()
	if err != nil {
		t.Fatal(err)
	}
	defer sol.Close()
	for _, model := range []memmodel.Model{memmodel.TSO, memmodel.PSO} {
		var compared, viewed, bugs, unknowns int
		for seed := 0; seed < n; seed++ {
			rnd := rand.New(rand.NewSource(int64(seed)))
			src := ordview.GenProgram(rnd)
			sys, err := cs.Parse("gen.cs", []byte(src))
			if err != nil {
				t.Fatalf("seed %d: %v\n%s", seed, err, src)
			}
			ref, err := refsem.Check([]byte(src), model.String())
			if err != nil || !ref.Complete {
				continue
			}
			if domains.Analyze(sys).UseOrderViewWith(model.Layout()) {
				viewed++
			}
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			var log []string
			r, err := cegar.Verify(ctx, sys, sol, cegar.Options{Model: model,
				Log: func(f string, args ...any) { log = append(log, fmt.Sprintf(f, args...)) }})
			for _, l := range log {
				if strings.Contains(l, "order view") && !strings.Contains(l, "explicit in the order view") {
					t.Logf("%s seed %d: %s", model, seed, l)
				}
			}
			cancel()
			if err != nil {
				t.Fatalf("%s seed %d: %v\n%s", model, seed, err, src)
			}
			var got bool
			switch r.Verdict {
			case cegar.Correct:
			case cegar.SCBug, cegar.Unsafe:
				got = true
				bugs++
			default:
				unknowns++
				continue
			}
			if got != ref.Bad {
				t.Fatalf("%s seed %d: engine through the view: bad=%v, refsem: bad=%v\n%s", model, seed, got, ref.Bad, src)
			}
			compared++
		}
		t.Logf("%s: %d programs compared with refsem (%d with the view in use, %d bad, %d unknown)", model, compared, viewed, bugs, unknowns)
		if viewed < compared/2 || bugs == 0 || compared == bugs {
			t.Errorf("%s: too few programs exercise the view: %d compared, %d viewed, %d bad", model, compared, viewed, bugs)
		}
	}
}
