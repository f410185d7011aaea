package cfront

import (
	"reflect"

	"modernc.org/cc/v4"
)

// inspect calls f on n and on every node below it (parents first); when f
// returns false the children of that node are skipped. It walks cc's
// syntax tree by reflection: every field that is a pointer to a struct or
// an interface holding one is a child (tokens are values, not visited).
func inspect(n any, f func(any) bool) {
	if n == nil {
		return
	}
	v := reflect.ValueOf(n)
	if v.Kind() == reflect.Pointer && v.IsNil() {
		return
	}
	if !f(n) {
		return
	}
	if v.Kind() != reflect.Pointer {
		return
	}
	s := v.Elem()
	if s.Kind() != reflect.Struct {
		return
	}
	st := s.Type()
	for i := 0; i < s.NumField(); i++ {
		if !st.Field(i).IsExported() {
			continue
		}
		fv := s.Field(i)
		switch fv.Kind() {
		case reflect.Pointer:
			if !fv.IsNil() && fv.Elem().Kind() == reflect.Struct {
				inspect(fv.Interface(), f)
			}
		case reflect.Interface:
			if !fv.IsNil() {
				inspect(fv.Interface(), f)
			}
		}
	}
}

// target returns the declarator an lvalue expression names directly (x,
// (x), x[i], x.f), or nil.
func target(e cc.ExpressionNode) *cc.Declarator {
	for {
		switch x := e.(type) {
		case *cc.PrimaryExpression:
			switch x.Case {
			case cc.PrimaryExpressionIdent:
				d, _ := x.ResolvedTo().(*cc.Declarator)
				return d
			case cc.PrimaryExpressionExpr:
				e = x.ExpressionList
				continue
			}
			return nil
		case *cc.ExpressionList:
			if x.ExpressionList != nil {
				return nil
			}
			e = x.AssignmentExpression
		case *cc.PostfixExpression:
			switch x.Case {
			case cc.PostfixExpressionIndex, cc.PostfixExpressionSelect:
				e = x.PostfixExpression
				continue
			}
			return nil
		default:
			return nil
		}
	}
}

// collectAssigned records in out the declarators that n assigns, increments
// or takes the address of.
func collectAssigned(n any, out map[*cc.Declarator]bool) {
	inspect(n, func(x any) bool {
		var e cc.ExpressionNode
		switch x := x.(type) {
		case *cc.AssignmentExpression:
			if x.Case != cc.AssignmentExpressionCond {
				e = x.UnaryExpression
			}
		case *cc.PostfixExpression:
			if x.Case == cc.PostfixExpressionInc || x.Case == cc.PostfixExpressionDec {
				e = x.PostfixExpression
			}
		case *cc.UnaryExpression:
			switch x.Case {
			case cc.UnaryExpressionInc, cc.UnaryExpressionDec:
				e = x.UnaryExpression
			case cc.UnaryExpressionAddrof:
				e = x.CastExpression
			}
		}
		if e != nil {
			if d := target(e); d != nil {
				out[d] = true
			}
		}
		return true
	})
}
