package predabs

import (
	"testing"

	"fencer/expr"
	"fencer/kabs"
)

// bruteProver decides satisfiability by trying every assignment of the free
// variables in [-3, 3]: exact for the small formulas of these tests.
type bruteProver struct {
	frames [][]expr.Expr
	checks int
}

func newBrute() *bruteProver { return &bruteProver{frames: [][]expr.Expr{nil}} }

func (b *bruteProver) Push() error { b.frames = append(b.frames, nil); return nil }
func (b *bruteProver) Pop() error  { b.frames = b.frames[:len(b.frames)-1]; return nil }
func (b *bruteProver) Assert(f expr.Expr) error {
	b.frames[len(b.frames)-1] = append(b.frames[len(b.frames)-1], f)
	return nil
}

func (b *bruteProver) Check() (Answer, error) {
	b.checks++
	var all []expr.Expr
	for _, fr := range b.frames {
		all = append(all, fr...)
	}
	f := expr.And(all...)
	vars := expr.Vars(f)
	val := map[string]int64{}
	var try func(i int) bool
	try = func(i int) bool {
		if i == len(vars) {
			ok, err := expr.Holds(f, func(n string) (int64, bool) { v, ok := val[n]; return v, ok })
			return err == nil && ok
		}
		for v := int64(-3); v <= 3; v++ {
			val[vars[i]] = v
			if try(i + 1) {
				return true
			}
		}
		return false
	}
	if try(0) {
		return Sat, nil
	}
	return Unsat, nil
}

var x, y, r = expr.V("x"), expr.V("y"), expr.V("r")

func preds(fs ...expr.Expr) *Preds {
	ps := NewPreds()
	for _, f := range fs {
		ps.Add(f)
	}
	return ps
}

func TestPredsNormalise(t *testing.T) {
	ps := preds(expr.Le(expr.Sub(x, y), expr.N(0)))
	if ps.Add(expr.Ge(y, x)) {
		t.Error("y >= x added next to x - y <= 0")
	}
	if ps.Add(expr.True) || ps.Add(expr.Le(expr.N(1), expr.N(2))) {
		t.Error("a constant was added as a predicate")
	}
	if ps.Index(expr.Ge(y, x)) != 0 || ps.Index(expr.Eq(x, y)) != -1 {
		t.Error("Index does not normalise")
	}
}

func TestAlpha(t *testing.T) {
	ps := preds(expr.Le(x, expr.N(0)), expr.Eq(y, expr.N(2)), expr.Eq(x, y))
	a := NewAbstractor(ps, newBrute())
	c, ok, err := a.Alpha(expr.And(expr.Eq(x, expr.N(1)), expr.Eq(y, expr.N(2))))
	if err != nil || !ok {
		t.Fatal(ok, err)
	}
	if want := (Cube{-1, 1, -1}); c.Key() != want.Key() {
		t.Errorf("alpha: %v, want %v", c.String(ps), want.String(ps))
	}
	if _, ok, _ := a.Alpha(expr.And(expr.Eq(x, expr.N(1)), expr.Eq(x, expr.N(2)))); ok {
		t.Error("alpha of an unsatisfiable formula has a cube")
	}
	c, _, _ = a.Alpha(expr.Ge(x, expr.N(-1)))
	if c[0] != 0 || c[1] != 0 {
		t.Errorf("x >= -1 decides %s", c.String(ps))
	}
}

