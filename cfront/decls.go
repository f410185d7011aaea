package cfront

import (
	"strconv"

	"modernc.org/cc/v4"

	"fencer/cs"
)

// This file translates local declarations, asm statements and the for
// loops that are unrolled.

func (p *proc) declaration(d *cc.Declaration) {
	if d == nil || d.Case != cc.DeclarationDecl {
		return
	}
	f := p.frame()
	for l := d.InitDeclaratorList; l != nil; l = l.InitDeclaratorList {
		id := l.InitDeclarator
		dcl := id.Declarator
		if dcl == nil || dcl.IsTypename() || dcl.Name() == "__func__" {
			continue
		}
		name, typ := dcl.Name(), dcl.Type()
		pos := p.fallback(dcl)
		if typ.Kind() == cc.Function {
			continue
		}
		if dcl.IsStatic() || dcl.IsExtern() {
			refuse(pos, "static or extern local variable %s", name)
		}
		elem, size := typ, -1
		if at, ok := typ.(*cc.ArrayType); ok {
			if at.IsVLA() || at.Len() <= 0 || at.Len() > 4096 {
				refuse(pos, "local array %s without a constant size (at most 4096)", name)
			}
			elem, size = at.Elem(), int(at.Len())
		}
		if typedefIs(elem, "pthread_t", "thrd_t", "pthread_attr_t") {
			f.vars[dcl] = &local{cname: name, size: size}
			continue
		}
		if !isInteger(elem) {
			if elem.Kind() == cc.Ptr {
				refuse(pos, "pointer variable %s", name)
			}
			refuse(pos, "local variable %s of type %s", name, elem)
		}
		init := id.Initializer
		if size < 0 && init != nil && init.Case == cc.InitializerExpr && !f.fi.assigned[dcl] {
			if v, ok := p.konst(init.AssignmentExpression); ok {
				if elem.Kind() == cc.Bool {
					v = b2i(v != 0)
				}
				f.vars[dcl] = &local{konst: true, val: v, size: -1, typ: elem, cname: name}
				continue
			}
		}
		loc := &local{name: p.newLocal(name, size, pos), size: size, typ: elem, cname: name}
		f.vars[dcl] = loc
		if init == nil {
			continue
		}
		if size < 0 {
			if init.Case != cc.InitializerExpr {
				refuse(pos, "initializer of this shape")
			}
			v := convert(p.rv(init.AssignmentExpression), elem, pos)
			if !p.retarget(v, loc.name) {
				a := synAssign(ident(loc.name, pos), v, pos)
				if start, semi := p.t.pos(d), p.t.pos(d.Token); start != cs.NoPos && semi > start && l.InitDeclaratorList == nil && d.InitDeclaratorList.InitDeclaratorList == nil {
					// "int r = x;": the statement has the declaration's span
					// (for traces; it writes no shared memory).
					a.Lhs.(*cs.Ident).NamePos, a.Semi = start, semi
				}
				p.emit(a)
			}
			continue
		}
		// An array: every element, 0 where the list says nothing.
		vals := make([]cs.Expr, size)
		var walk func(in *cc.Initializer)
		walk = func(in *cc.Initializer) {
			if in.Case == cc.InitializerExpr {
				k := 0
				if es := elem.Size(); es > 0 {
					k = int(in.Offset() / es)
				}
				if k < 0 || k >= size {
					refuse(p.fallback(in), "initializer of this shape")
				}
				vals[k] = convert(p.rv(in.AssignmentExpression), elem, pos)
				return
			}
			for il := in.InitializerList; il != nil; il = il.InitializerList {
				if il.Initializer != nil {
					walk(il.Initializer)
				}
			}
		}
		walk(init)
		for k, v := range vals {
			if v == nil {
				v = lit(0, pos)
			}
			p.emit(synAssign(&cs.IndexExpr{X: ident(loc.name, pos), Lbrack: pos, Index: lit(int64(k), pos), Rbrack: pos}, v, pos))
		}
	}
}

