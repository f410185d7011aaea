package cfront

import (
	"modernc.org/cc/v4"

	"fencer/cs"
)

// This file translates expressions. rv returns the .cs expression of a
// value, emitting first the statements that compute its parts that .cs
// cannot say in an expression (short-circuit reads, elements chosen at run
// time, calls, assignments); reads of shared variables left in the
// expression are performed by the .cs statement that uses it.

// Memory orders, as <stdatomic.h> numbers them.
const (
	orderRelaxed = 0
	orderConsume = 1
	orderAcquire = 2
	orderRelease = 3
	orderAcqRel  = 4
	orderSeqCst  = 5
	orderPlain   = -1 // a plain or volatile access
)

// lvalue is a variable or array element.
type lvalue struct {
	v   *shvar // shared, or
	l   *local // local
	idx cs.Expr
	k   int64
	kok bool // the index is the constant k (or the variable is a scalar)
	pos cs.Pos
}

func (lv lvalue) shared() bool { return lv.v != nil }

func (lv lvalue) size() int {
	if lv.v != nil {
		return lv.v.size
	}
	return lv.l.size
}

// lookup finds the variable a C identifier names.
func (p *proc) lookup(d *cc.Declarator) (*local, *global) {
	if loc, ok := p.frame().vars[d]; ok {
		return loc, nil
	}
	g, u := p.t.globalOf(d)
	if u != nil {
		// A use of a file-scope variable that is not modelled: refused
		// as if it were declared so, at its declaration.
		panic(*u)
	}
	if g != nil {
		return nil, g
	}
	return nil, nil
}

var csOps = map[string]cs.Token{
	"+": cs.ADD, "-": cs.SUB, "*": cs.MUL, "/": cs.QUO, "%": cs.REM,
	"<": cs.LSS, "<=": cs.LEQ, ">": cs.GTR, ">=": cs.GEQ, "==": cs.EQL, "!=": cs.NEQ,
	"&&": cs.LAND, "||": cs.LOR,
}

// cond translates a condition.
func (p *proc) cond(e cc.ExpressionNode) cs.Expr { return p.rv(e) }

