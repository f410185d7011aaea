package refsem

import (
	"math"

	"fencer/cs"
)

// Name resolution, constant evaluation and arithmetic.

// lookup resolves a name innermost first: for/template index, local,
// shared, const. Exactly one of the results is set (or none: undefined).
func (c *compiler) lookup(name string) (idx *int64, local, shared *varInfo, cnst *int64) {
	for k := len(c.idx) - 1; k >= 0; k-- {
		if c.idx[k].name == name {
			v := c.idx[k].val
			return &v, nil, nil, nil
		}
	}
	if c.p != nil {
		if vi, ok := c.locals[name]; ok {
			return nil, &vi, nil, nil
		}
	}
	if vi, ok := c.shared[name]; ok {
		return nil, nil, &vi, nil
	}
	if v, ok := c.consts[name]; ok {
		return nil, nil, nil, &v
	}
	return nil, nil, nil, nil
}

// variable resolves a variable or array element: its slot, whether it is
// shared, and ok.
func (c *compiler) variable(e cs.Expr) (slot int, shared, ok bool) {
	var id *cs.Ident
	var index cs.Expr
	switch e := e.(type) {
	case *cs.Ident:
		id = e
	case *cs.IndexExpr:
		id, index = e.X, e.Index
	default:
		c.errorf(e.Pos(), "expected a variable")
		return 0, false, false
	}
	_, lv, sv, _ := c.lookup(id.Name)
	vi := lv
	if sv != nil {
		vi, shared = sv, true
	}
	if vi == nil {
		c.errorf(id.Pos(), "%s is not a variable", id.Name)
		return 0, false, false
	}
	if (index != nil) != (vi.size >= 0) {
		if index == nil {
			c.errorf(id.Pos(), "array %s needs an index", id.Name)
		} else {
			c.errorf(id.Pos(), "%s is not an array", id.Name)
		}
		return 0, false, false
	}
	if index == nil {
		return vi.base, shared, true
	}
	k, ok := c.constExpr(index)
	if !ok {
		return 0, false, false
	}
	if k < 0 || k >= int64(vi.size) {
		c.errorf(index.Pos(), "index %d out of range [0, %d)", k, vi.size)
		return 0, false, false
	}
	return vi.base + int(k), shared, true
}

func (c *compiler) lvalue(e cs.Expr) (slot int, shared, ok bool) { return c.variable(e) }

// expr resolves a run-time expression; the shared variables it reads are
// appended to *reads in order (reads is nil inside atomic, where shared
// variables are read from memory as part of the one step).
func (c *compiler) expr(e cs.Expr, reads *[]int) *expr {
	switch e := e.(type) {
	case *cs.ParenExpr:
		return c.expr(e.X, reads)
	case *cs.IntLit:
		c.addValue(e.Value)
		return &expr{kind: eConst, val: e.Value}
	case *cs.BoolLit:
		return &expr{kind: eConst, val: b2i(e.Value)}
	case *cs.Ident, *cs.IndexExpr:
		if id, ok := e.(*cs.Ident); ok {
			iv, lv, sv, cv := c.lookup(id.Name)
			switch {
			case iv != nil:
				return &expr{kind: eConst, val: *iv}
			case cv != nil:
				return &expr{kind: eConst, val: *cv}
			case lv == nil && sv == nil:
				c.errorf(id.Pos(), "undefined: %s", id.Name)
				return &expr{kind: eConst}
			}
		}
		slot, shared, ok := c.variable(e)
		switch {
		case !ok:
			return &expr{kind: eConst}
		case !shared:
			return &expr{kind: eLocal, idx: slot}
		case reads == nil:
			return &expr{kind: eShared, idx: slot}
		}
		*reads = append(*reads, slot)
		return &expr{kind: eRead, idx: len(*reads) - 1}
	case *cs.UnaryExpr:
		x := c.expr(e.X, reads)
		if x.kind == eConst {
			v, ok := unop(e.Op, x.val)
			if !ok {
				c.errorf(e.Pos(), "overflow")
			}
			return &expr{kind: eConst, val: v}
		}
		return &expr{kind: eUnary, op: e.Op, x: x}
	case *cs.BinaryExpr:
		x := c.expr(e.X, reads)
		y := c.expr(e.Y, reads)
		if e.Op == cs.QUO || e.Op == cs.REM {
			if y.kind != eConst {
				c.errorf(e.OpPos, "%s needs a constant right operand", e.Op)
				return &expr{kind: eConst}
			}
			if y.val == 0 {
				c.errorf(e.OpPos, "division by zero")
				return &expr{kind: eConst}
			}
		}
		if x.kind == eConst && y.kind == eConst {
			v, ok := binop(e.Op, x.val, y.val)
			if !ok {
				c.errorf(e.OpPos, "overflow")
			}
			return &expr{kind: eConst, val: v}
		}
		return &expr{kind: eBinary, op: e.Op, x: x, y: y}
	}
	c.errorf(e.Pos(), "bad expression")
	return &expr{kind: eConst}
}

// constExpr evaluates an expression that must be constant: literals,
// constants and for/template indices (a local or shared variable is an
// error).
func (c *compiler) constExpr(e cs.Expr) (int64, bool) {
	n := len(c.errs)
	x := c.expr(e, nil)
	if len(c.errs) > n {
		return 0, false
	}
	if x.kind != eConst {
		c.errorf(e.Pos(), "not a constant")
		return 0, false
	}
	return x.val, true
}

func b2i(b bool) int64 {
	if b {
		return 1
	}
	return 0
}

// unary and binary compute on mathematical integers within int64; ok is
// false on overflow.
func unop(op cs.Token, x int64) (int64, bool) {
	switch op {
	case cs.SUB:
		return -x, x != math.MinInt64
	case cs.NOT:
		return b2i(x == 0), true
	}
	panic("refsem: unary " + op.String())
}

func binop(op cs.Token, x, y int64) (int64, bool) {
	switch op {
	case cs.ADD:
		s := x + y
		return s, (s > x) == (y > 0)
	case cs.SUB:
		d := x - y
		return d, (d < x) == (y > 0)
	case cs.MUL:
		if x == 0 || y == 0 {
			return 0, true
		}
		p := x * y
		return p, p/y == x && !(x == -1 && y == math.MinInt64) && !(y == -1 && x == math.MinInt64)
	case cs.QUO:
		return x / y, !(x == math.MinInt64 && y == -1)
	case cs.REM:
		if y == -1 {
			return 0, true
		}
		return x % y, true
	case cs.EQL:
		return b2i(x == y), true
	case cs.NEQ:
		return b2i(x != y), true
	case cs.LSS:
		return b2i(x < y), true
	case cs.LEQ:
		return b2i(x <= y), true
	case cs.GTR:
		return b2i(x > y), true
	case cs.GEQ:
		return b2i(x >= y), true
	case cs.LAND:
		return b2i(x != 0 && y != 0), true
	case cs.LOR:
		return b2i(x != 0 || y != 0), true
	}
	panic("refsem: binary " + op.String())
}
