package smt

import (
	"errors"
	"fmt"
	"testing"
	"time"

	. "fencer/expr"
)

// counterTrace is x := 0; y := 0; x++; y++; assume x != y in SSA form.
func counterTrace() []Expr {
	return []Expr{
		Eq(V("x0"), N(0)),
		Eq(V("y0"), N(0)),
		Eq(V("x1"), Add(V("x0"), N(1))),
		Eq(V("y1"), Add(V("y0"), N(1))),
		Ne(V("x1"), V("y1")),
	}
}

// bakeryTrace is the doorway of Lamport's bakery for two processes and both
// entering the critical section: P1 takes n1 := n2 + 1, P2 takes
// n2 := max(n1, n2) + 1, then P1 passes its test (n2 == 0 || n1 < n2) and
// P2 passes its test (n1 == 0 || n2 < n1). It needs arithmetic to refute.
func bakeryTrace() []Expr {
	n1, n2 := V("n1_0"), V("n2_0")
	n1b, n2b := V("n1_1"), V("n2_1")
	return []Expr{
		And(Eq(n1, N(0)), Eq(n2, N(0))),
		Eq(n1b, Add(n2, N(1))),
		Eq(n2b, Add(Ite(Gt(n1b, n2), n1b, n2), N(1))),
		Or(Eq(n2b, N(0)), Lt(n1b, n2b)),
		Or(Eq(n1b, N(0)), Lt(n2b, n1b)),
	}
}

// havocTrace has a nondeterministic value: i := 0; n := *; assume n > 0;
// i := i + n; assume i <= 0. The havoc step constrains nothing.
func havocTrace() []Expr {
	return []Expr{
		Eq(V("i0"), N(0)),
		True, // n1 := * (a fresh SSA name, no constraint)
		Gt(V("n1"), N(0)),
		Eq(V("i1"), Add(V("i0"), V("n1"))),
		Le(V("i1"), N(0)),
	}
}

// longBakeryTrace repeats rounds of ticket taking for two processes with a
// havoc of the other's ticket in between, ending in a mutual-exclusion
// violation that is infeasible.
func longBakeryTrace(rounds int) []Expr {
	v := func(n string, k int) Expr { return V(fmt.Sprintf("%s_%d", n, k)) }
	steps := []Expr{And(Eq(v("n1", 0), N(0)), Eq(v("n2", 0), N(0)))}
	k := 0
	for r := 0; r < rounds; r++ {
		steps = append(steps,
			Eq(v("n1", k+1), Add(Ite(Gt(v("n2", k), v("n1", k)), v("n2", k), v("n1", k)), N(1))),
			Eq(v("n2", k+1), Add(Ite(Gt(v("n1", k+1), v("n2", k)), v("n1", k+1), v("n2", k)), N(1))),
			Ge(v("h", k), N(0)), // a havoced bonus, only known to be >= 0
			Eq(v("n1", k+2), Add(v("n1", k+1), v("h", k))),
			Eq(v("n2", k+2), Add(v("n2", k+1), v("h", k))),
		)
		k += 2
	}
	steps = append(steps,
		Or(Eq(v("n2", k), N(0)), Lt(v("n1", k), v("n2", k))),
		Or(Eq(v("n1", k), N(0)), Lt(v("n2", k), v("n1", k))),
	)
	return steps
}

// checkItps validates interpolants with the solver, independently of the
// check Interpolate does itself.
func checkItps(t *testing.T, c *Context, steps, itps []Expr) {
	t.Helper()
	if len(itps) != len(steps)+1 || itps[0] != True || itps[len(steps)] != False {
		t.Fatalf("bad ends: %v", itps)
	}
	for i := 1; i <= len(steps); i++ {
		f := Implies(And(itps[i-1], steps[i-1]), itps[i])
		if ok, err := c.Valid(f); !ok || err != nil {
			t.Errorf("I_%d && A_%d => I_%d is not valid: %v (%v)", i-1, i, i, f, err)
		}
	}
	for i := 1; i < len(steps); i++ {
		pre, post := map[string]bool{}, map[string]bool{}
		for _, s := range steps[:i] {
			for _, v := range Vars(s) {
				pre[v] = true
			}
		}
		for _, s := range steps[i:] {
			for _, v := range Vars(s) {
				post[v] = true
			}
		}
		for _, v := range Vars(itps[i]) {
			if !pre[v] || !post[v] {
				t.Errorf("I_%d = %v uses %s, not shared", i, itps[i], v)
			}
		}
	}
	if err := c.CheckInterpolants(steps, itps); err != nil {
		t.Error(err)
	}
}

