package cfront

import (
	"strings"

	"modernc.org/cc/v4"

	"fencer/cs"
)

// This file translates calls: the functions of the file (inlined), the
// C11 and GCC atomic operations (the x86 mapping under TSO, the SPARC one
// under PSO), pthreads, assert and the SV-COMP __VERIFIER_ functions.

// maxInline bounds the depth of inlined calls.
const maxInline = 64

func callArgs(x *cc.PostfixExpression) []cc.ExpressionNode {
	var out []cc.ExpressionNode
	for l := x.ArgumentExpressionList; l != nil; l = l.ArgumentExpressionList {
		out = append(out, l.AssignmentExpression)
	}
	return out
}

// calleeName is the name of a called function (a call through a pointer
// is refused).
func (p *proc) calleeName(x *cc.PostfixExpression, pos cs.Pos) string {
	id, ok := unparen(x.PostfixExpression).(*cc.PrimaryExpression)
	if !ok || id.Case != cc.PrimaryExpressionIdent {
		refuse(pos, "call through a function pointer")
	}
	if d, ok := id.ResolvedTo().(*cc.Declarator); ok {
		if loc, _ := p.lookup(d); loc != nil {
			refuse(pos, "call through a function pointer")
		}
	}
	return id.Token.SrcStr()
}

// fenceStmt translates a statement that is a seq_cst fence alone as a
// fence statement with the C statement's span (so that --reconsider can
// keep or remove it). It reports whether e was one.
func (p *proc) fenceStmt(e cc.ExpressionNode, start, semi cs.Pos) bool {
	x, ok := unparen(e).(*cc.PostfixExpression)
	if !ok || x.Case != cc.PostfixExpressionCall || start == cs.NoPos || semi < start {
		return false
	}
	id, ok := unparen(x.PostfixExpression).(*cc.PrimaryExpression)
	if !ok || id.Case != cc.PrimaryExpressionIdent {
		return false
	}
	args := callArgs(x)
	full := false
	switch id.Token.SrcStr() {
	case "__sync_synchronize":
		full = len(args) == 0
	case "atomic_thread_fence", "__atomic_thread_fence":
		if len(args) == 1 {
			o, ok := p.konst(args[0])
			full = ok && o == orderSeqCst
		}
	}
	if !full {
		return false
	}
	if p.atomic > 0 {
		refuse(start, "a fence inside an atomic block")
	}
	if p.isMain {
		p.observed = true
	}
	p.emit(&cs.FenceStmt{Fence: start, Semi: semi})
	if p.t.file.Src[semi.Offset()] == ';' {
		p.t.fencePoints[[2]int{start.Offset(), semi.Offset() + 1}] = true
	}
	return true
}

// order evaluates a memory order argument.
func (p *proc) order(e cc.ExpressionNode, pos cs.Pos) int {
	o, ok := p.konst(e)
	if !ok || o < 0 || o > 5 {
		refuse(pos, "memory order that is not a constant")
	}
	return int(o)
}

// addr resolves &x (an atomic operation's object).
func (p *proc) addr(e cc.ExpressionNode, pos cs.Pos) lvalue {
	u, ok := unparen(e).(*cc.UnaryExpression)
	if ok && u.Case == cc.UnaryExpressionAddrof {
		lv := p.lval(u.CastExpression)
		if lv.v == nil {
			refuse(pos, "an atomic operation on a local variable")
		}
		return lv
	}
	if ok && u.Case == cc.UnaryExpressionDeref {
		refuse(pos, "an atomic operation on a pointer other than &variable")
	}
	// An array name decays to the address of its first element.
	refuse(pos, "an atomic operation on something other than &variable")
	return lvalue{}
}

func nargs(name string, args []cc.ExpressionNode, n int, pos cs.Pos) {
	if len(args) != n {
		failAt(pos, "%s takes %d arguments, found %d", name, n, len(args))
	}
}

