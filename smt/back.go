package smt

/*
#include "z3shim.h"
*/
import "C"

import (
	"fmt"
	"runtime"

	"fencer/expr"
)

// The conversion Z3 → expr.Expr walks a term with one crossing per distinct
// node (shim_node_info). It knows the shapes Z3 puts its formulas in after
// simplification; anything else is an error.

type reader struct {
	c    *Context
	memo map[C.Z3_ast]expr.Expr
	buf  []C.Z3_ast
}

// toExpr converts the term a, which the caller keeps alive.
func (c *Context) toExpr(a C.Z3_ast) (expr.Expr, error) {
	r := &reader{c: c, memo: map[C.Z3_ast]expr.Expr{}, buf: make([]C.Z3_ast, 16)}
	e, err := r.conv(a)
	runtime.KeepAlive(c)
	return e, err
}

// node reads one node and returns its description and a fresh copy of its
// arguments.
func (r *reader) node(a C.Z3_ast) (C.shim_node, string, []C.Z3_ast, error) {
	var info C.shim_node
	for {
		rc := C.shim_node_info(r.c.s, a, &info, &r.buf[0], C.int32_t(len(r.buf)))
		if rc != 0 {
			return info, "", nil, r.c.err(rc)
		}
		if int(info.nargs) <= len(r.buf) {
			break
		}
		r.buf = make([]C.Z3_ast, int(info.nargs))
	}
	name := ""
	if info.name != nil {
		name = C.GoString(info.name) // copied before any other Z3 call
	}
	args := append([]C.Z3_ast(nil), r.buf[:info.nargs]...)
	return info, name, args, nil
}

func (r *reader) conv(a C.Z3_ast) (expr.Expr, error) {
	if e, ok := r.memo[a]; ok {
		return e, nil
	}
	e, err := r.conv1(a)
	if err != nil {
		return nil, err
	}
	r.memo[a] = e
	return e, nil
}

func (r *reader) unsupported(a C.Z3_ast, what string) error {
	var p *C.char
	text := "?"
	if C.shim_ast_string(r.c.s, a, &p) == 0 {
		text = C.GoString(p)
	}
	return fmt.Errorf("smt: cannot convert %s from Z3: %s", what, text)
}

func (r *reader) conv1(a C.Z3_ast) (expr.Expr, error) {
	info, name, argv, err := r.node(a)
	if err != nil {
		return nil, err
	}
	switch info.kind {
	case C.Z3_NUMERAL_AST:
		if info.sort != C.Z3_INT_SORT {
			return nil, r.unsupported(a, "a non-integer numeral")
		}
		if info.fits == 0 {
			return nil, expr.ErrOverflow
		}
		return expr.N(int64(info.ival)), nil
	case C.Z3_APP_AST:
	case C.Z3_VAR_AST:
		return nil, r.unsupported(a, "a bound variable")
	case C.Z3_QUANTIFIER_AST:
		return nil, r.unsupported(a, "a quantifier")
	default:
		return nil, r.unsupported(a, "a term")
	}
	switch info.decl {
	case C.Z3_OP_TRUE:
		return expr.True, nil
	case C.Z3_OP_FALSE:
		return expr.False, nil
	case C.Z3_OP_UNINTERPRETED:
		if len(argv) != 0 || info.sort != C.Z3_INT_SORT || name == "" {
			return nil, r.unsupported(a, "an uninterpreted symbol")
		}
		return expr.V(name), nil
	}
	args := make([]expr.Expr, len(argv))
	for i, x := range argv {
		if args[i], err = r.conv(x); err != nil {
			return nil, err
		}
	}
	n := len(args)
	switch info.decl {
	case C.Z3_OP_ADD:
		return fold(expr.Add, args), nil
	case C.Z3_OP_SUB:
		return fold(expr.Sub, args), nil
	case C.Z3_OP_MUL:
		return fold(expr.Mul, args), nil
	case C.Z3_OP_UMINUS:
		if n == 1 {
			return expr.Neg(args[0]), nil
		}
	case C.Z3_OP_LE:
		return cmp(expr.OpLe, args)
	case C.Z3_OP_GE:
		return cmp(expr.OpGe, args)
	case C.Z3_OP_LT:
		return cmp(expr.OpLt, args)
	case C.Z3_OP_GT:
		return cmp(expr.OpGt, args)
	case C.Z3_OP_EQ:
		if n == 2 && args[0].IsBool() {
			return iff(args[0], args[1]), nil
		}
		return cmp(expr.OpEq, args)
	case C.Z3_OP_DISTINCT:
		var ne []expr.Expr
		for i := range args {
			for j := i + 1; j < n; j++ {
				if args[i].IsBool() {
					ne = append(ne, expr.Not(iff(args[i], args[j])))
				} else {
					ne = append(ne, expr.Ne(args[i], args[j]))
				}
			}
		}
		return expr.And(ne...), nil
	case C.Z3_OP_NOT:
		if n == 1 {
			return expr.Not(args[0]), nil
		}
	case C.Z3_OP_AND:
		return expr.And(args...), nil
	case C.Z3_OP_OR:
		return expr.Or(args...), nil
	case C.Z3_OP_IMPLIES:
		if n == 2 {
			return expr.Implies(args[0], args[1]), nil
		}
	case C.Z3_OP_XOR:
		if n == 2 {
			return expr.Not(iff(args[0], args[1])), nil
		}
	case C.Z3_OP_ITE:
		if n == 3 {
			if args[1].IsBool() {
				return expr.Or(expr.And(args[0], args[1]), expr.And(expr.Not(args[0]), args[2])), nil
			}
			return expr.Ite(args[0], args[1], args[2]), nil
		}
	case C.Z3_OP_IDIV, C.Z3_OP_MOD:
		if d, ok := args[1].(expr.Int); ok && n == 2 && d.V != 0 && d.V != -1<<63 {
			return euclid(info.decl == C.Z3_OP_IDIV, args[0], d.V), nil
		}
	}
	return nil, r.unsupported(a, "an operator")
}

func fold(op func(x, y expr.Expr) expr.Expr, args []expr.Expr) expr.Expr {
	acc := args[0]
	for _, a := range args[1:] {
		acc = op(acc, a)
	}
	return acc
}

func cmp(op expr.Op, args []expr.Expr) (expr.Expr, error) {
	if len(args) != 2 {
		return nil, fmt.Errorf("smt: %v with %d arguments from Z3", op, len(args))
	}
	return expr.Cmp(op, args[0], args[1]), nil
}

func iff(a, b expr.Expr) expr.Expr {
	return expr.Or(expr.And(a, b), expr.And(expr.Not(a), expr.Not(b)))
}

// euclid writes Z3's euclidean x div d or x mod d (0 <= mod < |d|) with C's
// truncating operators: they differ when x is negative and not a multiple.
func euclid(div bool, x expr.Expr, d int64) expr.Expr {
	q, r := expr.Div(x, expr.N(d)), expr.Mod(x, expr.N(d))
	neg := expr.Lt(r, expr.Zero) // then q is one too far towards zero
	if div {
		step := int64(1)
		if d > 0 {
			step = -1
		}
		return expr.Ite(neg, expr.Add(q, expr.N(step)), q)
	}
	ad := d
	if ad < 0 {
		ad = -ad
	}
	return expr.Ite(neg, expr.Add(r, expr.N(ad)), r)
}
