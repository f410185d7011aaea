package cfront

import (
	"sort"

	"modernc.org/cc/v4"

	"fencer/cs"
)

// This file models the simplest pointer variables: a file-scope pointer
// whose every assignment in the file is "p = &x" with one and the same
// file-scope integer x, or a null pointer (SV-COMP's instrumented
// programs keep "int *y$read_delayed_var;" so). Such a p is a shared
// variable holding 0 (null) or 1 (&x); *p is x after a check that p is
// not null (a null dereference is an index out of bounds: outOfRange).
// Any other use of p (its value, arithmetic, &p, a second target) leaves
// it a variable of a type fencer does not model: refused where used.

// pointerVar is what is known of a modelled pointer.
type pointerVar struct {
	target *shvar
}

// modelPointers looks, once all of the file is declared, for the pointers
// of unmodelled that can be modelled, and declares them.
func (t *translator) modelPointers(ast *cc.AST) {
	cands := map[string]*cc.Declarator{}
	for d, name := range t.fileScope {
		if _, ok := t.unmodelled[name]; !ok || d.IsExtern() {
			continue
		}
		pt, ok := d.Type().(*cc.PointerType)
		if !ok || !isInteger(pt.Elem()) {
			continue
		}
		if init := t.inits[name]; init != nil {
			if init.Case != cc.InitializerExpr {
				continue
			}
			if v, ok := constValue(init.AssignmentExpression); !ok || v != 0 {
				continue
			}
		}
		cands[name] = d
	}
	if len(cands) == 0 {
		return
	}
	targets := map[string]*shvar{}
	bad := map[string]bool{}
	nameOf := func(e cc.ExpressionNode) string {
		if d := target(e); d != nil {
			if n, ok := t.fileScope[d]; ok && cands[n] != nil {
				if x, ok := unparen(e).(*cc.PrimaryExpression); ok && x.Case == cc.PrimaryExpressionIdent {
					return n
				}
			}
		}
		return ""
	}
	for l := ast.TranslationUnit; l != nil; l = l.TranslationUnit {
		ed := l.ExternalDeclaration
		if ed == nil || ed.Case != cc.ExternalDeclarationFuncDef || ed.Position().Filename != t.file.Name {
			continue
		}
		inspect(ed.FunctionDefinition.CompoundStatement, func(n any) bool {
			switch x := n.(type) {
			case *cc.AssignmentExpression:
				if x.Case == cc.AssignmentExpressionCond {
					return true
				}
				name := nameOf(x.UnaryExpression)
				if name == "" {
					return true
				}
				if x.Case != cc.AssignmentExpressionAssign {
					bad[name] = true
					return true
				}
				if v, ok := constValue(x.AssignmentExpression); ok && v == 0 {
					return true
				}
				sv := t.addressOf(x.AssignmentExpression)
				if sv == nil || targets[name] != nil && targets[name] != sv {
					bad[name] = true
					return true
				}
				targets[name] = sv
			case *cc.UnaryExpression:
				if x.Case == cc.UnaryExpressionAddrof {
					if name := nameOf(x.CastExpression); name != "" {
						bad[name] = true
					}
				}
			case *cc.PostfixExpression:
				if x.Case == cc.PostfixExpressionInc || x.Case == cc.PostfixExpressionDec {
					if name := nameOf(x.PostfixExpression); name != "" {
						bad[name] = true
					}
				}
			}
			return true
		})
	}
	names := make([]string, 0, len(cands))
	for name := range cands {
		names = append(names, name)
	}
	sort.Strings(names) // a deterministic order of the shared variables
	for _, name := range names {
		d, sv := cands[name], targets[name]
		if bad[name] || sv == nil {
			continue
		}
		v := &shvar{name: uniqueName(name, t.taken), cname: name, size: -1, typ: d.Type(), pos: t.pos(d),
			readers: map[string]bool{}, writers: map[string]bool{}, accessors: map[string]bool{}, decl: d, init: []int64{0}, ptr: &pointerVar{target: sv}}
		t.sharedNames[v.name] = true
		t.order = append(t.order, v)
		g := &global{v: v, size: -1}
		t.globals[d] = g
		t.globalNames[name] = g
		delete(t.unmodelled, name)
	}
}