// rv translates the value of e.
func (p *proc) rv(e cc.ExpressionNode) cs.Expr {
	pos := p.fallback(e)
	if v, ok := p.konst(e); ok {
		return lit(v, pos)
	}
	switch x := e.(type) {
	case *cc.PrimaryExpression:
		switch x.Case {
		case cc.PrimaryExpressionIdent:
			lv := p.lval(x)
			if lv.shared() && lv.v.ptr != nil {
				refuse(pos, "the value of pointer %s (fencer models *%s and %s = &%s only)", lv.v.cname, lv.v.cname, lv.v.cname, lv.v.ptr.target.cname)
			}
			return p.load(lv, orderPlain)
		case cc.PrimaryExpressionExpr:
			return &cs.ParenExpr{Lparen: pos, X: p.rv(x.ExpressionList), Rparen: pos}
		case cc.PrimaryExpressionFloat:
			refuse(pos, "floating point")
		case cc.PrimaryExpressionString, cc.PrimaryExpressionLString:
			refuse(pos, "string literal")
		case cc.PrimaryExpressionStmt:
			refuse(pos, "statement expression")
		default:
			refuse(pos, "this expression")
		}
	case *cc.ExpressionList:
		var last cs.Expr
		for l := x; l != nil; l = l.ExpressionList {
			if l.ExpressionList == nil {
				last = p.rv(l.AssignmentExpression)
			} else {
				p.effect(l.AssignmentExpression)
			}
		}
		return last
	case *cc.PostfixExpression:
		switch x.Case {
		case cc.PostfixExpressionIndex, cc.PostfixExpressionSelect:
			return p.load(p.lval(x), orderPlain)
		case cc.PostfixExpressionCall:
			r := p.call(x, true)
			if r == nil {
				failAt(pos, "the value of a call of a function that returns nothing")
			}
			return r
		case cc.PostfixExpressionInc, cc.PostfixExpressionDec:
			return p.incdec(x.PostfixExpression, x.Case == cc.PostfixExpressionInc, true, true, pos)
		case cc.PostfixExpressionPSelect:
			refuse(pos, "pointer access ->")
		default:
			refuse(pos, "compound literal")
		}
	case *cc.UnaryExpression:
		switch x.Case {
		case cc.UnaryExpressionInc, cc.UnaryExpressionDec:
			return p.incdec(x.UnaryExpression, x.Case == cc.UnaryExpressionInc, false, true, pos)
		case cc.UnaryExpressionPlus:
			return p.rv(x.CastExpression)
		case cc.UnaryExpressionMinus:
			return &cs.UnaryExpr{OpPos: pos, Op: cs.SUB, X: paren(p.rv(x.CastExpression))}
		case cc.UnaryExpressionNot:
			return &cs.UnaryExpr{OpPos: pos, Op: cs.NOT, X: paren(p.rv(x.CastExpression))}
		case cc.UnaryExpressionCpl:
			// ~x is -x-1 on mathematical integers (two's complement).
			return &cs.BinaryExpr{X: &cs.UnaryExpr{OpPos: pos, Op: cs.SUB, X: paren(p.rv(x.CastExpression))}, OpPos: pos, Op: cs.SUB, Y: lit(1, pos)}
		case cc.UnaryExpressionDeref:
			if lv, ok := p.argDeref(x); ok {
				return p.load(lv, orderPlain)
			}
			if lv, ok := p.ptrDeref(x); ok {
				return p.load(lv, orderPlain)
			}
			if lv, ok := p.refDeref(x); ok {
				return p.load(lv, orderPlain)
			}
			refuse(pos, "pointer dereference")
		case cc.UnaryExpressionAddrof:
			refuse(pos, "address of a variable (&) outside an atomic operation or pthread_create")
		default:
			refuse(pos, "this operator")
		}
	case *cc.CastExpression:
		if x.Case == cc.CastExpressionCast {
			tt := x.TypeName.Type()
			if tt.Kind() == cc.Void {
				return p.rv(x.CastExpression)
			}
			if !isInteger(tt) && tt.Kind() != cc.Ptr {
				refuse(pos, "cast to %s", tt)
			}
			if tt.Kind() == cc.Ptr {
				refuse(pos, "cast to a pointer outside a thread argument")
			}
			return p.rv(x.CastExpression)
		}
		return p.rv(x.UnaryExpression)
	case *cc.ConditionalExpression:
		if x.Case == cc.ConditionalExpressionCond {
			return p.ternary(x, pos)
		}
		return p.rv(x.LogicalOrExpression)
	case *cc.AssignmentExpression:
		if x.Case == cc.AssignmentExpressionCond {
			return p.rv(x.ConditionalExpression)
		}
		return p.assign(x, true, pos)
	}
	if a, b, op, ok := binary(e); ok {
		return p.binaryRV(a, b, op, pos, e)
	}
	refuse(pos, "this expression")
	return nil
}

func paren(e cs.Expr) cs.Expr {
	switch e.(type) {
	case *cs.Ident, *cs.IntLit, *cs.ParenExpr, *cs.IndexExpr:
		return e
	}
	return &cs.ParenExpr{Lparen: e.Pos(), X: e, Rparen: e.Pos()}
}

