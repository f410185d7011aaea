package expr

import "testing"

// The two normal forms: Normal keeps the polarity, NormalAtom does not;
// both identify the ways of writing one linear comparison.
func TestNormalForms(t *testing.T) {
	x, y := V("x"), V("y")
	key := func(f Expr) string {
		_, k, ok := Normal(f)
		if !ok {
			t.Fatalf("Normal(%v) failed", f)
		}
		return k
	}
	atomKey := func(f Expr) string {
		_, k, ok := NormalAtom(f)
		if !ok {
			t.Fatalf("NormalAtom(%v) failed", f)
		}
		return k
	}
	if key(Le(Sub(x, y), N(0))) != key(Ge(y, x)) || key(Ge(y, x)) != key(Lt(x, Add(y, N(1)))) {
		t.Error("Normal: x - y <= 0, y >= x and x < y + 1 differ")
	}
	if key(Gt(x, y)) == key(Le(x, y)) {
		t.Error("Normal: x > y and its negation x <= y are one formula")
	}
	if atomKey(Gt(x, y)) != atomKey(Le(x, y)) || atomKey(Ne(x, y)) != atomKey(Eq(x, y)) {
		t.Error("NormalAtom: an atom and its negation differ")
	}
	a, b := Le(x, N(3)), Eq(Mul(x, y), N(2))
	if key(And(a, b)) != key(And(b, a)) || key(Or(a, b)) != key(Or(b, a)) {
		t.Error("Normal: the order of conjuncts or disjuncts matters")
	}
	if key(And(a, b)) == key(Or(a, b)) {
		t.Error("Normal: and and or are one formula")
	}
	for _, f := range []Expr{True, False, Le(N(1), N(2))} {
		if _, _, ok := Normal(f); ok {
			t.Errorf("Normal(%v) is not a predicate", f)
		}
		if _, _, ok := NormalAtom(f); ok {
			t.Errorf("NormalAtom(%v) is not an atom", f)
		}
	}
}
