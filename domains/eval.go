package domains

import (
	"fmt"
	"math"

	"fencer/expr"
)

// evalFn computes an integer (booleans as 0 and 1) from a value vector; ok
// is false on overflow or division by zero.
type evalFn func(v []int64) (int64, bool)

// compile turns e into a function of the value vector, with idx giving each
// variable's position. It fails when a variable has no position.
func compile(e expr.Expr, idx func(string) (int, bool)) (evalFn, error) {
	switch x := e.(type) {
	case expr.Int:
		c := x.V
		return func([]int64) (int64, bool) { return c, true }, nil
	case expr.Bool:
		c := b2i(x.V)
		return func([]int64) (int64, bool) { return c, true }, nil
	case expr.Var:
		i, ok := idx(x.Name)
		if !ok {
			return nil, fmt.Errorf("variable %s has no explicit value", x.Name)
		}
		return func(v []int64) (int64, bool) { return v[i], true }, nil
	case *expr.App:
		if f := compileLeaves(x, idx); f != nil {
			return f, nil
		}
		args := make([]evalFn, len(x.Args))
		for i, a := range x.Args {
			f, err := compile(a, idx)
			if err != nil {
				return nil, err
			}
			args[i] = f
		}
		return compileApp(x.Op, args)
	}
	return nil, fmt.Errorf("unknown expression %T", e)
}

// operand is a variable's position, or a constant when i < 0: what
// compileLeaves reads without a call of its own.
type operand struct {
	i int
	c int64
}

func (o operand) of(v []int64) int64 {
	if o.i >= 0 {
		return v[o.i]
	}
	return o.c
}

// operandOf returns e as an operand, false when it is not a variable with
// a position or a constant.
func operandOf(e expr.Expr, idx func(string) (int, bool)) (operand, bool) {
	switch x := e.(type) {
	case expr.Int:
		return operand{-1, x.V}, true
	case expr.Var:
		if i, ok := idx(x.Name); ok {
			return operand{i, 0}, true
		}
	}
	return operand{}, false
}

// compileLeaves compiles a comparison, sum or difference of two operands
// (x == 0, r + 1: most guards and assignments of an exploration) into one
// function, without the calls of compileApp's for each operand and for
// the operator; nil for any other expression.
func compileLeaves(x *expr.App, idx func(string) (int, bool)) evalFn {
	if len(x.Args) != 2 {
		return nil
	}
	a, ok1 := operandOf(x.Args[0], idx)
	b, ok2 := operandOf(x.Args[1], idx)
	if !ok1 || !ok2 {
		return nil
	}
	switch x.Op {
	case expr.OpEq:
		return func(v []int64) (int64, bool) { return b2i(a.of(v) == b.of(v)), true }
	case expr.OpNe:
		return func(v []int64) (int64, bool) { return b2i(a.of(v) != b.of(v)), true }
	case expr.OpLt:
		return func(v []int64) (int64, bool) { return b2i(a.of(v) < b.of(v)), true }
	case expr.OpLe:
		return func(v []int64) (int64, bool) { return b2i(a.of(v) <= b.of(v)), true }
	case expr.OpGt:
		return func(v []int64) (int64, bool) { return b2i(a.of(v) > b.of(v)), true }
	case expr.OpGe:
		return func(v []int64) (int64, bool) { return b2i(a.of(v) >= b.of(v)), true }
	case expr.OpAdd:
		return func(v []int64) (int64, bool) {
			x, y := a.of(v), b.of(v)
			r := x + y
			return r, (r > x) == (y > 0) || y == 0
		}
	case expr.OpSub:
		return func(v []int64) (int64, bool) {
			x, y := a.of(v), b.of(v)
			r := x - y
			return r, (r < x) == (y > 0) || y == 0
		}
	}
	return nil
}

func compileApp(op expr.Op, args []evalFn) (evalFn, error) {
	switch op {
	case expr.OpAnd, expr.OpOr:
		want := op == expr.OpOr
		return func(v []int64) (int64, bool) {
			for _, a := range args {
				x, ok := a(v)
				if !ok {
					return 0, false
				}
				if (x != 0) == want {
					return b2i(want), true
				}
			}
			return b2i(!want), true
		}, nil
	case expr.OpIte:
		c, t, f := args[0], args[1], args[2]
		return func(v []int64) (int64, bool) {
			x, ok := c(v)
			if !ok {
				return 0, false
			}
			if x != 0 {
				return t(v)
			}
			return f(v)
		}, nil
	case expr.OpAdd:
		return func(v []int64) (int64, bool) {
			s, ok := args[0](v)
			for _, a := range args[1:] {
				y, ok2 := a(v)
				if !ok || !ok2 {
					return 0, false
				}
				r := s + y
				if (r > s) != (y > 0) && y != 0 {
					return 0, false
				}
				s = r
			}
			return s, ok
		}, nil
	case expr.OpNeg, expr.OpNot:
		a := args[0]
		if op == expr.OpNot {
			return func(v []int64) (int64, bool) { x, ok := a(v); return b2i(x == 0), ok }, nil
		}
		return func(v []int64) (int64, bool) {
			x, ok := a(v)
			return -x, ok && x != math.MinInt64
		}, nil
	}
	if len(args) != 2 {
		return nil, fmt.Errorf("operator %v with %d arguments", op, len(args))
	}
	a, b := args[0], args[1]
	bin := func(f func(x, y int64) (int64, bool)) evalFn {
		return func(v []int64) (int64, bool) {
			x, ok1 := a(v)
			y, ok2 := b(v)
			if !ok1 || !ok2 {
				return 0, false
			}
			return f(x, y)
		}
	}
	switch op {
	case expr.OpSub:
		return bin(func(x, y int64) (int64, bool) {
			r := x - y
			return r, (r < x) == (y > 0) || y == 0
		}), nil
	case expr.OpMul:
		return bin(func(x, y int64) (int64, bool) {
			if x == 0 || y == 0 {
				return 0, true
			}
			r := x * y
			return r, r/y == x && !(x == -1 && y == math.MinInt64) && !(y == -1 && x == math.MinInt64)
		}), nil
	case expr.OpDiv, expr.OpMod:
		div := op == expr.OpDiv
		return bin(func(x, y int64) (int64, bool) {
			if y == 0 || x == math.MinInt64 && y == -1 {
				return 0, false
			}
			if div {
				return x / y, true
			}
			return x % y, true
		}), nil
	case expr.OpEq:
		return bin(func(x, y int64) (int64, bool) { return b2i(x == y), true }), nil
	case expr.OpNe:
		return bin(func(x, y int64) (int64, bool) { return b2i(x != y), true }), nil
	case expr.OpLt:
		return bin(func(x, y int64) (int64, bool) { return b2i(x < y), true }), nil
	case expr.OpLe:
		return bin(func(x, y int64) (int64, bool) { return b2i(x <= y), true }), nil
	case expr.OpGt:
		return bin(func(x, y int64) (int64, bool) { return b2i(x > y), true }), nil
	case expr.OpGe:
		return bin(func(x, y int64) (int64, bool) { return b2i(x >= y), true }), nil
	case expr.OpImplies:
		return bin(func(x, y int64) (int64, bool) { return b2i(x == 0 || y != 0), true }), nil
	}
	return nil, fmt.Errorf("unknown operator %v", op)
}

func b2i(b bool) int64 {
	if b {
		return 1
	}
	return 0
}
