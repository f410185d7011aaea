package expr

import (
	"errors"
	"math"
	"testing"
)

func env(m map[string]int64) func(string) (int64, bool) {
	return func(n string) (int64, bool) { v, ok := m[n]; return v, ok }
}

func TestEvalCTruncation(t *testing.T) {
	x := V("x")
	cases := []struct {
		e    Expr
		x    int64
		want int64
	}{
		{Div(x, N(2)), -7, -3},
		{Mod(x, N(2)), -7, -1},
		{Div(x, N(-2)), 7, -3},
		{Mod(x, N(-2)), 7, 1},
		{Ite(Lt(x, N(0)), N(1), N(2)), -1, 1},
		{And(Gt(x, N(0)), Lt(x, N(3))), 2, 1},
		{Or(Gt(x, N(0)), Lt(x, N(-3))), -1, 0},
		{Not(Eq(x, N(4))), 4, 0},
	}
	for _, c := range cases {
		got, err := Eval(c.e, env(map[string]int64{"x": c.x}))
		if err != nil || got != c.want {
			t.Errorf("%s with x=%d: got %d, %v; want %d", c.e, c.x, got, err, c.want)
		}
	}
}

func TestEvalOverflowAndErrors(t *testing.T) {
	big := map[string]int64{"x": math.MaxInt64, "z": 0}
	if _, err := Eval(Add(V("x"), N(1)), env(big)); !errors.Is(err, ErrOverflow) {
		t.Errorf("x+1 at MaxInt64: err %v, want overflow", err)
	}
	if _, err := Eval(Mul(V("x"), N(2)), env(big)); !errors.Is(err, ErrOverflow) {
		t.Errorf("x*2: err %v, want overflow", err)
	}
	if _, err := Eval(V("y"), env(big)); err == nil {
		t.Error("unbound variable: no error")
	}
	if _, err := Eval(&App{Op: OpDiv, Args: []Expr{V("x"), V("z")}}, env(big)); err == nil {
		t.Error("division by zero: no error")
	}
}

func TestLinearizeSameAtom(t *testing.T) {
	x, y := V("x"), V("y")
	pairs := [][2]Expr{
		{Le(Sub(x, y), N(0)), Ge(y, x)},
		{Lt(x, y), Le(Add(x, N(1)), y)},
		{Eq(x, y), Eq(Sub(y, x), N(0))},
		{Le(Mul(N(2), x), N(5)), Le(x, N(2))}, // 2x <= 5 ⇔ x <= 2 over the integers
		{Gt(x, N(3)), Ge(x, N(4))},
	}
	for _, p := range pairs {
		a, ok1 := Linearize(p[0])
		b, ok2 := Linearize(p[1])
		if !ok1 || !ok2 || a.Key() != b.Key() {
			t.Errorf("%s and %s: keys %q, %q (ok %v %v)", p[0], p[1], a.Key(), b.Key(), ok1, ok2)
		}
	}
	if a, _ := Linearize(Le(x, y)); a.Key() == func() string { b, _ := Linearize(Le(y, x)); return b.Key() }() {
		t.Error("x <= y and y <= x have the same key")
	}
	if _, ok := Linearize(Ne(x, y)); ok {
		t.Error("!= linearized")
	}
	if _, ok := Linearize(Le(Mul(x, y), N(1))); ok {
		t.Error("x*y linearized")
	}
}

func TestLinearExprRoundTrip(t *testing.T) {
	x, y := V("x"), V("y")
	for _, e := range []Expr{Le(Sub(x, y), N(3)), Eq(Add(x, y), N(-2)), Gt(N(5), x)} {
		l, _ := Linearize(e)
		back, ok := Linearize(l.Expr())
		if !ok || back.Key() != l.Key() {
			t.Errorf("%s -> %s -> %q, want %q", e, l.Expr(), back.Key(), l.Key())
		}
		for xv := int64(-4); xv <= 4; xv++ {
			for yv := int64(-4); yv <= 4; yv++ {
				m := env(map[string]int64{"x": xv, "y": yv})
				a, _ := Holds(e, m)
				b, _ := Holds(l.Expr(), m)
				if a != b {
					t.Fatalf("%s and its normal form %s differ at x=%d y=%d", e, l.Expr(), xv, yv)
				}
			}
		}
	}
}

func TestConstructorsFold(t *testing.T) {
	if And(True, Eq(V("x"), N(1)), True).String() != "(x == 1)" {
		t.Error("And did not drop true")
	}
	if Or(False, True) != True {
		t.Error("Or(false, true) is not true")
	}
	if Not(Not(V("b"))).String() != "b" {
		t.Error("double negation kept")
	}
	if v, ok := IntValue(Add(N(2), N(3))); !ok || v != 5 {
		t.Error("2+3 not folded")
	}
	if got := Rename(Add(V("x"), V("y")), func(n string) Expr {
		if n == "x" {
			return N(1)
		}
		return nil
	}).String(); got != "(1 + y)" {
		t.Errorf("Rename: %s", got)
	}
}

func TestConjuncts(t *testing.T) {
	x, y := V("x"), V("y")
	a, b, c := Le(x, N(1)), Eq(y, N(2)), Or(Le(x, y), Eq(x, N(0)))
	got := Conjuncts(&App{Op: OpAnd, Args: []Expr{a, &App{Op: OpAnd, Args: []Expr{True, b}}, c}})
	if len(got) != 3 || got[0] != a || got[1] != b || got[2] != c {
		t.Errorf("Conjuncts = %v, want [%v %v %v]", got, a, b, c)
	}
	if got := Conjuncts(True); len(got) != 0 {
		t.Errorf("Conjuncts(true) = %v", got)
	}
	if got := Conjuncts(c); len(got) != 1 || got[0] != c {
		t.Errorf("Conjuncts of a disjunction = %v", got)
	}
}