// call translates a call; it returns its value, or nil for a call without
// one.
func (p *proc) call(x *cc.PostfixExpression, needValue bool) cs.Expr {
	pos := p.fallback(x)
	name := p.calleeName(x, pos)
	args := callArgs(x)
	if r, ok := p.svcompCall(name, args, pos); ok {
		return r
	}
	if fi := p.t.funcs[name]; fi != nil {
		return p.inline(fi, args, pos)
	}
	if p.isMain {
		switch name {
		case "pthread_create", "thrd_create", "pthread_join", "thrd_join", "printf", "puts", "fprintf":
		default:
			p.observed = true
		}
	}
	switch {
	case strings.HasPrefix(name, "atomic_") || strings.HasPrefix(name, "__atomic_") || strings.HasPrefix(name, "__sync_"):
		return p.atomicCall(name, args, pos)
	case strings.HasPrefix(name, "__VERIFIER_"):
		return p.verifier(name, args, pos)
	}
	switch name {
	case "assert":
		nargs(name, args, 1, pos)
		c := p.rv(args[0])
		p.emit(&cs.AssertStmt{Assert: pos, X: c, Semi: pos - 1})
		return nil
	case "pthread_create", "thrd_create":
		p.create(name, args, pos)
		return lit(0, pos)
	case "pthread_join", "thrd_join":
		p.join(name, args, pos)
		return lit(0, pos)
	case "pthread_exit", "thrd_exit":
		if len(p.frames) > 0 && p.th == nil && !p.isMain {
			refuse(pos, "%s outside a thread", name)
		}
		p.endUsed = true
		p.emit(synGoto(p.endLabel, pos))
		return nil
	case "pthread_mutex_lock", "mtx_lock":
		nargs(name, args, 1, pos)
		lv := p.mutexArg(args[0], pos)
		// An acquire under a weak target (the default mapping has one
		// locked step for every order).
		p.rmwOrd(lv, orderAcquire, pos, func(m cs.Expr) []cs.Stmt {
			return []cs.Stmt{synAssume(eq(m, lit(0, pos)), pos), synAssign(m, lit(1, pos), pos)}
		})
		return lit(0, pos)
	case "pthread_mutex_unlock", "mtx_unlock":
		nargs(name, args, 1, pos)
		lv := p.mutexArg(args[0], pos)
		if p.t.target.weak() {
			// A release: the write of 0 after everything before it.
			p.store(lv, lit(0, pos), orderRelease, pos)
			return lit(0, pos)
		}
		p.rmw(lv, pos, func(m cs.Expr) []cs.Stmt { return []cs.Stmt{synAssign(m, lit(0, pos), pos)} })
		return lit(0, pos)
	case "pthread_mutex_init", "pthread_mutex_destroy", "mtx_init", "mtx_destroy":
		p.mutexArg(args[0], pos)
		return lit(0, pos)
	case "printf", "puts", "fprintf", "sched_yield", "thrd_yield", "usleep", "sleep", "nanosleep", "pthread_yield", "pthread_attr_init", "pthread_attr_destroy":
		// No effect on shared memory; calls and assignments in the
		// arguments still run.
		for _, a := range args {
			if !a.Pure() {
				p.effect(a)
			}
		}
		return lit(0, pos)
	}
	refuse(pos, "call of %s (not defined in this file)", name)
	return nil
}

func (p *proc) mutexArg(e cc.ExpressionNode, pos cs.Pos) lvalue {
	lv := p.addr(e, pos)
	if !lv.v.mutex {
		refuse(pos, "a lock operation on something other than a file-scope mutex")
	}
	return lv
}

