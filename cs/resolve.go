package cs

import (
	"fmt"
	"math"
)

// This file resolves names and evaluates constant expressions.

// constInfo is a const declaration.
type constInfo struct {
	decl  *ConstDecl
	value int64
	state int // 0: not evaluated yet, 1: being evaluated, 2: done
}

// varInfo is a declared shared or local variable (scalar or array).
type varInfo struct {
	name  string // the IR name of the scalar, or the prefix of the elements
	size  int    // -1 for a scalar
	pos   Pos
	local bool
}

// binding is a for or template index with its current value.
type binding struct {
	name     string
	value    int64
	template bool
}

type refKind int

const (
	refBad    refKind = iota // an error has been reported
	refConst                 // a const or an index: value
	refIndex                 // a for or template index: value
	refLocal                 // a local scalar: name
	refShared                // a shared scalar: name
)

// ref is what a variable reference (an *Ident or an *IndexExpr) denotes.
type ref struct {
	kind  refKind
	name  string // refLocal, refShared: the IR name; refConst, refIndex: source name
	value int64
	tmpl  bool // refIndex: a template index
}

// status of a constant evaluation.
type constStatus int

const (
	isConst  constStatus = iota
	notConst             // mentions a variable
	failed               // an error has been reported
)

// scope is the names of the process being lowered, which hide the shared
// variables and consts of the same name.
type scope struct {
	locals map[string]*varInfo
	idx    []binding // template and for indices, innermost last
}

// lookup finds name innermost first: index, local, shared, const.
func (l *lowerer) lookup(name string) (b *binding, v *varInfo, c *constInfo) {
	idx := l.scope.idx
	for i := len(idx) - 1; i >= 0; i-- {
		if idx[i].name == name {
			return &idx[i], nil, nil
		}
	}
	if v := l.scope.locals[name]; v != nil {
		return nil, v, nil
	}
	if v := l.shared[name]; v != nil {
		return nil, v, nil
	}
	if c := l.consts[name]; c != nil {
		return nil, nil, c
	}
	return nil, nil, nil
}

// constValue returns the value of a const, reporting a use before the
// declaration while consts are being evaluated.
func (l *lowerer) constValue(id *Ident, c *constInfo) (int64, constStatus) {
	switch c.state {
	case 2:
		return c.value, isConst
	case 1:
		l.errorf(id.Pos(), "constant %s is defined in terms of itself", id.Name)
	default:
		l.errorf(id.Pos(), "constant %s used before its declaration (line %d)", id.Name, l.file.Line(c.decl.Pos()))
	}
	return 0, failed
}

// resolve returns what the variable reference e denotes; arrays must be
// indexed by a constant within bounds, scalars must not be indexed.
func (l *lowerer) resolve(e Expr) ref {
	switch e := e.(type) {
	case *ParenExpr:
		return l.resolve(e.X)
	case *Ident:
		b, v, c := l.lookup(e.Name)
		switch {
		case b != nil:
			return ref{kind: refIndex, name: e.Name, value: b.value, tmpl: b.template}
		case v != nil:
			if v.size >= 0 {
				l.errorf(e.Pos(), "array %s used without an index", e.Name)
				return ref{}
			}
			if v.local {
				return ref{kind: refLocal, name: v.name}
			}
			return ref{kind: refShared, name: v.name}
		case c != nil:
			val, st := l.constValue(e, c)
			if st != isConst {
				return ref{}
			}
			return ref{kind: refConst, name: e.Name, value: val}
		}
		l.errorf(e.Pos(), "undefined: %s", e.Name)
		return ref{}
	case *IndexExpr:
		b, v, c := l.lookup(e.X.Name)
		switch {
		case b != nil, c != nil:
			l.errorf(e.X.Pos(), "%s is a constant, not an array", e.X.Name)
			return ref{}
		case v == nil:
			l.errorf(e.X.Pos(), "undefined: %s", e.X.Name)
			return ref{}
		case v.size < 0:
			l.errorf(e.X.Pos(), "%s is not an array", e.X.Name)
			return ref{}
		}
		i, st := l.evalConst(e.Index)
		switch st {
		case notConst:
			l.errorf(e.Index.Pos(), "non-constant array index %s[...]: an index must be constant after template instantiation", e.X.Name)
			return ref{}
		case failed:
			return ref{}
		}
		if i < 0 || i >= int64(v.size) {
			l.errorf(e.Index.Pos(), "index %d out of range for %s[%d]", i, e.X.Name, v.size)
			return ref{}
		}
		r := ref{kind: refShared, name: fmt.Sprintf("%s[%d]", v.name, i)}
		if v.local {
			r.kind = refLocal
		}
		return r
	}
	l.errorf(e.Pos(), "expected a variable")
	return ref{}
}

