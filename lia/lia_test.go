package lia

import (
	"fmt"
	"testing"

	"pgregory.net/rapid"

	"fencer/expr"
	"fencer/smt"
	"fencer/smt/answer"
)

var x, y, z, w = expr.V("x"), expr.V("y"), expr.V("z"), expr.V("w")

func check(t *testing.T, fs ...expr.Expr) (answer.Answer, *Solver) {
	t.Helper()
	s := New(nil)
	for _, f := range fs {
		if err := s.Assert(f); err != nil {
			t.Fatal(err)
		}
	}
	ans, err := s.Check()
	if err != nil {
		t.Fatal(err)
	}
	return ans, s
}

func TestDecides(t *testing.T) {
	tests := []struct {
		f    expr.Expr
		want answer.Answer
	}{
		{expr.And(expr.Lt(x, y), expr.Lt(y, z), expr.Lt(z, x)), answer.Unsat},
		{expr.And(expr.Lt(x, y), expr.Lt(y, z)), answer.Sat},
		{expr.And(expr.Le(x, y), expr.Le(y, x), expr.Ne(x, y)), answer.Unsat},
		{expr.And(expr.Ge(x, N(0)), expr.Le(x, N(0)), expr.Or(expr.Eq(x, N(1)), expr.Eq(x, N(-1)))), answer.Unsat},
		{expr.And(expr.Gt(expr.Add(x, y), expr.Add(z, w)), expr.Le(x, z), expr.Le(y, w)), answer.Unsat},
		{expr.And(expr.Gt(expr.Add(x, y), expr.Add(z, w)), expr.Le(x, z)), answer.Sat},
		// Rationally satisfiable, not over the integers: 2x = 1.
		{expr.Eq(expr.Mul(N(2), x), N(1)), answer.Unsat},
		// 0 < 2x - 2y < 2 has no integer solution; tightening finds it.
		{expr.And(expr.Lt(N(0), expr.Sub(expr.Mul(N(2), x), expr.Mul(N(2), y))), expr.Lt(expr.Sub(expr.Mul(N(2), x), expr.Mul(N(2), y)), N(2))), answer.Unsat},
		{expr.Eq(expr.Ite(expr.Lt(x, N(0)), N(5), y), N(7)), answer.Sat},
		{expr.And(expr.Lt(x, N(0)), expr.Eq(expr.Ite(expr.Lt(x, N(0)), N(5), y), N(7))), answer.Unsat},
		{expr.Implies(expr.Lt(x, y), expr.Lt(y, x)), answer.Sat},
		{expr.Not(expr.Implies(expr.Lt(x, y), expr.Le(x, y))), answer.Unsat},
	}
	for _, tc := range tests {
		got, s := check(t, tc.f)
		if got != tc.want {
			t.Errorf("%v: %v, want %v (stats %+v)", tc.f, got, tc.want, s.Stats)
		}
	}
}

func N(v int64) expr.Expr { return expr.N(v) }

func TestOutsideFragmentIsUnknownWithoutFallback(t *testing.T) {
	for _, f := range []expr.Expr{
		expr.Eq(expr.Mul(x, y), N(6)),
		expr.Eq(expr.Mod(x, N(3)), N(1)),
	} {
		if got, _ := check(t, f); got != answer.Unknown {
			t.Errorf("%v: %v, want unknown", f, got)
		}
	}
}

// recorder is a fallback that records the scope depth and the formulas it
// holds, and answers Sat.
type recorder struct {
	scopes [][]string
	checks int
}

func (r *recorder) Push() error { r.scopes = append(r.scopes, nil); return nil }
func (r *recorder) Pop() error  { r.scopes = r.scopes[:len(r.scopes)-1]; return nil }
func (r *recorder) Assert(f expr.Expr) error {
	top := len(r.scopes) - 1
	r.scopes[top] = append(r.scopes[top], f.String())
	return nil
}
func (r *recorder) Check() (answer.Answer, error) { r.checks++; return answer.Sat, nil }