// inline translates a call of a function of the file: its parameters are
// locals (or constants, for a constant argument of a parameter the body
// never assigns), its body is translated in place, return jumps to its end.
func (p *proc) inline(fi *funcInfo, args []cc.ExpressionNode, pos cs.Pos) cs.Expr {
	for _, f := range p.frames {
		if f.fi == fi {
			failAt(pos, "recursive call of %s: recursion is not supported", fi.name)
		}
	}
	if len(p.frames) > maxInline {
		refuse(pos, "calls nested more than %d deep", maxInline)
	}
	if fi.name == "main" {
		refuse(pos, "call of main")
	}
	if fi.refusal != nil {
		panic(*fi.refusal)
	}
	if len(args) != len(fi.params) {
		failAt(pos, "%s takes %d arguments, found %d", fi.name, len(fi.params), len(args))
	}
	nf := &frame{fi: fi, vars: map[*cc.Declarator]*local{}, labels: map[string]string{}}
	nf.last = lastReturn(fi.def.CompoundStatement)
	// Arguments first, in the caller's frame.
	for i, prm := range fi.params {
		pt := prm.Type()
		if ref, ok := p.refArg(pt, args[i], pos); ok {
			// A pointer to an integer, given &x: *prm is x.
			nf.vars[prm] = &local{ref: &ref, size: -1, typ: pt, cname: prm.Name()}
			continue
		}
		if !isInteger(pt) {
			refuse(p.fallback(prm), "parameter %s of type %s (only integers)", prm.Name(), pt)
		}
		if v, ok := p.konst(args[i]); ok && !fi.assigned[prm] {
			if pt.Kind() == cc.Bool {
				v = b2i(v != 0)
			}
			nf.vars[prm] = &local{konst: true, val: v, size: -1, typ: pt, cname: prm.Name()}
			continue
		}
		val := convert(p.rv(args[i]), pt, pos)
		if id, ok := val.(*cs.Ident); ok && !p.t.sharedNames[id.Name] && !fi.assigned[prm] {
			// A local of the caller that the body cannot assign (no
			// pointers to locals): the parameter is that local.
			nf.vars[prm] = &local{name: id.Name, size: -1, typ: pt, cname: prm.Name()}
			continue
		}
		name := p.newLocal(prm.Name(), -1, pos)
		p.emit(synAssign(ident(name, pos), val, pos))
		nf.vars[prm] = &local{name: name, size: -1, typ: pt, cname: prm.Name()}
	}
	ft, _ := fi.def.Declarator.Type().(*cc.FunctionType)
	if ft != nil && ft.Result().Kind() != cc.Void {
		if !isInteger(ft.Result()) {
			refuse(pos, "function %s returns %s (only integers)", fi.name, ft.Result())
		}
	}
	atomicFn := strings.HasPrefix(fi.name, "__VERIFIER_atomic")
	if e := singleReturn(fi); e != nil && !atomicFn {
		// "return e;" alone: the call is the value of e.
		p.frames = append(p.frames, nf)
		v := convert(p.rv(e), ft.Result(), pos)
		p.frames = p.frames[:len(p.frames)-1]
		return paren(v)
	}
	if ft != nil && ft.Result().Kind() != cc.Void {
		nf.retVar = p.tmp(fi.name, pos)
	}
	var body []cs.Stmt
	p.frames = append(p.frames, nf)
	if atomicFn && p.atomic == 0 {
		p.atomic++
		body = p.sub(func() { p.compound(fi.def.CompoundStatement) })
		p.atomic--
		checkAtomic(body)
		p.emit(synAtomic(body, pos))
	} else {
		p.compound(fi.def.CompoundStatement)
	}
	p.frames = p.frames[:len(p.frames)-1]
	if nf.retUsed {
		p.emit(synLabel(nf.retLabel, nil, pos))
	}
	if nf.retVar != "" {
		return ident(nf.retVar, pos)
	}
	return nil
}

// verifier translates the SV-COMP functions.
func (p *proc) verifier(name string, args []cc.ExpressionNode, pos cs.Pos) cs.Expr {
	switch {
	case strings.HasPrefix(name, "__VERIFIER_nondet_"):
		t := p.tmp("nd", pos)
		kind := strings.TrimPrefix(name, "__VERIFIER_nondet_")
		if kind == "bool" || kind == "_Bool" {
			// A choice between two values ("if (*)"), not a havoc and
			// an assume: the value is finite for the analysis, which
			// keeps it explicit.
			p.emit(&cs.IfStmt{If: pos, Cond: &cs.StarExpr{Star: pos},
				Then: synBlock([]cs.Stmt{synAssign(ident(t, pos), lit(1, pos), pos)}, pos),
				Else: synBlock([]cs.Stmt{synAssign(ident(t, pos), lit(0, pos), pos)}, pos)})
			return ident(t, pos)
		}
		p.emit(synAssign(ident(t, pos), &cs.StarExpr{Star: pos}, pos))
		switch kind {
		case "uint", "unsigned", "ulong", "ushort", "uchar", "size_t":
			p.emit(synAssume(&cs.BinaryExpr{X: ident(t, pos), OpPos: pos, Op: cs.GEQ, Y: lit(0, pos)}, pos))
		}
		return ident(t, pos)
	case name == "__VERIFIER_assume":
		nargs(name, args, 1, pos)
		p.emit(synAssume(p.rv(args[0]), pos))
		return nil
	case name == "__VERIFIER_atomic_begin" || name == "__VERIFIER_atomic_end":
		refuse(pos, "%s other than as a statement of its own", name)
	}
	refuse(pos, "call of %s", name)
	return nil
}

