package cs

import (
	"fmt"

	"fencer/expr"
)

// This file lowers the statements of a process into edges of its
// automaton (see doc.go for the rules); atomic blocks are in atomic.go.

// stmt lowers s starting at location from and returns the location where
// the next statement starts. bare is true when s is the whole body of an
// if, else, while or for without braces.
func (pl *procLowerer) stmt(s Stmt, from Loc, bare bool) Loc {
	pl.countStmt(s.Pos())
	switch s := s.(type) {
	case *BadStmt, *EmptyStmt, *SkipStmt, *DeclStmt:
		return from
	case *BlockStmt:
		return pl.block(s.List, from)
	case *LabeledStmt:
		pl.labels[s.Label.Name] = from
		// A goto to the label enters here too: a point that control
		// reaches from here with no edge in between is passed by the
		// label's gotos as well (sites.go).
		pl.entLabels = append(pl.entLabels, s.Label.Name)
		end := pl.stmt(s.Stmt, from, bare)
		if pl.find(end) != pl.find(from) {
			return end
		}
		// The statement has no operation (skip, an empty block or for): the
		// label still needs a point of its own, reached only by the paths
		// that execute it, or the end of a branch or loop body would be
		// merged into the join. One no-op step gives it one.
		pl.beginStmt(s.Stmt.Pos())
		to := pl.newLoc()
		pl.emit(from, to, Op{Kind: OpAssume, Val: expr.True}, s.Stmt.Pos())
		return to
	case *AssignStmt:
		pl.beginStmt(s.Pos())
		if call, ok := s.Rhs.(*CallExpr); ok {
			return pl.atomicForm(s, call, from, bare)
		}
		ops, w := pl.assignOps(s)
		pl.wrote = w >= 0
		if s.Ann != 0 {
			pl.annotate(s, ops)
		}
		if len(s.AddrDeps) > 0 {
			pl.addrDeps(s, ops)
		}
		return pl.chain(from, ops)
	case *AssumeStmt:
		pl.beginStmt(s.Pos())
		c := asBool(pl.lowerExpr(s.X))
		ops := append(pl.takeOps(), posOp{Op{Kind: OpAssume, Val: c}, s.Pos()})
		return pl.chain(from, ops)
	case *AssertStmt:
		pl.beginStmt(s.Pos())
		c := asBool(pl.lowerExpr(s.X))
		cur := pl.chain(from, pl.takeOps())
		to := pl.newLoc()
		pl.emit(cur, to, Op{Kind: OpAssume, Val: c}, s.Pos())
		pl.emit(cur, pl.errLocation(), Op{Kind: OpAssume, Val: expr.Not(c)}, s.Pos())
		return to
	case *FenceStmt:
		pl.beginStmt(s.Pos())
		if pl.reconsider && s.Kind == FullFence {
			return from // a candidate like any other point (sites.go)
		}
		to := pl.newLoc()
		pl.emit(from, to, Op{Kind: OpFence, Fence: s.Kind}, s.Pos())
		return to
	case *GotoStmt:
		pl.beginStmt(s.Pos())
		i := pl.emit(from, from, Op{Kind: OpAssume, Val: expr.True}, s.Pos())
		pl.isGoto[i] = true
		pl.gotos = append(pl.gotos, pendingGoto{edge: i, label: s.Label})
		return pl.newLoc() // unreachable unless labeled
	case *IfStmt:
		pl.beginStmt(s.Pos())
		cur, c := pl.condition(s.Cond, from)
		then, els := pl.newLoc(), pl.newLoc()
		yes := len(pl.edges)
		pl.branch(cur, then, els, c, s.Pos())
		t := pl.body(s.Then, then, []int{yes})
		e := els
		if s.Else != nil {
			e = pl.body(s.Else, els, []int{yes + 1})
		}
		pl.merge(t, e)
		return pl.find(e)
	case *WhileStmt:
		pl.beginStmt(s.Pos())
		head := from
		cur, c := pl.condition(s.Cond, head)
		body, exit := pl.newLoc(), pl.newLoc()
		yes := len(pl.edges)
		pl.branch(cur, body, exit, c, s.Pos())
		pl.depth++
		end := pl.body(s.Body, body, []int{yes})
		pl.depth--
		pl.merge(end, head)
		return exit
	case *ForStmt:
		lo, ok1 := pl.constExpr(s.Lo, "a for bound")
		hi, ok2 := pl.constExpr(s.Hi, "a for bound")
		if !ok1 || !ok2 || hi < lo {
			return from
		}
		if hi-lo < 0 || hi-lo >= MaxStmts {
			pl.errorf(s.Lo.Pos(), "for range %d..%d too large", lo, hi)
			return from
		}
		cur := from
		outer := max(pl.copies, 1)
		pl.copies = min(outer*int(hi-lo+1), 1<<30)
		for v := lo; ; v++ {
			pl.scope.idx = append(pl.scope.idx, binding{name: s.Var.Name, value: v})
			cur = pl.body(s.Body, cur, pl.ent)
			pl.scope.idx = pl.scope.idx[:len(pl.scope.idx)-1]
			if v == hi {
				break
			}
		}
		pl.copies = outer
		return cur
	case *AtomicStmt:
		return pl.atomic(s, from)
	}
	panic(fmt.Sprintf("cs: unexpected statement %T", s))
}