// evalConst evaluates e if it is a constant expression. Errors (undefined
// names, division by zero, overflow) are reported and give failed; a
// mention of a variable gives notConst.
func (l *lowerer) evalConst(e Expr) (int64, constStatus) {
	switch e := e.(type) {
	case *IntLit:
		return e.Value, isConst
	case *BoolLit:
		if e.Value {
			return 1, isConst
		}
		return 0, isConst
	case *ParenExpr:
		return l.evalConst(e.X)
	case *Ident:
		b, v, c := l.lookup(e.Name)
		switch {
		case b != nil:
			return b.value, isConst
		case v != nil:
			if v.size >= 0 {
				l.errorf(e.Pos(), "array %s used without an index", e.Name)
				return 0, failed
			}
			return 0, notConst
		case c != nil:
			return l.constValue(e, c)
		}
		l.errorf(e.Pos(), "undefined: %s", e.Name)
		return 0, failed
	case *IndexExpr:
		if r := l.resolve(e); r.kind == refBad {
			return 0, failed
		}
		return 0, notConst
	case *UnaryExpr:
		x, st := l.evalConst(e.X)
		if st != isConst {
			return 0, st
		}
		if e.Op == NOT {
			return b2i(x == 0), isConst
		}
		if x == math.MinInt64 {
			l.errorf(e.Pos(), "constant overflow")
			return 0, failed
		}
		return -x, isConst
	case *BinaryExpr:
		x, sx := l.evalConst(e.X)
		y, sy := l.evalConst(e.Y)
		switch {
		case sx == failed || sy == failed:
			return 0, failed
		case sx == notConst || sy == notConst:
			return 0, notConst
		}
		v, ok, msg := constBinary(e.Op, x, y)
		if !ok {
			l.errorf(e.OpPos, "%s", msg)
			return 0, failed
		}
		return v, isConst
	case *StarExpr, *CallExpr, *BadExpr:
		return 0, failed // syntax errors, reported by the parser
	}
	return 0, failed
}

func b2i(b bool) int64 {
	if b {
		return 1
	}
	return 0
}

// constBinary computes x op y with C semantics, failing on overflow and
// division by zero.
func constBinary(op Token, x, y int64) (int64, bool, string) {
	const overflow = "constant overflow (beyond 64 bits)"
	switch op {
	case ADD:
		s := x + y
		if (s > x) != (y > 0) && y != 0 {
			return 0, false, overflow
		}
		return s, true, ""
	case SUB:
		s := x - y
		if (s < x) != (y > 0) && y != 0 {
			return 0, false, overflow
		}
		return s, true, ""
	case MUL:
		if x == 0 || y == 0 {
			return 0, true, ""
		}
		p := x * y
		if p/y != x || (x == -1 && y == math.MinInt64) || (y == -1 && x == math.MinInt64) {
			return 0, false, overflow
		}
		return p, true, ""
	case QUO, REM:
		if y == 0 {
			return 0, false, "division by zero"
		}
		if x == math.MinInt64 && y == -1 {
			return 0, false, overflow
		}
		if op == QUO {
			return x / y, true, ""
		}
		return x % y, true, ""
	case EQL:
		return b2i(x == y), true, ""
	case NEQ:
		return b2i(x != y), true, ""
	case LSS:
		return b2i(x < y), true, ""
	case LEQ:
		return b2i(x <= y), true, ""
	case GTR:
		return b2i(x > y), true, ""
	case GEQ:
		return b2i(x >= y), true, ""
	case LAND:
		return b2i(x != 0 && y != 0), true, ""
	case LOR:
		return b2i(x != 0 || y != 0), true, ""
	}
	return 0, false, "unknown operator " + op.String()
}

// constExpr evaluates e, which must be constant; what names the context in
// the error ("array size").
func (l *lowerer) constExpr(e Expr, what string) (int64, bool) {
	v, st := l.evalConst(e)
	switch st {
	case notConst:
		l.errorf(e.Pos(), "%s must be constant", what)
		return 0, false
	case failed:
		return 0, false
	}
	return v, true
}