// asm translates an asm statement: "mfence" is a full fence, "sfence" a
// store fence, "lfence" and "" (a compiler barrier) nothing.
func (p *proc) asm(a *cc.Asm, start, semi cs.Pos) {
	if a == nil {
		return
	}
	if a.AsmArgList != nil {
		// Outputs and inputs: only the clobber list is allowed.
		for l := a.AsmArgList; l != nil; l = l.AsmArgList {
			for e := l.AsmExpressionList; e != nil; e = e.AsmExpressionList {
				if e.AssignmentExpression != nil {
					if _, ok := e.AssignmentExpression.(*cc.PrimaryExpression); !ok || e.AsmIndex != nil {
						refuse(start, "asm with operands")
					}
				}
			}
		}
	}
	text, err := strconv.Unquote(a.Token3.SrcStr())
	if err != nil {
		refuse(start, "asm %s", a.Token3.SrcStr())
	}
	if p.t.target.weak() {
		k, none, ok := p.t.target.asmFence(trimAsm(text))
		switch {
		case !ok:
			refuse(start, "asm %q, which is not a barrier of %s (%s)", text, p.t.target.name(), p.t.target.barriers())
		case none:
			return
		}
		if p.atomic > 0 {
			refuse(start, "a fence inside an atomic block")
		}
		if k == cs.FullFence {
			p.emit(&cs.FenceStmt{Fence: start, Semi: semi})
			if semi >= start && p.t.file.Src[semi.Offset()] == ';' {
				p.t.fencePoints[[2]int{start.Offset(), semi.Offset() + 1}] = true
			}
			return
		}
		p.emit(synFence(k, start))
		return
	}
	switch trimAsm(text) {
	case "":
	case "lfence":
	case "mfence":
		if p.atomic > 0 {
			refuse(start, "a fence inside an atomic block")
		}
		p.emit(&cs.FenceStmt{Fence: start, Semi: semi})
		if semi >= start && p.t.file.Src[semi.Offset()] == ';' {
			p.t.fencePoints[[2]int{start.Offset(), semi.Offset() + 1}] = true
		}
	case "sfence":
		if p.atomic > 0 {
			refuse(start, "a fence inside an atomic block")
		}
		p.emit(&cs.FenceStmt{Fence: start, Kind: cs.StoreFence, StorePos: start, Semi: start - 1})
	default:
		refuse(start, "asm %q", text)
	}
}

func trimAsm(s string) string {
	out := []byte{}
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case ' ', '\t', '\n', ';':
		default:
			out = append(out, s[i])
		}
	}
	return string(out)
}

// unroll translates a for loop with a constant number of iterations as
// that many copies of its body, the counter a constant in each, when the
// loop is "for (i = A; i OP B; i STEP)" with A and B constant, the body
// assigns no i, has no break and no label. It reports false (and emits
// nothing) otherwise.
func (p *proc) unroll(s *cc.IterationStatement, cond, step cc.ExpressionNode, pos cs.Pos) bool {
	if cond == nil || step == nil {
		return false
	}
	f := p.frame()
	// The counter and its initial value.
	var d *cc.Declarator
	var initE cc.ExpressionNode
	if s.Case == cc.IterationStatementForDecl {
		decl := s.Declaration
		if decl.InitDeclaratorList == nil || decl.InitDeclaratorList.InitDeclaratorList != nil {
			return false
		}
		id := decl.InitDeclaratorList.InitDeclarator
		if id.Initializer == nil || id.Initializer.Case != cc.InitializerExpr {
			return false
		}
		d, initE = id.Declarator, id.Initializer.AssignmentExpression
	} else {
		ae, ok := unparen(s.ExpressionList).(*cc.AssignmentExpression)
		if !ok || ae.Case != cc.AssignmentExpressionAssign {
			return false
		}
		d, initE = target(ae.UnaryExpression), ae.AssignmentExpression
		if _, isIdent := unparen(ae.UnaryExpression).(*cc.PrimaryExpression); !isIdent {
			return false
		}
	}
	if d == nil || !isInteger(d.Type()) {
		return false
	}
	if _, isLocal := f.vars[d]; !isLocal && s.Case != cc.IterationStatementForDecl {
		return false
	}
	if loc := f.vars[d]; loc != nil && loc.size >= 0 {
		return false
	}
	assigned := map[*cc.Declarator]bool{}
	collectAssigned(s.Statement, assigned)
	collectAssigned(cond, assigned)
	if assigned[d] || hasBreakOrLabel(s.Statement) {
		return false
	}
	start, ok := p.konst(initE)
	if !ok {
		return false
	}
	delta, ok := stepOf(step, d, p)
	if !ok || delta == 0 {
		return false
	}
	// The values of the counter, with the counter bound as a constant.
	saved, had := f.vars[d]
	probe := &local{konst: true, size: -1, typ: d.Type(), cname: d.Name()}
	f.vars[d] = probe
	restore := func() {
		if had {
			f.vars[d] = saved
		} else {
			delete(f.vars, d)
		}
	}
	var vals []int64
	v := start
	for {
		probe.val = v
		c, ok := p.konst(cond)
		if !ok || len(vals) > maxUnroll {
			restore()
			return false
		}
		if c == 0 {
			break
		}
		vals = append(vals, v)
		v += delta
	}
	final := v
	p.markBare(s.Statement)
	savedCopies := p.copies
	p.copies = max(p.copies, 1) * len(vals)
	defer func() { p.copies = savedCopies }()
	for _, x := range vals {
		probe.val = x
		l := &loop{lazyCont: true}
		p.loops = append(p.loops, l)
		p.stmt(s.Statement)
		p.popLoop()
		if l.contUsed {
			p.emit(synLabel(l.cont, nil, pos))
		}
	}
	probe.val = final
	if had && saved.name != "" {
		// The counter is a variable of the function: it ends with its
		// final value.
		restore()
		p.emit(synAssign(ident(saved.name, pos), lit(final, pos), pos))
	} else if !had {
		// Declared by the for: out of scope now; kept as the constant.
	} else {
		restore()
	}
	return true
}