func (p *proc) binaryRV(a, b cc.ExpressionNode, op string, pos cs.Pos, whole cc.ExpressionNode) cs.Expr {
	if op == "&&" || op == "||" {
		return p.shortCircuit(a, b, op, pos)
	}
	switch op {
	case "<<", ">>":
		k, ok := p.konst(b)
		if !ok || k < 0 || k > 62 {
			refuse(pos, "shift by a non-constant amount")
		}
		x := paren(p.rv(a))
		if op == "<<" {
			return &cs.BinaryExpr{X: x, OpPos: pos, Op: cs.MUL, Y: lit(int64(1)<<k, pos)}
		}
		p.t.warn(pos, "shr", "x >> %d is translated as x / %d, which differs from C for negative x", k, int64(1)<<k)
		return &cs.BinaryExpr{X: x, OpPos: pos, Op: cs.QUO, Y: lit(int64(1)<<k, pos)}
	case "&":
		if k, ok := p.konst(b); ok && k >= 0 && k&(k+1) == 0 {
			// x & (2^n - 1) is x % 2^n for x >= 0.
			p.t.warn(pos, "and", "x & %d is translated as x %% %d, which differs from C for negative x", k, k+1)
			return &cs.BinaryExpr{X: paren(p.rv(a)), OpPos: pos, Op: cs.REM, Y: lit(k+1, pos)}
		}
		if p.t.approximate {
			return p.approx(a, b, op, pos)
		}
		refuse(pos, "bitwise & other than with a constant 2^n-1 (fencer's integers are mathematical)")
	case "|", "^":
		if p.t.approximate {
			return p.approx(a, b, op, pos)
		}
		refuse(pos, "bitwise %s (fencer's integers are mathematical)", op)
	case "/", "%":
		if _, ok := p.konst(b); !ok {
			if p.t.approximate {
				return p.approx(a, b, op, pos)
			}
			refuse(pos, "%s by a non-constant", op)
		}
	case "*":
		_, ka := p.konst(a)
		_, kb := p.konst(b)
		if !ka && !kb {
			if p.t.approximate {
				return p.approx(a, b, op, pos)
			}
			refuse(pos, "multiplication of two variables")
		}
	}
	x := p.rv(a)
	y := p.rv(b)
	return &cs.BinaryExpr{X: paren(x), OpPos: pos, Op: csOps[op], Y: paren(y)}
}

// shortCircuit translates a && b and a || b: b is evaluated only when a
// does not decide, so a read in b is not performed otherwise.
func (p *proc) shortCircuit(a, b cc.ExpressionNode, op string, pos cs.Pos) cs.Expr {
	x := p.rv(a)
	var y cs.Expr
	pre := p.sub(func() { y = p.rv(b) })
	cop := cs.LAND
	if op == "||" {
		cop = cs.LOR
	}
	if len(pre) == 0 && !p.t.mentionsShared(y) {
		// A constant side decides or drops out, as C would fold it.
		pureX := !p.t.mentionsShared(x)
		if k, ok := literal(y); ok {
			switch {
			case (op == "&&") == (k != 0):
				return truth(x, pos)
			case pureX:
				return lit(b2i(k != 0), pos)
			}
		}
		if k, ok := literal(x); ok {
			if (op == "&&") == (k != 0) {
				return truth(y, pos)
			}
			return lit(b2i(k != 0), pos)
		}
		return &cs.BinaryExpr{X: paren(x), OpPos: pos, Op: cop, Y: paren(y)}
	}
	t := p.tmp("sc", pos)
	norm := func(e cs.Expr) cs.Expr {
		if b, ok := e.(*cs.BinaryExpr); ok && b.Op >= cs.EQL && b.Op <= cs.GEQ || ok && (b.Op == cs.LAND || b.Op == cs.LOR) {
			return e
		}
		return &cs.BinaryExpr{X: paren(e), OpPos: pos, Op: cs.NEQ, Y: lit(0, pos)}
	}
	p.emit(synAssign(ident(t, pos), norm(x), pos))
	then := append(pre, synAssign(ident(t, pos), norm(y), pos))
	var c cs.Expr = ident(t, pos)
	if op == "||" {
		c = &cs.UnaryExpr{OpPos: pos, Op: cs.NOT, X: ident(t, pos)}
	}
	p.emit(&cs.IfStmt{If: pos, Cond: c, Then: synBlock(then, pos)})
	return ident(t, pos)
}