// atomicBegin and atomicEnd bracket statements that run as one locked step:
// the statements between them (in one block) become an atomic block.
func (p *proc) atomicBegin(pos cs.Pos) {
	if p.atomic > 0 {
		refuse(pos, "nested __VERIFIER_atomic_begin")
	}
	p.atomic++
	p.atomicOuts = append(p.atomicOuts, p.out)
	p.out = nil
}

func (p *proc) atomicEnd(pos cs.Pos) {
	if len(p.atomicOuts) == 0 {
		failAt(pos, "__VERIFIER_atomic_end without __VERIFIER_atomic_begin")
	}
	body := p.out
	p.out = p.atomicOuts[len(p.atomicOuts)-1]
	p.atomicOuts = p.atomicOuts[:len(p.atomicOuts)-1]
	p.atomic--
	checkAtomic(body)
	p.emit(synAtomic(body, pos))
}

// checkAtomic refuses the statements an atomic block cannot hold (one
// locked step is a straight-line list of operations per path): loops,
// jumps and labels, which the C of an atomic section can write (a while
// loop, a goto, a break, a switch) and the lowering of atomic blocks would
// otherwise drop.
func checkAtomic(list []cs.Stmt) {
	for _, s := range list {
		checkAtomicStmt(s)
	}
}

func checkAtomicStmt(s cs.Stmt) {
	const where = " inside an atomic section (__VERIFIER_atomic_*)"
	switch x := s.(type) {
	case *cs.BlockStmt:
		checkAtomic(x.List)
	case *cs.IfStmt:
		checkAtomicStmt(x.Then)
		if x.Else != nil {
			checkAtomicStmt(x.Else)
		}
	case *cs.WhileStmt, *cs.ForStmt:
		refuse(s.Pos(), "a loop"+where)
	case *cs.GotoStmt:
		refuse(s.Pos(), "a jump (goto, break, continue or switch)"+where)
	case *cs.LabeledStmt:
		refuse(s.Pos(), "a label or a loop"+where)
	case *cs.AtomicStmt:
		refuse(s.Pos(), "a nested atomic step"+where)
	case *cs.FenceStmt:
		refuse(s.Pos(), "a fence"+where)
	case *cs.DeclStmt:
		refuse(s.Pos(), "a declaration"+where)
	}
}

// singleReturn returns e when the body of fi is "return e;" alone.
func singleReturn(fi *funcInfo) cc.ExpressionNode {
	l := fi.def.CompoundStatement.BlockItemList
	// The hidden declaration of __func__ comes first.
	for l != nil && l.BlockItem != nil && l.BlockItem.Case == cc.BlockItemDecl && isFuncName(l.BlockItem.Declaration) {
		l = l.BlockItemList
	}
	if l == nil || l.BlockItemList != nil || l.BlockItem.Case != cc.BlockItemStmt {
		return nil
	}
	s := l.BlockItem.Statement
	if s.Case != cc.StatementJump || s.JumpStatement.Case != cc.JumpStatementReturn {
		return nil
	}
	return s.JumpStatement.ExpressionList
}

// isFuncName reports whether d is the hidden declaration of __func__.
func isFuncName(d *cc.Declaration) bool {
	if d == nil || d.InitDeclaratorList == nil || d.InitDeclaratorList.InitDeclaratorList != nil {
		return false
	}
	dcl := d.InitDeclaratorList.InitDeclarator.Declarator
	return dcl != nil && dcl.Name() == "__func__"
}