func TestInterpolants(t *testing.T) {
	c := newCtx(t)
	for name, steps := range map[string][]Expr{
		"counter":     counterTrace(),
		"bakery":      bakeryTrace(),
		"havoc":       havocTrace(),
		"bakery-long": longBakeryTrace(2),
		"no-shared-F": {And(Eq(x, N(0)), Eq(x, N(1))), Eq(y, N(2))},
		"no-shared-T": {Eq(y, N(2)), And(Eq(x, N(0)), Eq(x, N(1)))},
		"false-first": {False, Eq(x, N(1)), Eq(x, N(2))},
		"one-step":    {And(Lt(x, y), Lt(y, x))},
		"div-mod":     {Eq(x, N(-7)), Eq(y, Div(x, N(2))), Eq(z, Mod(x, N(2))), Or(Ne(y, N(-3)), Ne(z, N(-1)))},
	} {
		t.Run(name, func(t *testing.T) {
			itps, res, err := c.Interpolate(steps, 0)
			if res != Unsat || err != nil {
				t.Fatalf("got %v, %v", res, err)
			}
			t.Logf("%v", itps)
			checkItps(t, c, steps, itps)
		})
	}
	// The cut without shared variables has a constant interpolant.
	itps, _, _ := c.Interpolate([]Expr{And(Eq(x, N(0)), Eq(x, N(1))), Eq(y, N(2))}, 0)
	if itps[1] != False {
		t.Errorf("I_1 = %v, want false", itps[1])
	}
	itps, _, _ = c.Interpolate([]Expr{Eq(y, N(2)), And(Eq(x, N(0)), Eq(x, N(1)))}, 0)
	if itps[1] != True {
		t.Errorf("I_1 = %v, want true", itps[1])
	}
}

// TestInterpolateNonLinear: Spacer gives up on non-linear steps; that is an
// Unknown, not an error of the binding.
func TestInterpolateNonLinear(t *testing.T) {
	c := newCtx(t)
	steps := []Expr{Eq(x, N(3)), Eq(y, Mul(x, x)), Ne(y, N(9))}
	itps, res, err := c.Interpolate(steps, 0)
	var unk *ErrUnknown
	switch {
	case res == Unsat && err == nil:
		checkItps(t, c, steps, itps)
	case res == Unknown && errors.As(err, &unk):
		t.Logf("unknown: %v", unk.Reason)
	default:
		t.Fatalf("got %v, %v", res, err)
	}
}

func TestInterpolateFeasible(t *testing.T) {
	c := newCtx(t)
	for _, steps := range [][]Expr{
		{Eq(V("x0"), N(0)), Eq(V("x1"), Add(V("x0"), N(1))), Eq(V("x1"), N(1))},
		{Eq(x, N(1))},
		{True, True},
	} {
		itps, res, err := c.Interpolate(steps, 0)
		if res != Sat || err != nil || itps != nil {
			t.Errorf("%v: got %v, %v, %v", steps, itps, res, err)
		}
	}
	if _, res, err := c.Interpolate(nil, 0); res != Unknown || err == nil {
		t.Errorf("empty path: %v, %v", res, err)
	}
	bad := []Expr{Eq(x, N(0)), &App{Op: OpAnd, Args: []Expr{x, y}}}
	var zerr *Error
	if _, res, err := c.Interpolate(bad, 0); res != Unknown || !errors.As(err, &zerr) {
		t.Errorf("ill-sorted path: %v, %v", res, err)
	}
}

func TestInterpolateTimeout(t *testing.T) {
	c := newCtx(t)
	steps := []Expr{And(Gt(x, N(100)), Gt(y, N(100))), Eq(Add(Mul(Mul(x, x), x), Mul(Mul(y, y), y)), Add(Mul(Mul(z, z), z), N(33))), Gt(z, N(0))}
	_, res, err := c.Interpolate(steps, 200)
	var unk *ErrUnknown
	if res == Unsat || (res == Unknown && !errors.As(err, &unk)) {
		t.Fatalf("got %v, %v", res, err)
	}
	t.Logf("%v, %v", res, err)
	// The context is fine afterwards.
	if _, res, err := c.Interpolate(counterTrace(), 0); res != Unsat || err != nil {
		t.Fatalf("after timeout: %v, %v", res, err)
	}
}

func TestPathVars(t *testing.T) {
	cuts, rules, names := pathVars(counterTrace())
	want := "[[x0] [x0 y0] [x1 y0] [x1 y1]]"
	if fmt.Sprint(cuts) != want {
		t.Errorf("cuts = %v, want %v", cuts, want)
	}
	if fmt.Sprint(rules[2]) != "[x0 x1 y0]" || len(names) != 4 {
		t.Errorf("rules = %v, names = %v", rules, names)
	}
}