func TestPost(t *testing.T) {
	ps := preds(expr.Eq(r, expr.N(1)), expr.Eq(x, expr.N(1)), expr.Le(y, expr.N(0)))
	b := newBrute()
	a := NewAbstractor(ps, b)
	pre := Cube{0, 1, 1} // x == 1, y <= 0
	read := &kabs.Trans{Guard: expr.True, Assign: []kabs.Assign{{Var: "r", Val: x}}}
	c, ok, err := a.Post(pre, read, nil, "")
	if err != nil || !ok || c.Key() != (Cube{1, 1, 1}).Key() {
		t.Fatalf("post of r := x: %v %v %v", c.String(ps), ok, err)
	}
	// The shortcut: WP(r == 1) is x == 1, a literal of the cube: no query.
	if a.Stats.Syntactic == 0 {
		t.Error("r := x with x == 1 in the cube went to the solver")
	}
	// A cached post asks nothing.
	before := b.checks
	if _, _, err := a.Post(pre, read, nil, ""); err != nil || b.checks != before || a.Stats.CacheHits != 1 {
		t.Errorf("second post: %d new checks, %d hits", b.checks-before, a.Stats.CacheHits)
	}
	// A guard that contradicts the cube: no successor.
	guard := &kabs.Trans{Guard: expr.Gt(y, expr.N(0))}
	if _, ok, _ := a.Post(pre, guard, nil, "g"); ok {
		t.Error("y > 0 after y <= 0 has a successor")
	}
	// A guard that decides a predicate over the variables it tests.
	g2 := &kabs.Trans{Guard: expr.Eq(r, expr.N(1))}
	c, ok, _ = a.Post(Cube{0, 1, 0}, g2, nil, "g2")
	if !ok || c[0] != 1 || c[1] != 1 {
		t.Errorf("assume r == 1: %s", c.String(ps))
	}
	// keep: predicates outside it are left unknown.
	c, _, _ = a.Post(pre, read, []bool{false, true, true}, "m")
	if c[0] != 0 || c[1] != 1 || c[2] != 1 {
		t.Errorf("masked post: %s", c.String(ps))
	}
}

// Without Precise, a literal over variables the step neither assigns nor
// tests is copied, not recomputed; Implies orders cubes by their literals.
func TestUntouchedLiteralsCopied(t *testing.T) {
	ps := preds(expr.Le(x, expr.N(0)), expr.Le(y, expr.N(0)), expr.Eq(x, y))
	touchX := &kabs.Trans{Guard: expr.True, Assign: []kabs.Assign{{Var: "r", Val: expr.N(0)}}}
	pre := Cube{1, 0, 0}
	b := newBrute()
	a := NewAbstractor(ps, b)
	c, _, _ := a.Post(pre, touchX, nil, "")
	if c.Key() != pre.Key() || b.checks != 0 {
		t.Errorf("post of r := 0 recomputed untouched literals: %s (%d checks)", c.String(ps), b.checks)
	}
	a.Precise = true
	a.ClearCache()
	if c, _, _ = a.Post(pre, touchX, nil, ""); c.Key() != pre.Key() || b.checks == 0 {
		t.Errorf("precise post: %s (%d checks)", c.String(ps), b.checks)
	}
	if !c.Implies(pre) || !(Cube{1, -1, 0}).Implies(pre) || pre.Implies(Cube{1, -1}) {
		t.Error("Implies is wrong")
	}
}

// The memo of sliced queries survives a refinement (new predicates, the
// post cache cleared): the second post asks only about the new predicate,
// and gets the same literals as the first for the old ones.
func TestMemoSurvivesRefinement(t *testing.T) {
	z := expr.V("z")
	ps := preds(expr.Le(x, expr.N(0)), expr.Eq(y, expr.N(1)), expr.Le(r, expr.N(0)), expr.Le(z, expr.N(0)))
	b := newBrute()
	a := NewAbstractor(ps, b)
	a.Precise = true
	read := &kabs.Trans{Guard: expr.Le(x, expr.N(0)), Assign: []kabs.Assign{{Var: "r", Val: x}}}
	pre := Cube{0, 1, 0, 0}
	c1, ok, err := a.Post(pre, read, nil, "")
	if err != nil || !ok {
		t.Fatal(ok, err)
	}
	// x <= 0 from the guard, y == 1 copied, r <= 0 from r := x; z is free.
	if want := (Cube{1, 1, 1, 0}); c1.Key() != want.Key() {
		t.Fatalf("post: %s", c1.String(ps))
	}
	first := b.checks
	ps.Add(expr.Eq(r, y))
	a.ClearCache()
	c2, ok, err := a.Post(pre, read, nil, "")
	if err != nil || !ok {
		t.Fatal(ok, err)
	}
	if want := (Cube{1, 1, 1, 0, -1}); c2.Key() != want.Key() {
		t.Errorf("post after refinement: %s", c2.String(ps))
	}
	if again := b.checks - first; again == 0 || again >= first {
		t.Errorf("post after refinement asked %d queries (first post %d): the memo should answer all but the new predicate", again, first)
	}
	if a.Stats.Memo == 0 {
		t.Error("no answer came from the memo")
	}
	// A memo shared with another abstractor over other predicates (in
	// another order) gives the same answers.
	o := NewAbstractor(preds(expr.Le(z, expr.N(0)), expr.Le(r, expr.N(0)), expr.Le(x, expr.N(0)), expr.Eq(y, expr.N(1))), b)
	o.Precise = true
	o.ShareMemo(a)
	before := b.checks
	c3, _, _ := o.Post(Cube{0, 0, 0, 1}, read, nil, "")
	if want := (Cube{0, 1, 1, 1}); c3.Key() != want.Key() || b.checks != before {
		t.Errorf("shared memo: %s, %d new queries", c3.String(o.Preds), b.checks-before)
	}
}

