package smt

import (
	"testing"

	. "fencer/expr"
)

func TestAtoms(t *testing.T) {
	for _, tt := range []struct {
		in   Expr
		want []string
	}{
		// x - y <= 0, y >= x, x < y + 1 and the negation y < x are one atom.
		{And(Le(Sub(x, y), N(0)), Ge(y, x), Lt(x, Add(y, N(1))), Not(Lt(y, x))), []string{"(x <= y)"}},
		{Or(Gt(x, y), Ne(x, y), Eq(y, x)), []string{"(x <= y)", "(x == y)"}},
		{Implies(Le(Mul(N(2), x), N(5)), Ge(N(4), Add(x, y))), []string{"((x - 2) <= 0)", "(((x + y) - 4) <= 0)"}},
		{And(True, Le(N(1), N(2)), Not(False)), nil},
		{And(Eq(Mul(x, y), N(6)), Eq(Mul(x, y), N(6)), Le(Mod(x, N(2)), N(0))), []string{"((x * y) == 6)", "((x % 2) <= 0)"}},
		{Eq(Mul(N(2), x), Mul(N(4), y)), []string{"(x == (2 * y))"}},
		{Le(Neg(x), N(-3)), []string{"((x - 2) <= 0)"}}, // x >= 3 is !(x <= 2)
	} {
		got := Atoms(tt.in)
		var keys []string
		for _, a := range got {
			keys = append(keys, a.String())
		}
		if len(keys) != len(tt.want) {
			t.Errorf("Atoms(%v) = %v, want %v", tt.in, keys, tt.want)
			continue
		}
		for i := range keys {
			if keys[i] != tt.want[i] {
				t.Errorf("Atoms(%v) = %v, want %v", tt.in, keys, tt.want)
				break
			}
		}
	}
}

// TestAtomsEquivalent checks with the solver that each normal form is
// equivalent to its atom or to its negation.
func TestAtomsEquivalent(t *testing.T) {
	c := newCtx(t)
	for _, a := range []Expr{
		Le(Sub(x, y), N(0)), Gt(x, y), Lt(Mul(N(3), x), Mul(N(6), y)), Ge(Add(x, N(7)), Mul(N(-2), z)),
		Eq(Mul(N(4), x), Add(Mul(N(6), y), N(2))), Ne(x, N(3)), Gt(N(0), Sub(y, x)),
	} {
		n, key, ok := NormalAtom(a)
		if !ok || key == "" {
			t.Fatalf("NormalAtom(%v) failed", a)
		}
		base := a
		if app := a.(*App); app.Op == OpNe {
			base = Eq(app.Args[0], app.Args[1])
		}
		same, _ := c.Valid(And(Implies(n, base), Implies(base, n)))
		negated, _ := c.Valid(And(Implies(n, Not(base)), Implies(Not(base), n)))
		if !same && !negated {
			t.Errorf("%v normalised to %v, which is neither it nor its negation", a, n)
		}
		if _, key2, _ := NormalAtom(Not(a)); key2 != key && a.(*App).Op != OpNe {
			_ = key2 // Not(a) is not an atom; Atoms looks through it
		}
	}
}

// TestAtomsOfInterpolants shows the intended use: predicates from the
// interpolants of a trace.
func TestAtomsOfInterpolants(t *testing.T) {
	c := newCtx(t)
	itps, _, err := c.Interpolate(counterTrace(), 0)
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, it := range itps {
		for _, a := range Atoms(it) {
			_, key, _ := NormalAtom(a)
			if seen[key] {
				continue
			}
			seen[key] = true
			t.Logf("%v", a)
		}
	}
	if len(seen) == 0 {
		t.Error("no atoms")
	}
}
