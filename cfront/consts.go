package cfront

import (
	"modernc.org/cc/v4"
)

// This file evaluates the expressions that are constants of the
// translation: literals, enumerators, sizeof, and the locals and
// parameters whose value is known (a thread's id, an unrolled loop's
// counter).

// konst evaluates e if it is a constant of the translation (literals,
// enumerators, sizeof, the known constants among the locals), without
// emitting anything.
func (p *proc) konst(e cc.ExpressionNode) (int64, bool) {
	switch x := e.(type) {
	case nil:
		return 0, false
	case *cc.PrimaryExpression:
		switch x.Case {
		case cc.PrimaryExpressionIdent:
			if d, ok := x.ResolvedTo().(*cc.Declarator); ok {
				loc, g := p.lookup(d)
				if g != nil && g.v != nil && g.v.isConst && g.v.size < 0 {
					return g.v.init[0], true
				}
				if loc != nil {
					if loc.konst {
						return loc.val, true
					}
					if loc.arg != nil && loc.arg.konst {
						return loc.arg.val, true
					}
					return 0, false
				}
				return 0, false
			}
		case cc.PrimaryExpressionExpr:
			return p.konst(x.ExpressionList)
		}
	case *cc.PostfixExpression:
		// An element of a const array with a constant index.
		if x.Case == cc.PostfixExpressionIndex {
			if id, ok := unparen(x.PostfixExpression).(*cc.PrimaryExpression); ok && id.Case == cc.PrimaryExpressionIdent {
				if d, ok := id.ResolvedTo().(*cc.Declarator); ok {
					if _, g := p.lookup(d); g != nil && g.v != nil && g.v.isConst && g.v.size >= 0 {
						if k, ok := p.konst(x.ExpressionList); ok && k >= 0 && k < int64(g.v.size) {
							return g.v.init[k], true
						}
					}
				}
			}
		}
	case *cc.ExpressionList:
		if x.ExpressionList == nil {
			return p.konst(x.AssignmentExpression)
		}
		return 0, false
	case *cc.CastExpression:
		if x.Case == cc.CastExpressionCast {
			return p.konst(x.CastExpression)
		}
	case *cc.UnaryExpression:
		switch x.Case {
		case cc.UnaryExpressionPlus:
			return p.konst(x.CastExpression)
		case cc.UnaryExpressionMinus:
			v, ok := p.konst(x.CastExpression)
			return -v, ok
		case cc.UnaryExpressionCpl:
			v, ok := p.konst(x.CastExpression)
			return ^v, ok
		case cc.UnaryExpressionNot:
			v, ok := p.konst(x.CastExpression)
			return b2i(v == 0), ok
		case cc.UnaryExpressionDeref:
			if a := p.argOf(x.CastExpression); a != nil && a.konst {
				return a.val, true
			}
			return 0, false
		}
	case *cc.ConditionalExpression:
		if x.Case == cc.ConditionalExpressionCond {
			c, ok := p.konst(x.LogicalOrExpression)
			if !ok {
				return 0, false
			}
			if c != 0 {
				return p.konst(x.ExpressionList)
			}
			return p.konst(x.ConditionalExpression)
		}
	}
	if a, b, op, ok := binary(e); ok {
		x, ok1 := p.konst(a)
		if !ok1 {
			if !e.Pure() {
				return 0, false
			}
			return constValue(e)
		}
		if op == "&&" && x == 0 {
			return 0, true
		}
		if op == "||" && x != 0 {
			return 1, true
		}
		y, ok2 := p.konst(b)
		if !ok2 {
			if !e.Pure() {
				return 0, false
			}
			return constValue(e)
		}
		return evalBinary(op, x, y)
	}
	if !e.Pure() {
		// cc knows the value of "x = 5"; the assignment must still run.
		return 0, false
	}
	return constValue(e)
}

func b2i(b bool) int64 {
	if b {
		return 1
	}
	return 0
}

// binary splits a binary expression of C into its operands and operator.
func binary(e cc.ExpressionNode) (a, b cc.ExpressionNode, op string, ok bool) {
	switch x := e.(type) {
	case *cc.MultiplicativeExpression:
		if x.Case != cc.MultiplicativeExpressionCast {
			return x.MultiplicativeExpression, x.CastExpression, x.Token.SrcStr(), true
		}
	case *cc.AdditiveExpression:
		if x.Case != cc.AdditiveExpressionMul {
			return x.AdditiveExpression, x.MultiplicativeExpression, x.Token.SrcStr(), true
		}
	case *cc.ShiftExpression:
		if x.Case != cc.ShiftExpressionAdd {
			return x.ShiftExpression, x.AdditiveExpression, x.Token.SrcStr(), true
		}
	case *cc.RelationalExpression:
		if x.Case != cc.RelationalExpressionShift {
			return x.RelationalExpression, x.ShiftExpression, x.Token.SrcStr(), true
		}
	case *cc.EqualityExpression:
		if x.Case != cc.EqualityExpressionRel {
			return x.EqualityExpression, x.RelationalExpression, x.Token.SrcStr(), true
		}
	case *cc.AndExpression:
		if x.Case != cc.AndExpressionEq {
			return x.AndExpression, x.EqualityExpression, "&", true
		}
	case *cc.ExclusiveOrExpression:
		if x.Case != cc.ExclusiveOrExpressionAnd {
			return x.ExclusiveOrExpression, x.AndExpression, "^", true
		}
	case *cc.InclusiveOrExpression:
		if x.Case != cc.InclusiveOrExpressionXor {
			return x.InclusiveOrExpression, x.ExclusiveOrExpression, "|", true
		}
	case *cc.LogicalAndExpression:
		if x.Case != cc.LogicalAndExpressionOr {
			return x.LogicalAndExpression, x.InclusiveOrExpression, "&&", true
		}
	case *cc.LogicalOrExpression:
		if x.Case != cc.LogicalOrExpressionLAnd {
			return x.LogicalOrExpression, x.LogicalAndExpression, "||", true
		}
	}
	return nil, nil, "", false
}

func evalBinary(op string, x, y int64) (int64, bool) {
	switch op {
	case "+":
		return x + y, true
	case "-":
		return x - y, true
	case "*":
		return x * y, true
	case "/":
		if y == 0 {
			return 0, false
		}
		return x / y, true
	case "%":
		if y == 0 {
			return 0, false
		}
		return x % y, true
	case "<<":
		if y < 0 || y > 62 {
			return 0, false
		}
		return x << y, true
	case ">>":
		if y < 0 || y > 63 {
			return 0, false
		}
		return x >> y, true
	case "<":
		return b2i(x < y), true
	case "<=":
		return b2i(x <= y), true
	case ">":
		return b2i(x > y), true
	case ">=":
		return b2i(x >= y), true
	case "==":
		return b2i(x == y), true
	case "!=":
		return b2i(x != y), true
	case "&":
		return x & y, true
	case "|":
		return x | y, true
	case "^":
		return x ^ y, true
	case "&&":
		return b2i(x != 0 && y != 0), true
	case "||":
		return b2i(x != 0 || y != 0), true
	}
	return 0, false
}