// condition lowers the condition of if or while from location from: the
// reads, then the formula, or nil for "*".
func (pl *procLowerer) condition(e Expr, from Loc) (Loc, expr.Expr) {
	if _, ok := e.(*StarExpr); ok {
		return from, nil
	}
	c := asBool(pl.lowerExpr(e))
	return pl.chain(from, pl.takeOps()), c
}

// branch emits assume(c) from cur to yes and assume(!c) to no; for c nil
// (a "*" condition) both are assume(true).
func (pl *procLowerer) branch(cur, yes, no Loc, c expr.Expr, pos Pos) {
	cy, cn := expr.True, expr.True
	if c != nil {
		cy, cn = c, expr.Not(c)
	}
	pl.emit(cur, yes, Op{Kind: OpAssume, Val: cy}, pos)
	pl.emit(cur, no, Op{Kind: OpAssume, Val: cn}, pos)
}

// target resolves the left-hand side of an assignment; ok is false after an
// error.
func (pl *procLowerer) target(lhs Expr) (ref, bool) {
	r := pl.resolve(lhs)
	switch r.kind {
	case refBad:
		return r, false
	case refConst:
		pl.errorf(lhs.Pos(), "cannot assign to constant %s", r.name)
		return r, false
	case refIndex:
		if r.tmpl {
			pl.errorf(lhs.Pos(), "cannot assign to template index %s", r.name)
		} else {
			pl.errorf(lhs.Pos(), "cannot assign to for index %s", r.name)
		}
		return r, false
	}
	return r, true
}

// assignOps lowers lhs = rhs (rhs not a call) into its operations; w is the
// index of the write to a shared target, or -1.
func (pl *procLowerer) assignOps(s *AssignStmt) (ops []posOp, w int) {
	t, ok := pl.target(s.Lhs)
	if !ok {
		return nil, -1
	}
	pos := s.Pos()
	if _, star := s.Rhs.(*StarExpr); star {
		if t.kind == refLocal {
			return []posOp{{Op{Kind: OpHavoc, Local: t.name}, pos}}, -1
		}
		tmp := pl.newTemp()
		return []posOp{
			{Op{Kind: OpHavoc, Local: tmp}, pos},
			{Op{Kind: OpWrite, Shared: t.name, Val: expr.V(tmp)}, pos},
		}, 1
	}
	if t.kind == refLocal {
		if x := unparen(s.Rhs); isVarRef(x) {
			r := pl.resolve(x)
			if r.kind == refShared { // r = x: one read
				return []posOp{{Op{Kind: OpRead, Local: t.name, Shared: r.name}, x.Pos()}}, -1
			}
		}
		v := asInt(pl.lowerExpr(s.Rhs))
		return append(pl.takeOps(), posOp{Op{Kind: OpAssign, Local: t.name, Val: v}, pos}), -1
	}
	v := asInt(pl.lowerExpr(s.Rhs))
	ops = append(pl.takeOps(), posOp{Op{Kind: OpWrite, Shared: t.name, Val: v}, pos})
	return ops, len(ops) - 1
}

