package races

import (
	"context"
	"strings"
	"testing"

	"fencer/cs"
	"fencer/memmodel"
)

// ordersByName reads the orders of a .cs system the way these tests
// write them: a shared variable whose name starts with "a" is atomic
// (relaxed, or acquire/release as the statement says), one whose name
// starts with "v" volatile, every other one plain; an atomic step whose variables start with "ar" is relaxed, any
// other one acquire and release; fence; is seq_cst, fence load; acquire,
// fence release; release.
func ordersByName(sys *cs.System) Orders {
	return func(p, e int) Order {
		op := sys.Procs[p].Edges[e].Op
		switch op.Kind {
		case cs.OpRead, cs.OpWrite:
			switch {
			case strings.HasPrefix(op.Shared, "v"):
				return Volatile
			case !strings.HasPrefix(op.Shared, "a"):
				return Plain
			case op.Ann&cs.Acquire != 0:
				return Acquire
			case op.Ann&cs.Release != 0:
				return Release
			}
			return Relaxed
		case cs.OpAtomic:
			for _, b := range op.Body {
				if strings.HasPrefix(b.Shared, "ar") {
					return Relaxed
				}
			}
			return OfAnn(op.Ann)
		case cs.OpFence:
			switch op.Fence {
			case cs.FullFence:
				return SeqCst
			case cs.LoadFence:
				return Acquire
			case cs.ReleaseFence:
				return Release
			}
		}
		return Relaxed
	}
}

func find(t *testing.T, src string) (*cs.System, *Result) {
	t.Helper()
	sys, err := cs.Parse("t.cs", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	res, err := Find(context.Background(), sys, ordersByName(sys), Limits{})
	if err != nil {
		t.Fatal(err)
	}
	return sys, res
}

// raced lists the variables of the races found.
func raced(res *Result) string {
	var vs []string
	for _, r := range res.Races {
		vs = append(vs, r.Var)
	}
	return strings.Join(vs, " ")
}

func TestRaces(t *testing.T) {
	for _, tc := range []struct {
		name, src, want string
	}{
		{"store buffering, plain", `shared x, y;
process P { local r; x = 1; r = y; }
process Q { local r; y = 1; r = x; }`, "x y"},
		{"two readers", `shared x;
process P { local r; r = x; }
process Q { local r; r = x; }`, ""},
		{"message passing, release/acquire", `shared d, af;
process P { d = 1; release af = 1; }
process Q { local r, v; acquire r = af; if (r == 1) { v = d; } }`, ""},
		{"message passing, relaxed flag", `shared d, af;
process P { d = 1; af = 1; }
process Q { local r, v; r = af; if (r == 1) { v = d; } }`, "d"},
		{"message passing, release without acquire", `shared d, af;
process P { d = 1; release af = 1; }
process Q { local r, v; r = af; if (r == 1) { v = d; } }`, "d"},
		{"message passing, fences", `shared d, af;
process P { d = 1; fence release; af = 1; }
process Q { local r, v; r = af; fence load; if (r == 1) { v = d; } }`, ""},
		{"message passing, release fence only", `shared d, af;
process P { d = 1; fence release; af = 1; }
process Q { local r, v; r = af; if (r == 1) { v = d; } }`, "d"},
		{"message passing, acquire fence before the read", `shared d, af;
process P { d = 1; fence release; af = 1; }
process Q { local r, v; fence load; r = af; if (r == 1) { v = d; } }`, "d"},
		{"lock", `shared d, am;
process P { atomic { assume(am == 0); am = 1; } d = d + 1; atomic { am = 0; } }
process Q { atomic { assume(am == 0); am = 1; } d = d + 1; atomic { am = 0; } }`, ""},
		{"lock in one process only", `shared d, am;
process P { atomic { assume(am == 0); am = 1; } d = d + 1; atomic { am = 0; } }
process Q { d = d + 1; }`, "d"},
		{"release sequence through a relaxed read-modify-write", `shared d, ar;
process P { d = 1; release ar = 1; }
process R { local o; atomic { o = ar; ar = o + 1; } }
process Q { local r, v; acquire r = ar; if (r == 2) { v = d; } }`, ""},
		{"a relaxed store ends the release sequence", `shared d, af;
process P { d = 1; release af = 1; }
process R { local o; o = af; if (o == 1) { af = 2; } }
process Q { local r, v; acquire r = af; if (r == 2) { v = d; } }`, "d"},
		{"atomic accesses only", `shared ax, ay;
process P { local r; ax = 1; r = ay; }
process Q { local r; ay = 1; r = ax; }`, ""},
		{"volatile accesses only", `shared vx;
process P { vx = 1; }
process Q { local r; r = vx; }`, ""},
		{"a volatile flag with fences synchronises nothing", `shared d, vf;
process P { d = 1; fence release; vf = 1; }
process Q { local r, v; r = vf; fence load; if (r == 1) { v = d; } }`, "d"},
		{"a plain read of an atomically written variable", `shared x;
process P { atomic { x = 1; } }
process Q { local r; r = x; }`, "x"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, res := find(t, tc.src)
			if got := raced(res); got != tc.want {
				t.Errorf("races on %q, want %q", got, tc.want)
			}
			if !res.Complete {
				t.Errorf("not complete: %s", res.Why)
			}
		})
	}
}

