package cegar

import (
	"context"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"fencer/cs"
	"fencer/internal/progen"
	"fencer/memmodel"
)

// The symmetry reduction (states and candidate sets) against the runs
// without it (Options.NoSymmetry): on the ring programs of internal/progen
// (templates of 3 processes, and of 4 with FENCER_SOAK=1: the programs of
// issue 25), on
// store-buffering rings written out process by process and on the finite
// benchmarks, verify must give the same verdict and its trace must be a
// real execution to a bad state, and insert the same verdict and number of
// fences, under TSO and PSO.
func TestSymmetryDifferential(t *testing.T) {
	n, four := 8, false
	if testing.Short() {
		n = 3
	}
	if os.Getenv("FENCER_SOAK") != "" {
		n, four = 40, true
	}
	sol := newSolver(t)
	type prog struct {
		name string
		sys  *cs.System
	}
	var progs []prog
	for seed := int64(1); len(progs) < n; seed++ {
		src := progen.Ring(seed)
		if strings.Contains(src, "const N = 4") && !four {
			continue // seconds to a minute each: make soak takes them
		}
		sys, err := cs.Parse(fmt.Sprintf("ring%d.cs", seed), []byte(src))
		if err != nil {
			t.Fatal(err)
		}
		progs = append(progs, prog{fmt.Sprintf("progen.Ring(%d)", seed), sys})
	}
	for _, k := range []int{3, 4} {
		progs = append(progs, prog{fmt.Sprintf("sbRing(%d)", k), parseCS(t, progen.SBRing(k, nil))})
	}
	if !testing.Short() {
		for _, name := range []string{"sb.cs", "sb_procs.cs", "burns.cs", "dekker_simple.cs", "peterson.cs", "mp.cs"} {
			progs = append(progs, prog{name, benchSystem(t, name)})
		}
	}
	for _, p := range progs {
		if msg := compareSymmetry(t, sol, p.sys); msg != "" {
			t.Errorf("%s: %s", p.name, msg)
		}
	}
}

// compareSymmetry runs verify and insert with and without the symmetry
// reduction under TSO and PSO; a run that hits its time limit either way
// is not compared.
func compareSymmetry(t *testing.T, sol Solver, sys *cs.System) string {
	t.Helper()
	run := func(m memmodel.Model, insert, noSym bool) (*Result, error) {
		ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
		defer cancel()
		opt := Options{Model: m, NoSymmetry: noSym}
		if insert {
			r, _, err := Insert(ctx, sys, sol, opt)
			return r, err
		}
		return Verify(ctx, sys, sol, opt)
	}
	for _, m := range []memmodel.Model{memmodel.TSO, memmodel.PSO} {
		for _, insert := range []bool{false, true} {
			off, err := run(m, insert, true)
			if err != nil {
				return err.Error()
			}
			on, err := run(m, insert, false)
			if err != nil {
				return err.Error()
			}
			what := map[bool]string{false: "verify", true: "insert"}[insert]
			if off.Verdict == Unknown || on.Verdict == Unknown {
				t.Logf("%s %s: %s without the symmetry, %s with it: not compared", what, m, off.Verdict, on.Verdict)
				continue
			}
			if off.Verdict != on.Verdict || len(off.Fences) != len(on.Fences) {
				return fmt.Sprintf("%s %s: %s with %d fences without the symmetry, %s with %d with it", what, m, off.Verdict, len(off.Fences), on.Verdict, len(on.Fences))
			}
			if on.Trace != nil {
				if msg := realTrace(sys, m, on.Trace, 0); msg != "" {
					return fmt.Sprintf("%s %s with the symmetry: %s", what, m, msg)
				}
			}
		}
	}
	return ""
}

