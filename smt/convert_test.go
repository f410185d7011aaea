package smt

import (
	"math/rand/v2"
	"strings"
	"testing"

	. "fencer/expr"
)

func TestOpcodesAgreeWithExpr(t *testing.T) {
	codes := opcodes()
	if len(codes) != int(OpImplies)+1 || len(arity) != int(OpImplies)+1 {
		t.Fatalf("%d opcodes, %d arities for %d operators", len(codes), len(arity), OpImplies+1)
	}
	for op, code := range codes {
		if int(op) != code {
			t.Errorf("%v is %d in expr, %d in z3shim.h", op, op, code)
		}
	}
}

// TestTruncatingDivMod checks C's division against the solver: by validity
// and by evaluation in a model, for every sign combination.
func TestTruncatingDivMod(t *testing.T) {
	c := newCtx(t)
	s, _ := c.NewSolver()
	defer s.Close()
	if ok, err := c.Valid(Implies(Eq(x, N(-7)), And(Eq(Div(x, N(2)), N(-3)), Eq(Mod(x, N(2)), N(-1))))); !ok || err != nil {
		t.Fatalf("-7/2 == -3 && -7%%2 == -1: %v %v", ok, err)
	}
	for _, d := range []int64{2, -2, 3, -3, 5, -7} {
		for v := int64(-12); v <= 12; v++ {
			q, r := Div(x, N(d)), Mod(x, N(d))
			env := func(string) (int64, bool) { return v, true }
			wq, _ := Eval(q, env)
			wr, _ := Eval(r, env)
			if wq != v/d || wr != v%d {
				t.Fatalf("expr.Eval disagrees with Go at %d, %d", v, d)
			}
			f := Implies(Eq(x, N(v)), And(Eq(q, N(wq)), Eq(r, N(wr))))
			if ok, err := c.Valid(f); !ok || err != nil {
				t.Errorf("Valid(%v) = %v, %v", f, ok, err)
			}
			s.Push()
			s.Assert(Eq(x, N(v)))
			if res, err := s.Check(); res != Sat {
				t.Fatal(res, err)
			}
			m, _ := s.Model()
			gq, err1 := m.Eval(q)
			gr, err2 := m.Eval(r)
			if gq != wq || gr != wr || err1 != nil || err2 != nil {
				t.Errorf("model: %d/%d = %d, %%: %d (%v %v); want %d, %d", v, d, gq, gr, err1, err2, wq, wr)
			}
			s.Pop()
		}
	}
}

// randExpr builds a random term (b false) or formula (b true) of the given
// depth over x, y, z.
func randExpr(r *rand.Rand, depth int, b bool) Expr {
	vars := []Expr{x, y, z}
	if b {
		if depth == 0 || r.IntN(4) == 0 {
			ops := []Op{OpEq, OpNe, OpLt, OpLe, OpGt, OpGe}
			return &App{Op: ops[r.IntN(len(ops))], Args: []Expr{randExpr(r, depth-1, false), randExpr(r, depth-1, false)}}
		}
		switch r.IntN(4) {
		case 0:
			return &App{Op: OpAnd, Args: []Expr{randExpr(r, depth-1, true), randExpr(r, depth-1, true), randExpr(r, depth-1, true)}}
		case 1:
			return &App{Op: OpOr, Args: []Expr{randExpr(r, depth-1, true), randExpr(r, depth-1, true)}}
		case 2:
			return &App{Op: OpNot, Args: []Expr{randExpr(r, depth-1, true)}}
		}
		return &App{Op: OpImplies, Args: []Expr{randExpr(r, depth-1, true), randExpr(r, depth-1, true)}}
	}
	if depth <= 0 || r.IntN(3) == 0 {
		if r.IntN(2) == 0 {
			return N(int64(r.IntN(11) - 5))
		}
		return vars[r.IntN(3)]
	}
	d := int64(r.IntN(4) + 2)
	if r.IntN(2) == 0 {
		d = -d
	}
	switch r.IntN(8) {
	case 0:
		return &App{Op: OpAdd, Args: []Expr{randExpr(r, depth-1, false), randExpr(r, depth-1, false)}}
	case 1:
		return &App{Op: OpSub, Args: []Expr{randExpr(r, depth-1, false), randExpr(r, depth-1, false)}}
	case 2:
		return &App{Op: OpMul, Args: []Expr{N(int64(r.IntN(7) - 3)), randExpr(r, depth-1, false)}}
	case 3:
		return &App{Op: OpMul, Args: []Expr{randExpr(r, depth-1, false), randExpr(r, depth-1, false)}}
	case 4:
		return &App{Op: OpDiv, Args: []Expr{randExpr(r, depth-1, false), N(d)}}
	case 5:
		return &App{Op: OpMod, Args: []Expr{randExpr(r, depth-1, false), N(d)}}
	case 6:
		return &App{Op: OpNeg, Args: []Expr{randExpr(r, depth-1, false)}}
	}
	return &App{Op: OpIte, Args: []Expr{randExpr(r, depth-1, true), randExpr(r, depth-1, false), randExpr(r, depth-1, false)}}
}