// ternary translates c ? a : b into a branch over a temporary.
func (p *proc) ternary(x *cc.ConditionalExpression, pos cs.Pos) cs.Expr {
	c := p.rv(x.LogicalOrExpression)
	t := p.tmp("c", pos)
	then := p.sub(func() { p.emit(synAssign(ident(t, pos), p.rv(x.ExpressionList), pos)) })
	els := p.sub(func() { p.emit(synAssign(ident(t, pos), p.rv(x.ConditionalExpression), pos)) })
	p.emit(&cs.IfStmt{If: pos, Cond: c, Then: synBlock(then, pos), Else: synBlock(els, pos)})
	return ident(t, pos)
}

// effect translates e for its side effects only.
func (p *proc) effect(e cc.ExpressionNode) {
	pos := p.fallback(e)
	switch x := e.(type) {
	case *cc.ExpressionList:
		for l := x; l != nil; l = l.ExpressionList {
			p.effect(l.AssignmentExpression)
		}
		return
	case *cc.PrimaryExpression:
		switch x.Case {
		case cc.PrimaryExpressionExpr:
			p.effect(x.ExpressionList)
			return
		case cc.PrimaryExpressionStmt:
			// A statement expression whose value is not used: its
			// statements (glibc's assert in a preprocessed file is
			// "({ if (e) ; else __assert_fail (...); })").
			p.compound(x.CompoundStatement)
			return
		}
	case *cc.AssignmentExpression:
		if x.Case != cc.AssignmentExpressionCond {
			p.assign(x, false, pos)
			return
		}
		p.effect(x.ConditionalExpression)
		return
	case *cc.PostfixExpression:
		switch x.Case {
		case cc.PostfixExpressionCall:
			p.call(x, false)
			return
		case cc.PostfixExpressionInc, cc.PostfixExpressionDec:
			p.incdec(x.PostfixExpression, x.Case == cc.PostfixExpressionInc, true, false, pos)
			return
		}
	case *cc.UnaryExpression:
		switch x.Case {
		case cc.UnaryExpressionInc, cc.UnaryExpressionDec:
			p.incdec(x.UnaryExpression, x.Case == cc.UnaryExpressionInc, false, false, pos)
			return
		}
	case *cc.CastExpression:
		if x.Case == cc.CastExpressionCast {
			p.effect(x.CastExpression)
			return
		}
	case *cc.ConditionalExpression:
		if x.Case == cc.ConditionalExpressionCond && !x.Pure() {
			// c ? a : b for its effects: a branch, each side for its
			// effects (glibc's assert in a preprocessed file is
			// "(e) ? (void) (0) : __assert_fail (...)").
			c := p.cond(x.LogicalOrExpression)
			then := p.sub(func() { p.effect(x.ExpressionList) })
			els := p.sub(func() { p.effect(x.ConditionalExpression) })
			p.emit(&cs.IfStmt{If: pos, Cond: c, Then: synBlock(then, pos), Else: synBlock(els, pos)})
			return
		}
	}
	// A value computed for nothing: its calls and assignments still run;
	// its reads have no effect on the state (a pure expression is not
	// translated at all: "(void)arg;", "return arg;").
	if e.Pure() {
		return
	}
	_ = p.rv(e)
}