// The fallback sees exactly the open scopes when a query goes to it, and
// its scopes are closed with ours.
func TestFallbackMirrorsScopes(t *testing.T) {
	r := &recorder{scopes: [][]string{nil}}
	s := New(r)
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(s.Assert(expr.Lt(x, y)))
	must(s.Push())
	must(s.Assert(expr.Lt(y, z)))
	if ans, _ := s.Check(); ans != answer.Sat || r.checks != 0 {
		t.Fatalf("difference query: %v, fallback checks %d", ans, r.checks)
	}
	must(s.Push())
	must(s.Assert(expr.Eq(expr.Mul(x, z), N(4))))
	if ans, _ := s.Check(); ans != answer.Sat || r.checks != 1 {
		t.Fatalf("non-linear query: %v, fallback checks %d", ans, r.checks)
	}
	want := fmt.Sprint([][]string{{"(x < y)"}, {"(y < z)"}, {"((x * z) == 4)"}})
	if got := fmt.Sprint(r.scopes); got != want {
		t.Fatalf("fallback scopes %s, want %s", got, want)
	}
	// Asserting into a mirrored scope reaches the fallback too.
	must(s.Assert(expr.Gt(x, N(0))))
	must(s.Pop())
	must(s.Pop())
	if len(r.scopes) != 1 {
		t.Fatalf("fallback has %d scopes after the pops, want 1", len(r.scopes))
	}
	must(s.Push())
	must(s.Assert(expr.Gt(x, y)))
	if ans, _ := s.Check(); ans != answer.Unsat || r.checks != 1 {
		t.Fatalf("x<y ∧ x>y: %v, fallback checks %d", ans, r.checks)
	}
	if err := New(nil).Pop(); err == nil {
		t.Error("pop without push: no error")
	}
}

// genTerm draws a linear term over four variables, sometimes with an ite.
func genTerm(t *rapid.T, depth int) expr.Expr {
	vars := []expr.Expr{x, y, z, w}
	switch k := rapid.IntRange(0, 5).Draw(t, "term"); {
	case k == 0:
		return N(rapid.Int64Range(-3, 3).Draw(t, "c"))
	case k <= 2:
		return vars[rapid.IntRange(0, 3).Draw(t, "v")]
	case k == 3 && depth > 0:
		return expr.Add(genTerm(t, depth-1), genTerm(t, depth-1))
	case k == 4 && depth > 0:
		return expr.Mul(N(rapid.Int64Range(-2, 3).Draw(t, "f")), genTerm(t, depth-1))
	case depth > 0:
		return expr.Ite(genFormula(t, 0), genTerm(t, depth-1), genTerm(t, depth-1))
	}
	return vars[rapid.IntRange(0, 3).Draw(t, "v")]
}

func genFormula(t *rapid.T, depth int) expr.Expr {
	ops := []expr.Op{expr.OpEq, expr.OpNe, expr.OpLt, expr.OpLe, expr.OpGt, expr.OpGe}
	k := rapid.IntRange(0, 5).Draw(t, "formula")
	if depth == 0 || k <= 2 {
		return expr.Cmp(ops[rapid.IntRange(0, 5).Draw(t, "op")], genTerm(t, 1), genTerm(t, 1))
	}
	switch k {
	case 3:
		return expr.And(genFormula(t, depth-1), genFormula(t, depth-1))
	case 4:
		return expr.Or(genFormula(t, depth-1), genFormula(t, depth-1))
	}
	return expr.Not(genFormula(t, depth-1))
}

// Every answer the package gives agrees with Z3's on random formulas in
// scopes, and it decides most of them.
func TestAgreesWithZ3(t *testing.T) {
	ctx, err := smt.NewContext()
	if err != nil {
		t.Fatal(err)
	}
	defer ctx.Close()
	var decided, asked int
	rapid.Check(t, func(t *rapid.T) {
		z3, err := ctx.NewSolver()
		if err != nil {
			t.Fatal(err)
		}
		defer z3.Close()
		s := New(nil)
		n := rapid.IntRange(1, 3).Draw(t, "scopes")
		for i := 0; i < n; i++ {
			s.Push()
			z3.Push()
			for j := rapid.IntRange(1, 4).Draw(t, "formulas"); j > 0; j-- {
				f := genFormula(t, 2)
				s.Assert(f)
				z3.Assert(f)
			}
			got, err := s.Check()
			if err != nil {
				t.Fatal(err)
			}
			want, err := z3.Check()
			if err != nil {
				t.Fatal(err)
			}
			asked++
			if got != answer.Unknown {
				decided++
				if got != want {
					t.Fatalf("scope %d: lia says %v, Z3 says %v", i, got, want)
				}
			}
			if s.Stats.Rejected > 0 {
				t.Fatalf("a model was rejected")
			}
		}
		// Close a scope and ask again: what is known of the scopes below
		// must still be right.
		if n > 1 {
			s.Pop()
			z3.Pop()
			got, _ := s.Check()
			want, _ := z3.Check()
			if got != answer.Unknown && got != want {
				t.Fatalf("after pop: lia says %v, Z3 says %v", got, want)
			}
		}
	})
	t.Logf("decided %d of %d queries", decided, asked)
	if decided*10 < asked*9 {
		t.Errorf("decided only %d of %d queries", decided, asked)
	}
}