// TestRoundTrip converts random expressions to Z3 and back (plain and
// simplified) and compares them by evaluation and by the solver.
func TestRoundTrip(t *testing.T) {
	c := newCtx(t)
	c.SetTimeout(2000) // non-linear terms may leave Z3 unsure
	r := rand.New(rand.NewPCG(1, 2))
	for i := 0; i < 300; i++ {
		b := i%2 == 0
		e := randExpr(r, 4, b)
		back, err := c.roundTrip(e)
		if err != nil {
			t.Fatalf("roundTrip(%v): %v", e, err)
		}
		simp, err := c.Simplify(e)
		if err != nil {
			t.Fatalf("Simplify(%v): %v", e, err)
		}
		for _, got := range []Expr{back, simp} {
			for k := 0; k < 20; k++ {
				vals := map[string]int64{"x": int64(r.IntN(41) - 20), "y": int64(r.IntN(41) - 20), "z": int64(r.IntN(41) - 20)}
				env := func(n string) (int64, bool) { v, ok := vals[n]; return v, ok }
				want, err1 := Eval(e, env)
				if err1 != nil {
					continue // overflow
				}
				have, err2 := Eval(got, env)
				if err2 != nil || want != have {
					t.Fatalf("%v\n  came back as %v\n  at %v: %d (%v), want %d (%v)", e, got, vals, have, err2, want, err1)
				}
			}
			var same Expr
			if b {
				same = And(Implies(e, got), Implies(got, e))
			} else {
				same = Eq(e, got)
			}
			if ok, err := c.Valid(same); err == nil && !ok {
				t.Fatalf("%v and %v differ", e, got)
			}
		}
	}
}

// TestFromZ3Forms reads back the shapes Z3 produces.
func TestFromZ3Forms(t *testing.T) {
	c := newCtx(t)
	for _, tt := range []struct{ in, want Expr }{
		{Ne(x, y), Not(Eq(x, y))},               // distinct
		{Ge(Sub(x, N(-3)), N(0)), Ge(x, N(-3))}, // negative numerals
		{Le(Neg(x), y), Ge(Add(x, y), N(0))},    // unary minus
		{Implies(Lt(x, N(0)), Lt(y, N(0))), Or(Not(Lt(x, N(0))), Lt(y, N(0)))},
		{Eq(Ite(Lt(x, y), x, y), z), Eq(Ite(Lt(x, y), x, y), z)}, // ite
		{Eq(Div(x, N(4)), N(1)), Eq(Div(x, N(4)), N(1))},         // div back as euclid
		{And(Le(x, y), True, Le(y, x)), And(Le(x, y), Le(y, x))},
	} {
		for _, conv := range []func(Expr) (Expr, error){c.roundTrip, c.Simplify} {
			got, err := conv(tt.in)
			if err != nil {
				t.Fatalf("%v: %v", tt.in, err)
			}
			same := And(Implies(got, tt.want), Implies(tt.want, got))
			if ok, err := c.Valid(same); !ok || err != nil {
				t.Errorf("%v came back as %v, not like %v (%v)", tt.in, got, tt.want, err)
			}
		}
	}
	got, err := c.roundTrip(Ne(x, y))
	if a, ok := got.(*App); err != nil || !ok || a.Op != OpNe {
		t.Errorf("distinct came back as %v, %v", got, err)
	}
	s, err := c.Format(Eq(Mod(x, N(3)), N(-1)))
	if err != nil || !strings.Contains(s, "mod") || !strings.Contains(s, "(- 1)") {
		t.Errorf("Format: %q, %v", s, err)
	}
}

// TestCacheBounded converts many distinct nodes: the cache is emptied when
// it outgrows CacheLimit, and ClearCache empties it.
func TestCacheBounded(t *testing.T) {
	c := newCtx(t)
	peak := 0
	for i := 0; i < CacheLimit/2+100; i++ {
		if _, err := c.terms(Le(x, N(int64(i)))); err != nil {
			t.Fatal(err)
		}
		peak = max(peak, c.cacheSize())
	}
	if peak > CacheLimit+10 || c.cacheSize() > CacheLimit {
		t.Errorf("cache grew to %d (now %d)", peak, c.cacheSize())
	}
	// A cached node and an equal fresh one give the same answer.
	f := Le(x, N(3))
	for i := 0; i < 3; i++ {
		if r, err := c.Sat(And(f, Le(N(3), x), Ne(x, N(3)))); r != Unsat || err != nil {
			t.Fatal(r, err)
		}
	}
	c.ClearCache()
	if c.cacheSize() != 0 {
		t.Errorf("%d entries after ClearCache", c.cacheSize())
	}
	if r, err := c.Sat(And(f, Ge(x, N(3)))); r != Sat || err != nil {
		t.Fatal(r, err)
	}
}