// A counterexample found under the symmetry reduction is rebuilt through
// the permutations into a real run: verify on store-buffering rings
// written out (TSO: unsafe) and on a symmetric template whose bad state
// needs every process (SC: a bug), where the stored states are
// representatives and the path through them is not a path of the system
// until it is mapped back.
func TestSymmetryTraceReplays(t *testing.T) {
	sol := newSolver(t)
	lock := `const N = 3;
shared flag[N], c;
process P[i in 0..N-1] {
  local r;
  flag[i] = 1;
  r = c;
  c = r + 1;
  r = flag[(i+1)%N];
  if (r == 1) {
cs: skip;
  }
}
forbidden P[0]@cs, P[1]@cs, P[2]@cs;
`
	cases := []struct {
		name  string
		sys   *cs.System
		model memmodel.Model
		want  Verdict
	}{
		{"sbRing(4)", parseCS(t, progen.SBRing(4, nil)), memmodel.TSO, Unsafe},
		{"sbRing(5)", parseCS(t, progen.SBRing(5, nil)), memmodel.TSO, Unsafe},
		{"sbRing(4) PSO", parseCS(t, progen.SBRing(4, nil)), memmodel.PSO, Unsafe},
		{"template", parseCS(t, lock), memmodel.SC, SCBug},
	}
	for _, c := range cases {
		res, err := Verify(context.Background(), c.sys, sol, Options{Model: c.model})
		if err != nil {
			t.Fatal(err)
		}
		off, err := Verify(context.Background(), c.sys, sol, Options{Model: c.model, NoSymmetry: true})
		if err != nil {
			t.Fatal(err)
		}
		if res.Verdict != c.want || off.Verdict != c.want {
			t.Errorf("%s: %s with the symmetry, %s without, want %s", c.name, res.Verdict, off.Verdict, c.want)
			continue
		}
		if msg := realTrace(c.sys, c.model, res.Trace, 0); msg != "" {
			t.Errorf("%s: %s", c.name, msg)
		}
		if res.Stats.States >= off.Stats.States {
			t.Errorf("%s: %d states with the symmetry, %d without: no reduction", c.name, res.Stats.States, off.Stats.States)
		}
	}
}

// The counterexample of a symmetric system is rebuilt at the level of the
// exploration too: the path symPathTo returns is a path of the
// abstraction from its initial state that the explicit values can take
// (feasibleExplicit), and on the store-buffering ring some of its steps
// were mapped through a permutation other than the identity (the stored
// representatives are not the states of the path).
func TestSymmetryPathMapped(t *testing.T) {
	sol := newSolver(t)
	for _, n := range []int{3, 4, 5} {
		sys := parseCS(t, progen.SBRing(n, nil))
		e := newEngine(sol, Options{Model: memmodel.TSO}, stage{})
		e.newRefiner(sys, false)
		x, err := e.search(context.Background(), sys, e.prec)
		if err != nil {
			t.Fatal(err)
		}
		if x.path == nil {
			t.Fatalf("n=%d: no counterexample", n)
		}
		ok, err := feasibleExplicit(e.info, x.abs, x.path.steps)
		if err != nil || !ok {
			t.Errorf("n=%d: the rebuilt path is not feasible in the abstraction (%v)", n, err)
		}
		if e.symMapped == 0 {
			t.Errorf("n=%d: no step of the path was mapped by a permutation", n)
		}
		if len(x.path.ts) != len(x.path.steps) {
			t.Errorf("n=%d: %d transitions for %d steps", n, len(x.path.ts), len(x.path.steps))
		}
	}
}

// The symmetry reduction with the order view of counters (orbitstates.go):
// on the ticket locks (symmetric, counters in the view) verify and insert
// agree with and without it, and on a ticket lock that takes its ticket
// by a read and a write (all three can take one ticket: an SC bug that
// needs every process, so the whole graph is explored with the symmetry)
// the counterexample found through the representatives is a real run.
func TestSymmetryOrderView(t *testing.T) {
	sol := newSolver(t)
	for _, path := range []string{"ticket.cs:N=3", "forms/ticket_cas.cs:N=3", "forms/ticket_c.cs:N=3"} {
		if msg := compareSymmetry(t, sol, benchSystem(t, "scale", path)); msg != "" {
			t.Errorf("%s: %s", path, msg)
		}
	}
	lock := `const N = 3;
shared next, owner;
process P[i in 0..N-1] {
  local t;
  while (true) {
    t = next;
    next = t + 1;
    while (owner != t) { }
cs: skip;
    owner = owner + 1;
  }
}
forbidden P[0]@cs, P[1]@cs, P[2]@cs;
`
	sys := parseCS(t, lock)
	for _, m := range []memmodel.Model{memmodel.SC, memmodel.TSO} {
		on, err := Verify(context.Background(), sys, sol, Options{Model: m})
		if err != nil {
			t.Fatal(err)
		}
		off, err := Verify(context.Background(), sys, sol, Options{Model: m, NoSymmetry: true})
		if err != nil {
			t.Fatal(err)
		}
		want := map[memmodel.Model]Verdict{memmodel.SC: SCBug, memmodel.TSO: Unsafe}[m]
		if on.Verdict != want || off.Verdict != want {
			t.Fatalf("%s: %s with the symmetry, %s without, want %s", m, on.Verdict, off.Verdict, want)
		}
		if msg := realTrace(sys, m, on.Trace, 0); msg != "" {
			t.Errorf("%s: %s", m, msg)
		}
	}
}