// assign translates an assignment (= and the compound forms).
func (p *proc) assign(x *cc.AssignmentExpression, needValue bool, pos cs.Pos) cs.Expr {
	lv := p.lval(x.UnaryExpression)
	if lv.shared() && lv.v.ptr != nil {
		// p = &x or p = 0 (pointers.go: modelPointers saw no other).
		val := lit(1, pos)
		if k, ok := p.konst(x.AssignmentExpression); ok && k == 0 {
			val = lit(0, pos)
		}
		p.store(lv, val, orderPlain, pos)
		if needValue {
			refuse(pos, "the value of an assignment to pointer %s", lv.v.cname)
		}
		return nil
	}
	op := ""
	switch x.Case {
	case cc.AssignmentExpressionAssign:
	case cc.AssignmentExpressionAdd:
		op = "+"
	case cc.AssignmentExpressionSub:
		op = "-"
	case cc.AssignmentExpressionMul:
		op = "*"
	case cc.AssignmentExpressionDiv:
		op = "/"
	case cc.AssignmentExpressionMod:
		op = "%"
	case cc.AssignmentExpressionLsh:
		op = "<<"
	case cc.AssignmentExpressionRsh:
		op = ">>"
	default:
		refuse(pos, "compound bitwise assignment %s", x.Token.SrcStr())
	}
	if lv.shared() && lv.v.atomic && op != "" {
		// An atomic read-modify-write: x += v is atomic_fetch_add.
		if op != "+" && op != "-" {
			refuse(pos, "compound assignment %s on an _Atomic variable", x.Token.SrcStr())
		}
		v := p.rv(x.AssignmentExpression)
		if op == "-" {
			v = &cs.UnaryExpr{OpPos: pos, Op: cs.SUB, X: paren(v)}
		}
		old := p.rmwAdd(lv, v, orderSeqCst, pos)
		return &cs.BinaryExpr{X: old, OpPos: pos, Op: cs.ADD, Y: paren(v)}
	}
	var val cs.Expr
	if op == "" {
		val = p.rv(x.AssignmentExpression)
	} else {
		p.wrapWarn(lv, op, pos)
		cur := p.load(lv, orderPlain)
		y := p.rv(x.AssignmentExpression)
		switch op {
		case "<<", ">>":
			k, ok := p.konst(x.AssignmentExpression)
			if !ok || k < 0 || k > 62 {
				refuse(pos, "shift by a non-constant amount")
			}
			o := cs.MUL
			if op == ">>" {
				o = cs.QUO
			}
			val = &cs.BinaryExpr{X: paren(cur), OpPos: pos, Op: o, Y: lit(int64(1)<<k, pos)}
		default:
			if (op == "/" || op == "%") && !isLit(y) {
				refuse(pos, "%s by a non-constant", op)
			}
			val = &cs.BinaryExpr{X: paren(cur), OpPos: pos, Op: csOps[op], Y: paren(y)}
		}
	}
	val = convert(val, lv.typ(), pos)
	order := orderPlain
	if lv.shared() && lv.v.atomic {
		order = orderSeqCst
	}
	if needValue && (lv.shared() || !lv.kok) {
		t := p.tmp("v", pos)
		p.emit(synAssign(ident(t, pos), val, pos))
		val = ident(t, pos)
		p.store(lv, val, order, pos)
		return val
	}
	if lv.l != nil && lv.kok && lv.l.size < 0 && lv.l.name != "" && op == "" && p.retarget(val, lv.l.name) {
		if needValue {
			return ident(lv.l.name, pos)
		}
		return nil
	}
	p.store(lv, val, order, pos)
	if needValue {
		return p.load(lv, orderPlain)
	}
	return nil
}

func isLit(e cs.Expr) bool {
	switch x := e.(type) {
	case *cs.IntLit:
		return true
	case *cs.ParenExpr:
		return isLit(x.X)
	case *cs.UnaryExpr:
		return isLit(x.X)
	}
	return false
}