// addressOf returns the shared scalar x of "&x" (through casts and
// parentheses), or nil.
func (t *translator) addressOf(e cc.ExpressionNode) *shvar {
	e = uncast(e)
	u, ok := e.(*cc.UnaryExpression)
	if !ok || u.Case != cc.UnaryExpressionAddrof {
		return nil
	}
	x, ok := unparen(u.CastExpression).(*cc.PrimaryExpression)
	if !ok || x.Case != cc.PrimaryExpressionIdent {
		return nil
	}
	d, _ := x.ResolvedTo().(*cc.Declarator)
	g, _ := t.globalOf(d)
	if g == nil || g.v == nil || g.v.size >= 0 || g.v.ptr != nil || g.v.mutex {
		return nil
	}
	return g.v
}

// ptrDeref resolves *p for a modelled pointer p: the check that p is not
// null, and its target.
func (p *proc) ptrDeref(x *cc.UnaryExpression) (lvalue, bool) {
	id, ok := unparen(x.CastExpression).(*cc.PrimaryExpression)
	if !ok || id.Case != cc.PrimaryExpressionIdent {
		return lvalue{}, false
	}
	d, _ := id.ResolvedTo().(*cc.Declarator)
	g, _ := p.t.globalOf(d)
	if g == nil || g.v == nil || g.v.ptr == nil {
		return lvalue{}, false
	}
	pos := p.fallback(x)
	p.nullCheck(g.v, pos)
	return lvalue{v: g.v.ptr.target, kok: true, pos: pos}, true
}

// refArg binds a parameter of type pointer to an integer: an argument
// "&x" (x a scalar variable, or an element with a constant index, local
// or shared), another such parameter or a modelled pointer (checked not
// null) gives the variable *parameter names in the inlined body. Any other use of the parameter than *p, or
// passing it on, is refused where it is used.
func (p *proc) refArg(pt cc.Type, arg cc.ExpressionNode, pos cs.Pos) (lvalue, bool) {
	ptr, ok := pt.(*cc.PointerType)
	if !ok || !isInteger(ptr.Elem()) {
		return lvalue{}, false
	}
	e := unparen(arg)
	if u, ok := e.(*cc.UnaryExpression); ok && u.Case == cc.UnaryExpressionAddrof {
		lv := p.lval(u.CastExpression)
		if !lv.kok || lv.size() >= 0 && lv.idx != nil {
			refuse(pos, "a pointer argument to an element chosen at run time")
		}
		if lv.shared() && (lv.v.mutex || lv.v.ptr != nil) {
			return lvalue{}, false
		}
		return lv, true
	}
	if x, ok := e.(*cc.PrimaryExpression); ok && x.Case == cc.PrimaryExpressionIdent {
		if d, ok := x.ResolvedTo().(*cc.Declarator); ok {
			loc, g := p.lookup(d)
			if loc != nil && loc.ref != nil {
				return *loc.ref, true
			}
			if g != nil && g.v != nil && g.v.ptr != nil {
				// A modelled pointer: its target, once it is not null.
				p.nullCheck(g.v, pos)
				return lvalue{v: g.v.ptr.target, kok: true, pos: pos}, true
			}
		}
	}
	return lvalue{}, false
}

// nullCheck emits the check that the modelled pointer v is not null.
func (p *proc) nullCheck(v *shvar, pos cs.Pos) {
	val := p.load(lvalue{v: v, kok: true, pos: pos}, orderPlain)
	p.emit(&cs.IfStmt{If: pos, Cond: &cs.BinaryExpr{X: paren(val), OpPos: pos, Op: cs.NEQ, Y: lit(1, pos)}, Then: synBlock([]cs.Stmt{p.outOfRange(pos)}, pos)})
}

// refDeref resolves *prm for a pointer parameter bound by refArg.
func (p *proc) refDeref(x *cc.UnaryExpression) (lvalue, bool) {
	id, ok := unparen(x.CastExpression).(*cc.PrimaryExpression)
	if !ok || id.Case != cc.PrimaryExpressionIdent {
		return lvalue{}, false
	}
	d, _ := id.ResolvedTo().(*cc.Declarator)
	loc, _ := p.lookup(d)
	if loc == nil || loc.ref == nil {
		return lvalue{}, false
	}
	lv := *loc.ref
	lv.pos = p.fallback(x)
	return lv, true
}
