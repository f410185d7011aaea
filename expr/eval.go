package expr

import (
	"errors"
	"fmt"
	"math"
)

const minInt = math.MinInt64

// ErrOverflow is returned by Eval when a value leaves the int64 range.
// fencer's integers are unbounded; the concrete checkers use int64 and say
// so instead of wrapping around.
var ErrOverflow = errors.New("integer value out of the 64-bit range")

// Eval computes the value of e under env, which gives the value of each
// variable. Booleans come back as 0 and 1. It fails on an unbound variable,
// on a division by zero and on overflow.
func Eval(e Expr, env func(name string) (int64, bool)) (int64, error) {
	switch x := e.(type) {
	case Int:
		return x.V, nil
	case Bool:
		return b2i(x.V), nil
	case Var:
		v, ok := env(x.Name)
		if !ok {
			return 0, fmt.Errorf("unbound variable %s", x.Name)
		}
		return v, nil
	case *App:
		return evalApp(x, env)
	}
	return 0, fmt.Errorf("unknown expression %T", e)
}

// Holds evaluates a formula.
func Holds(e Expr, env func(name string) (int64, bool)) (bool, error) {
	v, err := Eval(e, env)
	return v != 0, err
}

func b2i(b bool) int64 {
	if b {
		return 1
	}
	return 0
}

func evalApp(x *App, env func(string) (int64, bool)) (int64, error) {
	switch x.Op {
	case OpAnd, OpOr:
		want := x.Op == OpOr // the value that decides the junction
		for _, a := range x.Args {
			v, err := Eval(a, env)
			if err != nil {
				return 0, err
			}
			if (v != 0) == want {
				return b2i(want), nil
			}
		}
		return b2i(!want), nil
	case OpIte:
		c, err := Eval(x.Args[0], env)
		if err != nil {
			return 0, err
		}
		if c != 0 {
			return Eval(x.Args[1], env)
		}
		return Eval(x.Args[2], env)
	}
	vals := make([]int64, len(x.Args))
	for i, a := range x.Args {
		v, err := Eval(a, env)
		if err != nil {
			return 0, err
		}
		vals[i] = v
	}
	switch x.Op {
	case OpAdd:
		s := vals[0]
		for _, v := range vals[1:] {
			var ok bool
			if s, ok = addOK(s, v); !ok {
				return 0, ErrOverflow
			}
		}
		return s, nil
	case OpSub:
		return checked(subOK(vals[0], vals[1]))
	case OpMul:
		return checked(mulOK(vals[0], vals[1]))
	case OpDiv, OpMod:
		if vals[1] == 0 {
			return 0, errors.New("division by zero")
		}
		if vals[0] == minInt && vals[1] == -1 {
			return 0, ErrOverflow
		}
		if x.Op == OpDiv {
			return vals[0] / vals[1], nil
		}
		return vals[0] % vals[1], nil
	case OpNeg:
		return checked(subOK(0, vals[0]))
	case OpEq, OpNe, OpLt, OpLe, OpGt, OpGe:
		return b2i(compare(x.Op, vals[0], vals[1])), nil
	case OpNot:
		return b2i(vals[0] == 0), nil
	case OpImplies:
		return b2i(vals[0] == 0 || vals[1] != 0), nil
	}
	return 0, fmt.Errorf("unknown operator %v", x.Op)
}

func checked(v int64, ok bool) (int64, error) {
	if !ok {
		return 0, ErrOverflow
	}
	return v, nil
}

func addOK(a, b int64) (int64, bool) {
	s := a + b
	return s, (s > a) == (b > 0) || b == 0
}

func subOK(a, b int64) (int64, bool) {
	s := a - b
	return s, (s < a) == (b > 0) || b == 0
}

func mulOK(a, b int64) (int64, bool) {
	if a == 0 || b == 0 {
		return 0, true
	}
	p := a * b
	if p/b != a || (a == -1 && b == minInt) || (b == -1 && a == minInt) {
		return 0, false
	}
	return p, true
}