// TestRun: the run of a race is a real SC run that ends with the second
// access, and the first access is made in it.
func TestRun(t *testing.T) {
	sys, res := find(t, `shared d, af;
process P { local k; k = 0; while (k < 2) { k = k + 1; } d = 1; af = 1; }
process Q { local r, v; r = af; if (r == 1) { v = d; } }`)
	if len(res.Races) != 1 {
		t.Fatalf("races %v", res.Races)
	}
	r := res.Races[0]
	c := memmodel.NewConcrete(sys, memmodel.SC)
	if _, err := c.Replay(&memmodel.Trace{Init: r.Init, Steps: r.Run}); err != nil {
		t.Fatalf("the run is not an SC run: %v", err)
	}
	last := r.Run[len(r.Run)-1]
	if last.Proc != r.Second.Proc || last.Edge != r.Second.Edge {
		t.Errorf("the run ends with %v, not with the second access %v", last, r.Second)
	}
	made := false
	for _, st := range r.Run {
		made = made || st.Proc == r.First.Proc && st.Edge == r.First.Edge
	}
	if !made {
		t.Errorf("the first access %v is not in the run", r.First)
	}
	if !r.First.Write || !r.First.Plain || r.Second.Write || !r.Second.Plain {
		t.Errorf("accesses %+v, %+v: want a plain write, then a plain read", r.First, r.Second)
	}
	msg := r.Message(sys, "d")
	for _, want := range []string{"data race on d", "P writes it at t.cs:2:", "Q reads it at t.cs:3:", "a run to them (process, line): P 2"} {
		if !strings.Contains(msg, want) {
			t.Errorf("message lacks %q:\n%s", want, msg)
		}
	}
}

// TestLimits: an unbounded counter hits the state limit; the result says
// it is not complete, and a race before the limit is still found.
func TestLimits(t *testing.T) {
	sys, err := cs.Parse("t.cs", []byte(`shared ac, am, x, y;
process P { while (true) { ac = ac + 1; } }
process Q { local r; atomic { assume(am == 0); am = 1; } r = x; atomic { am = 0; } r = y; }
process R { atomic { assume(am == 0); am = 1; } x = 1; atomic { am = 0; } y = 1; }`))
	if err != nil {
		t.Fatal(err)
	}
	res, err := Find(context.Background(), sys, ordersByName(sys), Limits{MaxStates: 2000})
	if err != nil {
		t.Fatal(err)
	}
	if res.Complete || !strings.Contains(res.Why, "state limit") {
		t.Errorf("complete %v, why %q: want the state limit", res.Complete, res.Why)
	}
	if got := raced(res); got != "y" {
		t.Errorf("races on %q, want y", got)
	}
	if strings.Join(res.Vars, " ") != "x y" {
		t.Errorf("checked %v, want x y (ac is atomic, am too)", res.Vars)
	}
}

// TestNoCandidate: a program whose plain variables no two processes share
// is not explored.
func TestNoCandidate(t *testing.T) {
	_, res := find(t, `shared x, ay;
process P { local r; x = 1; r = ay; }
process Q { local r; ay = 1; }`)
	if res.States != 0 || len(res.Vars) != 0 || !res.Complete {
		t.Errorf("states %d, vars %v, complete %v", res.States, res.Vars, res.Complete)
	}
}