// annotate gives the access of an annotated assignment its order: the
// write of release x = e; (e's own reads stay plain), the read of
// acquire r = x;. Anything else is an error at the word.
func (pl *procLowerer) annotate(s *AssignStmt, ops []posOp) {
	want, what := OpWrite, "release needs a write to a shared variable (release x = e;)"
	if s.Ann&Release == 0 {
		// Acquire or AcquirePC: a read (a write may carry Acquire with
		// Release, RISC-V's sw.aqrl, which orders as a release)
		want, what = OpRead, "acquire needs a read of one shared variable into a local (acquire r = x;)"
	}
	if len(ops) == 0 || ops[len(ops)-1].op.Kind != want || want == OpRead && len(ops) != 1 {
		pl.errorf(s.AnnPos, "%s", what)
		return
	}
	ops[len(ops)-1].op.Ann = s.Ann
}

// addrDeps gives the access of the statement the locals its address
// depends on.
func (pl *procLowerer) addrDeps(s *AssignStmt, ops []posOp) {
	i := len(ops) - 1
	if i < 0 || ops[i].op.Kind != OpWrite && (len(ops) != 1 || ops[i].op.Kind != OpRead) {
		pl.errorf(s.Pos(), "an address dependency needs one shared access")
		return
	}
	for _, id := range s.AddrDeps {
		r := pl.resolve(id)
		if r.kind != refLocal {
			pl.errorf(id.Pos(), "address dependency on %s, which is not a local", id.Name)
			continue
		}
		ops[i].op.Addr = append(ops[i].op.Addr, r.name)
	}
}

func unparen(e Expr) Expr {
	for {
		p, ok := e.(*ParenExpr)
		if !ok {
			return e
		}
		e = p.X
	}
}

func isVarRef(e Expr) bool {
	switch e.(type) {
	case *Ident, *IndexExpr:
		return true
	}
	return false
}

// atomicForm lowers r = cas(x, e1, e2), r = fetch_add(x, e), r = swap(x, e):
// the reads of the arguments, then one atomic step (two edges for cas),
// then, for a shared r, a write of the result.
func (pl *procLowerer) atomicForm(s *AssignStmt, call *CallExpr, from Loc, bare bool) Loc {
	name := call.Fun.Name
	want := 2
	if name == "cas" {
		want = 3
	}
	t, ok := pl.target(s.Lhs)
	if !ok || len(call.Args) != want {
		return from
	}
	x := unparen(call.Args[0])
	if !isVarRef(x) {
		pl.errorf(x.Pos(), "the first argument of %s must be a shared variable", name)
		return from
	}
	xr := pl.resolve(x)
	switch xr.kind {
	case refBad:
		return from
	case refShared:
	default:
		pl.errorf(x.Pos(), "the first argument of %s must be a shared variable", name)
		return from
	}
	var args []expr.Expr
	for _, a := range call.Args[1:] {
		args = append(args, asInt(pl.lowerExpr(a)))
	}
	cur := pl.chain(from, pl.takeOps())
	old := pl.newTemp()
	res := t.name
	if t.kind == refShared {
		res = pl.newTemp()
	}
	read := Op{Kind: OpRead, Local: old, Shared: xr.name}
	vold := expr.V(old)
	var bodies [][]Op
	switch name {
	case "cas":
		bodies = [][]Op{
			{read, {Kind: OpAssume, Val: expr.Eq(vold, args[0])}, {Kind: OpWrite, Shared: xr.name, Val: args[1]}, {Kind: OpAssign, Local: res, Val: expr.One}},
			{read, {Kind: OpAssume, Val: expr.Ne(vold, args[0])}, {Kind: OpAssign, Local: res, Val: expr.Zero}},
		}
	case "fetch_add":
		bodies = [][]Op{{read, {Kind: OpWrite, Shared: xr.name, Val: expr.Add(vold, args[0])}, {Kind: OpAssign, Local: res, Val: vold}}}
	case "swap":
		bodies = [][]Op{{read, {Kind: OpWrite, Shared: xr.name, Val: args[0]}, {Kind: OpAssign, Local: res, Val: vold}}}
	}
	to := pl.newLoc()
	for _, b := range bodies {
		pl.emit(cur, to, Op{Kind: OpAtomic, Body: b, Ann: rmwAnn(s.Ann)}, s.Pos())
	}
	if t.kind != refShared {
		return to
	}
	end := pl.newLoc()
	pl.emit(to, end, Op{Kind: OpWrite, Shared: t.name, Val: expr.V(res)}, s.Pos())
	pl.wrote = true
	return end
}