// incdec translates ++ and -- (post: the value before).
func (p *proc) incdec(e cc.ExpressionNode, inc, post, needValue bool, pos cs.Pos) cs.Expr {
	lv := p.lval(e)
	var d int64 = 1
	if !inc {
		d = -1
	}
	if lv.shared() && lv.v.atomic {
		old := p.rmwAdd(lv, lit(d, pos), orderSeqCst, pos)
		if post {
			return old
		}
		return &cs.BinaryExpr{X: old, OpPos: pos, Op: cs.ADD, Y: lit(d, pos)}
	}
	if inc {
		p.wrapWarn(lv, "+", pos)
	} else {
		p.wrapWarn(lv, "-", pos)
	}
	if !needValue {
		cur := p.load(lv, orderPlain)
		p.store(lv, convert(&cs.BinaryExpr{X: cur, OpPos: pos, Op: cs.ADD, Y: lit(d, pos)}, lv.typ(), pos), orderPlain, pos)
		return nil
	}
	t := p.tmp("old", pos)
	p.emit(synAssign(ident(t, pos), p.load(lv, orderPlain), pos))
	p.store(lv, convert(&cs.BinaryExpr{X: ident(t, pos), OpPos: pos, Op: cs.ADD, Y: lit(d, pos)}, lv.typ(), pos), orderPlain, pos)
	if post {
		return ident(t, pos)
	}
	return convert(&cs.BinaryExpr{X: ident(t, pos), OpPos: pos, Op: cs.ADD, Y: lit(d, pos)}, lv.typ(), pos)
}

// typ is the C type of the variable or element (nil if unknown).
func (lv lvalue) typ() cc.Type {
	switch {
	case lv.v != nil:
		return lv.v.typ
	case lv.l != nil:
		return lv.l.typ
	}
	return nil
}

// convert is val converted to typ as C assigns it: a _Bool is 0 or 1 (any
// value but 0 is 1); other integer types keep the mathematical value (no
// wrap-around: docs/c.md).
func convert(val cs.Expr, typ cc.Type, pos cs.Pos) cs.Expr {
	if typ == nil || typ.Kind() != cc.Bool {
		return val
	}
	if k, ok := literal(val); ok {
		return lit(b2i(k != 0), pos)
	}
	return truth(val, pos)
}

// wrapWarn warns where mathematical integers may differ from C's: an
// increment of a type narrower than int, a decrement of an unsigned type.
func (p *proc) wrapWarn(lv lvalue, op string, pos cs.Pos) {
	var typ cc.Type
	name := ""
	if lv.v != nil {
		typ, name = lv.v.typ, lv.v.cname
	} else if lv.l != nil {
		typ, name = lv.l.typ, lv.l.cname
	}
	if typ == nil {
		return
	}
	switch {
	case (op == "+" || op == "*" || op == "<<") && typ.Size() < 4:
		p.t.warn(pos, "wrap "+name, "%s (%s) is a mathematical integer in the model: it does not wrap around at the limits of its C type", name, typ)
	case op == "-" && !cc.IsSignedInteger(typ) && typ.Kind() != cc.Bool:
		p.t.warn(pos, "wrap "+name, "%s (%s) is a mathematical integer in the model: it may go below 0, where C wraps around", name, typ)
	}
}

// mentionsShared reports whether a .cs expression reads a shared variable.
func (t *translator) mentionsShared(e cs.Expr) bool {
	found := false
	cs.Inspect(e, func(n cs.Node) bool {
		if id, ok := n.(*cs.Ident); ok && t.sharedNames[id.Name] {
			found = true
		}
		return !found
	})
	return found
}

// truth is e as a truth value (0 or 1): e itself when it is a comparison
// or a logical operation.
func truth(e cs.Expr, pos cs.Pos) cs.Expr {
	for {
		pe, ok := e.(*cs.ParenExpr)
		if !ok {
			break
		}
		e = pe.X
	}
	if b, ok := e.(*cs.BinaryExpr); ok && (b.Op >= cs.EQL && b.Op <= cs.GEQ || b.Op == cs.LAND || b.Op == cs.LOR) {
		return paren(e)
	}
	if u, ok := e.(*cs.UnaryExpr); ok && u.Op == cs.NOT {
		return e
	}
	return &cs.BinaryExpr{X: paren(e), OpPos: pos, Op: cs.NEQ, Y: lit(0, pos)}
}