// A predicate over variables that the cube and the guard do not mention is
// decided on its own (an empty slice): z <= 0 is unknown, z == z + 0 too
// trivial to be a predicate.
func TestSliceIndependentPredicate(t *testing.T) {
	z := expr.V("z")
	ps := preds(expr.Le(x, expr.N(0)), expr.Le(z, expr.N(0)))
	a := NewAbstractor(ps, newBrute())
	c, ok, err := a.Alpha(expr.And(expr.Le(x, expr.N(-1)), expr.Ge(x, expr.N(-2))))
	if err != nil || !ok || c[0] != 1 || c[1] != 0 {
		t.Errorf("alpha: %s %v %v", c.String(ps), ok, err)
	}
	sl := newSlicer(expr.And(expr.Le(x, expr.N(0)), expr.Le(y, x), expr.Le(z, expr.N(0))), conjunctMemo{})
	if cs := sl.components(expr.Le(y, expr.N(3))); len(cs) != 1 {
		t.Fatalf("y meets %d components", len(cs))
	}
	conj, _ := sl.slice(sl.components(expr.Le(y, expr.N(3))))
	if len(conj) != 2 {
		t.Errorf("the slice of y <= 3 is %v, want x <= 0 and y <= x", conj)
	}
	if cs := sl.components(expr.Le(expr.V("w"), expr.N(0))); len(cs) != 0 {
		t.Errorf("w meets %d components", len(cs))
	}
}

// Whole interpolants that differ only in the order of their disjuncts or
// conjuncts, or in how an atom is written, are one predicate.
func TestPredsCanonicalBooleans(t *testing.T) {
	x, y := expr.Var{Name: "x"}, expr.Var{Name: "y"}
	a := &expr.App{Op: expr.OpLe, Args: []expr.Expr{x, expr.Int{V: -4}}}
	b := &expr.App{Op: expr.OpGe, Args: []expr.Expr{y, expr.Zero}}
	b2 := &expr.App{Op: expr.OpLe, Args: []expr.Expr{expr.Zero, y}} // b written the other way
	not := func(e expr.Expr) expr.Expr { return &expr.App{Op: expr.OpNot, Args: []expr.Expr{e}} }
	or := func(l, r expr.Expr) expr.Expr { return &expr.App{Op: expr.OpOr, Args: []expr.Expr{l, r}} }
	and := func(l, r expr.Expr) expr.Expr { return &expr.App{Op: expr.OpAnd, Args: []expr.Expr{l, r}} }
	ps := NewPreds()
	if !ps.Add(or(not(a), not(b))) {
		t.Fatal("first interpolant not added")
	}
	for _, f := range []expr.Expr{or(not(b), not(a)), or(not(b2), not(a))} {
		if ps.Add(f) {
			t.Errorf("%s added beside %s", f, ps.At(0).F)
		}
	}
	if !ps.Add(and(not(a), not(b))) || ps.Add(and(not(b2), not(a))) || ps.Len() != 2 {
		t.Errorf("and: %d predicates", ps.Len())
	}
}

// A clone grows on its own: what is added to it is not in the original,
// and the original's predicates keep their positions in it.
func TestPredsClone(t *testing.T) {
	ps := NewPreds()
	ps.Add(expr.Le(expr.V("x"), expr.N(0)))
	c := ps.Clone()
	if !c.Add(expr.Le(expr.V("y"), expr.N(1))) || c.Len() != 2 || ps.Len() != 1 {
		t.Fatalf("clone %d, original %d predicates", c.Len(), ps.Len())
	}
	if ps.Index(expr.Le(expr.V("y"), expr.N(1))) != -1 || c.Index(expr.Le(expr.V("x"), expr.N(0))) != 0 {
		t.Error("the clone and the original share their index")
	}
	if !ps.Add(expr.Le(expr.V("z"), expr.N(2))) || c.Index(expr.Le(expr.V("z"), expr.N(2))) != -1 {
		t.Error("an addition to the original shows in the clone")
	}
}