// stepOf returns the change of d that step makes: i++, ++i, i--, --i,
// i += c, i -= c.
func stepOf(step cc.ExpressionNode, d *cc.Declarator, p *proc) (int64, bool) {
	switch x := unparen(step).(type) {
	case *cc.PostfixExpression:
		if target(x.PostfixExpression) != d {
			return 0, false
		}
		switch x.Case {
		case cc.PostfixExpressionInc:
			return 1, true
		case cc.PostfixExpressionDec:
			return -1, true
		}
	case *cc.UnaryExpression:
		if target(x.UnaryExpression) != d {
			return 0, false
		}
		switch x.Case {
		case cc.UnaryExpressionInc:
			return 1, true
		case cc.UnaryExpressionDec:
			return -1, true
		}
	case *cc.AssignmentExpression:
		if target(x.UnaryExpression) != d {
			return 0, false
		}
		c, ok := p.konst(x.AssignmentExpression)
		if !ok {
			return 0, false
		}
		switch x.Case {
		case cc.AssignmentExpressionAdd:
			return c, true
		case cc.AssignmentExpressionSub:
			return -c, true
		}
	}
	return 0, false
}

// hasBreakOrLabel reports whether s has a break of its own loop level or a
// label.
func hasBreakOrLabel(s *cc.Statement) bool {
	found := false
	inspect(s, func(n any) bool {
		switch x := n.(type) {
		case *cc.IterationStatement:
			// A nested loop's breaks are its own; its labels are not.
			if hasLabel(x) {
				found = true
			}
			return false
		case *cc.SelectionStatement:
			if x.Case == cc.SelectionStatementSwitch {
				if hasLabel(x) {
					found = true
				}
				return false
			}
		case *cc.JumpStatement:
			if x.Case == cc.JumpStatementBreak {
				found = true
			}
		case *cc.LabeledStatement:
			if x.Case == cc.LabeledStatementLabel {
				found = true
			}
		}
		return !found
	})
	return found
}

func hasLabel(n any) bool {
	found := false
	inspect(n, func(x any) bool {
		if l, ok := x.(*cc.LabeledStatement); ok && l.Case == cc.LabeledStatementLabel {
			found = true
		}
		return !found
	})
	return found
}

// unparen strips parentheses and one-element expression lists.
// uncast strips parentheses and explicit casts from e: "(void *)&x" is
// "&x" to the readers of thread arguments and pointers.
func uncast(e cc.ExpressionNode) cc.ExpressionNode {
	e = unparen(e)
	for {
		c, ok := e.(*cc.CastExpression)
		if !ok || c.Case != cc.CastExpressionCast {
			return e
		}
		e = unparen(c.CastExpression)
	}
}

func unparen(e cc.ExpressionNode) cc.ExpressionNode {
	for {
		switch x := e.(type) {
		case *cc.PrimaryExpression:
			if x.Case != cc.PrimaryExpressionExpr {
				return e
			}
			e = x.ExpressionList
		case *cc.ExpressionList:
			if x.ExpressionList != nil {
				return e
			}
			e = x.AssignmentExpression
		default:
			return e
		}
	}
}
