package cs

import (
	"fmt"

	"fencer/expr"
)

// This file lowers expressions. Every occurrence of a shared variable is
// one read into a fresh temporary, collected left to right in pl.ops, so
// that the formula left over mentions only locals and constants and the
// statement can emit the reads before its own effect.

// beginStmt starts a statement: temporaries count from $0 again.
func (pl *procLowerer) beginStmt(pos Pos) {
	pl.stmtPos = pos
	pl.temp = 0
	pl.ops = pl.ops[:0]
}

// newTemp returns the next temporary of the statement. Statements reuse
// the temporaries of the process, so each is added to proc.Locals once.
func (pl *procLowerer) newTemp() string {
	name := fmt.Sprintf("%s.$%d", pl.proc.Name, pl.temp)
	if pl.temp >= pl.nTemps {
		pl.countVars(1, pl.stmtPos)
		pl.proc.Locals = append(pl.proc.Locals, VarDecl{Name: name})
		pl.nTemps++
	}
	pl.temp++
	return name
}

// takeOps returns the pending reads and clears them.
func (pl *procLowerer) takeOps() []posOp {
	ops := append([]posOp(nil), pl.ops...)
	pl.ops = pl.ops[:0]
	return ops
}

func asInt(e expr.Expr) expr.Expr {
	if e.IsBool() {
		return expr.Ite(e, expr.One, expr.Zero)
	}
	return e
}

func asBool(e expr.Expr) expr.Expr {
	if e.IsBool() {
		return e
	}
	return expr.Ne(e, expr.Zero)
}

// intOps are the binary operators whose operands are integers.
var intOps = map[Token]func(x, y expr.Expr) expr.Expr{
	ADD: expr.Add, SUB: expr.Sub, MUL: expr.Mul, QUO: expr.Div, REM: expr.Mod,
	EQL: expr.Eq, NEQ: expr.Ne, LSS: expr.Lt, LEQ: expr.Le, GTR: expr.Gt, GEQ: expr.Ge,
}

// lowerExpr translates e; every shared variable becomes a read into a new
// temporary, appended to pl.ops (left to right).
func (pl *procLowerer) lowerExpr(e Expr) expr.Expr {
	switch e := e.(type) {
	case *IntLit:
		return expr.N(e.Value)
	case *BoolLit:
		return expr.N(b2i(e.Value))
	case *ParenExpr:
		return pl.lowerExpr(e.X)
	case *Ident, *IndexExpr:
		r := pl.resolve(e)
		switch r.kind {
		case refConst, refIndex:
			return expr.N(r.value)
		case refLocal:
			return expr.V(r.name)
		case refShared:
			t := pl.newTemp()
			pl.ops = append(pl.ops, posOp{Op{Kind: OpRead, Local: t, Shared: r.name}, e.Pos()})
			return expr.V(t)
		}
		return expr.Zero
	case *UnaryExpr:
		x := pl.lowerExpr(e.X)
		if e.Op == NOT {
			return expr.Not(asBool(x))
		}
		return expr.Neg(asInt(x))
	case *BinaryExpr:
		x := pl.lowerExpr(e.X)
		var y expr.Expr
		if e.Op == QUO || e.Op == REM {
			v, st := pl.evalConst(e.Y)
			switch {
			case st == notConst:
				pl.errorf(e.Y.Pos(), "division by non-constant: the right operand of %s must be constant", e.Op)
				return expr.Zero
			case st == failed:
				return expr.Zero
			case v == 0:
				pl.errorf(e.Y.Pos(), "division by zero")
				return expr.Zero
			}
			y = expr.N(v)
		} else {
			y = pl.lowerExpr(e.Y)
		}
		switch e.Op {
		case LAND:
			return expr.And(asBool(x), asBool(y))
		case LOR:
			return expr.Or(asBool(x), asBool(y))
		}
		if f, ok := intOps[e.Op]; ok {
			return f(asInt(x), asInt(y))
		}
	case *StarExpr, *BadExpr:
		// Syntax errors, reported by the parser: a "*" is lowered only as
		// a condition (condition) or a right-hand side (assignOps).
	case *CallExpr:
		pl.errorf(e.Pos(), "%s is only allowed as the whole right-hand side of an assignment", e.Fun.Name)
	}
	return expr.Zero
}
