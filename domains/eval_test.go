package domains

import (
	"math"
	"testing"

	"fencer/expr"
)

// compile gives what expr.Eval gives on comparisons, sums and differences
// of two operands (compileLeaves) and of deeper expressions (compileApp),
// overflow included: ok is false where Eval fails.
func TestCompileAgainstEval(t *testing.T) {
	vals := []int64{0, 1, -1, 2, 63, -64, math.MaxInt64, math.MinInt64, math.MaxInt64 - 1, math.MinInt64 + 1}
	pos := map[string]int{"a": 0, "b": 1}
	idx := func(n string) (int, bool) { i, ok := pos[n]; return i, ok }
	leaves := []expr.Expr{expr.Var{Name: "a"}, expr.Var{Name: "b"}, expr.Int{V: 0}, expr.Int{V: 1}, expr.Int{V: -1}, expr.Int{V: math.MaxInt64}, expr.Int{V: math.MinInt64}}
	ops := []expr.Op{expr.OpEq, expr.OpNe, expr.OpLt, expr.OpLe, expr.OpGt, expr.OpGe, expr.OpAdd, expr.OpSub, expr.OpMul}
	var es []expr.Expr
	for _, op := range ops {
		for _, x := range leaves {
			for _, y := range leaves {
				leaf := &expr.App{Op: op, Args: []expr.Expr{x, y}}
				es = append(es, leaf, &expr.App{Op: op, Args: []expr.Expr{leaf, y}})
			}
		}
	}
	for _, e := range es {
		f, err := compile(e, idx)
		if err != nil {
			t.Fatalf("%v: %v", e, err)
		}
		for _, a := range vals {
			for _, b := range vals {
				v := []int64{a, b}
				got, ok := f(v)
				want, werr := expr.Eval(e, func(n string) (int64, bool) { i, ok := pos[n]; return v[i], ok })
				if ok != (werr == nil) || ok && got != want {
					t.Fatalf("%v at a=%d b=%d: compiled %d (ok %v), Eval %d (%v)", e, a, b, got, ok, want, werr)
				}
			}
		}
	}
}