func BenchmarkInterpolateBakery(b *testing.B) {
	c := newCtx(b)
	steps := longBakeryTrace(2)
	for i := 0; i < b.N; i++ {
		if _, res, err := c.Interpolate(steps, 0); res != Unsat || err != nil {
			b.Fatal(res, err)
		}
	}
}

// TestInterpolateWhenSpacerGetsStuck: with its default settings Spacer
// throws "Stuck on a lemma" on this div/mod path after some history in the
// context; Interpolate retries with other settings.
func TestInterpolateWhenSpacerGetsStuck(t *testing.T) {
	steps := []Expr{Eq(x, N(-7)), Eq(y, Div(x, N(2))), Eq(z, Mod(x, N(2))), Or(Ne(y, N(-3)), Ne(z, N(-1)))}
	for i := 0; i < 5; i++ {
		c := newCtx(t)
		for j := 0; j < i; j++ {
			c.Interpolate(longBakeryTrace(1), 0)
		}
		itps, res, err := c.Interpolate(steps, 0)
		if res != Unsat || err != nil {
			t.Fatalf("after %d interpolations: %v, %v", i, res, err)
		}
		checkItps(t, c, steps, itps)
	}
}

func TestPurifyDivMod(t *testing.T) {
	c := newCtx(t)
	f := And(Eq(y, Div(Add(x, N(1)), N(-3))), Eq(z, Mod(Add(x, N(1)), N(-3))), Le(Div(y, N(2)), z))
	p := purifyDivMod(f, "t")
	for _, v := range Vars(p) {
		if v != "x" && v != "y" && v != "z" && v[:2] != "t!" {
			t.Errorf("unexpected variable %s", v)
		}
	}
	Walk(p, func(e Expr) {
		if a, ok := e.(*App); ok && (a.Op == OpDiv || a.Op == OpMod) {
			t.Errorf("%v left in %v", a, p)
		}
	})
	// Same projection on x, y, z: for each x in a range the values agree.
	for v := int64(-9); v <= 9; v++ {
		env := func(string) (int64, bool) { return v, true }
		yv, _ := Eval(Div(Add(x, N(1)), N(-3)), env)
		zv, _ := Eval(Mod(Add(x, N(1)), N(-3)), env)
		pin := And(Eq(x, N(v)), Eq(y, N(yv)), Eq(z, N(zv)))
		r1, _ := c.Sat(And(pin, f))
		r2, _ := c.Sat(And(pin, p))
		if r1 != r2 {
			t.Errorf("x=%d: %v vs purified %v", v, r1, r2)
		}
		if r, _ := c.Sat(And(Eq(x, N(v)), p, Or(Ne(y, N(yv)), Ne(z, N(zv))))); r != Unsat {
			t.Errorf("x=%d: purified allows other values of y, z", v)
		}
	}
}

// The path is sliced to a minimal unsatisfiable core first: a variable the
// infeasibility does not need (z) is in no interpolant, though it is
// shared across every cut.
func TestInterpolateSlices(t *testing.T) {
	c := newCtx(t)
	z := func(k int) Expr { return V(fmt.Sprintf("z%d", k)) }
	steps := []Expr{
		And(Eq(V("x0"), N(0)), Eq(z(0), N(0))),
		And(Eq(V("x1"), Add(V("x0"), N(1))), Eq(z(1), Add(z(0), V("x0")))),
		Eq(z(2), Add(z(1), N(2))),
		And(Lt(V("x1"), N(1)), Ge(z(2), N(0))),
	}
	itps, res, err := c.Interpolate(steps, 0)
	if res != Unsat || err != nil {
		t.Fatalf("got %v, %v", res, err)
	}
	checkItps(t, c, steps, itps)
	for i, it := range itps {
		for _, v := range Vars(it) {
			if v[0] == 'z' {
				t.Errorf("I_%d = %v mentions %s", i, it, v)
			}
		}
	}
	sliced, err := c.slice(steps, time.Now().Add(time.Minute))
	if err != nil {
		t.Fatal(err)
	}
	want := []Expr{Eq(V("x0"), N(0)), Eq(V("x1"), Add(V("x0"), N(1))), True, Lt(V("x1"), N(1))}
	for i := range want {
		if Key(sliced[i]) != Key(want[i]) {
			t.Errorf("sliced step %d = %v, want %v", i+1, sliced[i], want[i])
		}
	}
}
