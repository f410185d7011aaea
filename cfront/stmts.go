package cfront

import (
	"modernc.org/cc/v4"

	"fencer/cs"
)

// This file translates statements. Each C statement becomes zero or more
// .cs statements appended to the process's output; a statement that writes
// shared memory through a buffer becomes a block whose span is the C
// statement's, so that the point after it is a fence site (Parse marks
// those sites and only those).

// maxUnroll bounds the iterations of a for loop that is unrolled.
const maxUnroll = 256

func (p *proc) compound(c *cc.CompoundStatement) {
	for l := c.BlockItemList; l != nil; l = l.BlockItemList {
		p.item(l.BlockItem)
	}
}

func (p *proc) item(bi *cc.BlockItem) {
	if bi == nil {
		return
	}
	switch bi.Case {
	case cc.BlockItemDecl:
		if p.t.target.weak() && p.atomic == 0 {
			p.declStmt(bi.Declaration)
			return
		}
		p.declaration(bi.Declaration)
	case cc.BlockItemStmt:
		p.stmt(bi.Statement)
	case cc.BlockItemLabel:
		refuse(p.t.pos(bi), "__label__ declarations")
	default:
		refuse(p.t.pos(bi), "nested function definitions")
	}
}

// body translates the body of an if, else or loop into a block: the C
// braces, or for a body without braces a block with the body's span.
func (p *proc) body(s *cc.Statement) *cs.BlockStmt {
	list := p.sub(func() { p.stmt(s) })
	if s.Case == cc.StatementCompound {
		c := s.CompoundStatement
		return &cs.BlockStmt{Lbrace: p.t.pos(c.Token), List: list, Rbrace: p.t.pos(c.Token2)}
	}
	start, end := p.markBare(s)
	if start == cs.NoPos {
		return synBlock(list, p.fallback(s))
	}
	return &cs.BlockStmt{Lbrace: start, List: list, Rbrace: end - 1}
}

// markBare records the span of s, the body of an if, else or loop, when it
// is written without braces: a fence after it must go inside new braces.
// It returns the span (NoPos for a compound statement or one that is not
// in the file).
func (p *proc) markBare(s *cc.Statement) (cs.Pos, cs.Pos) {
	if s == nil || s.Case == cc.StatementCompound {
		return cs.NoPos, cs.NoPos
	}
	start, end := p.t.pos(s), p.stmtEnd(s)
	if mstart, mend, ok := p.macroSpan(s); ok {
		start, end = mstart, mend
	}
	if start == cs.NoPos || end < start {
		return cs.NoPos, cs.NoPos
	}
	p.t.bare[[2]int{start.Offset(), end.Offset()}] = true
	return start, end
}

// fallback is a position for a node of a header or a macro: the position
// of the statement being translated.
func (p *proc) fallback(n cc.Node) cs.Pos {
	if q := p.t.pos(n); q != cs.NoPos {
		return q
	}
	return p.pos
}

// stmtEnd is the position just after the last token of s (NoPos if it is
// not in the file).
func (p *proc) stmtEnd(s *cc.Statement) cs.Pos {
	var last cc.Token
	found := false
	for _, tok := range cc.NodeTokens(s) {
		last, found = tok, true
	}
	if !found {
		return cs.NoPos
	}
	q := p.t.pos(last)
	if q == cs.NoPos {
		return cs.NoPos
	}
	end := q + cs.Pos(len(last.Src()))
	if end.Offset() > len(p.t.file.Src) || string(p.t.file.Src[q.Offset():end.Offset()]) != string(last.Src()) {
		return cs.NoPos // a token of a macro's body
	}
	return end
}

func (p *proc) stmt(s *cc.Statement) {
	if s == nil {
		return
	}
	if q := p.t.pos(s); q != cs.NoPos {
		p.pos = q
	}
	if p.atomic == 0 && s.Case != cc.StatementLabeled && s.Case != cc.StatementJump {
		if start, end, ok := p.macroSpan(s); ok && (s.Case != cc.StatementExpr || p.stmtEnd(s) == cs.NoPos) {
			// The last statement of a macro's expansion ("do { ... } while
			// (0)", "x = 1;"): its inside cannot be patched, the point
			// after the call (or after the ';' that follows it) can, and
			// is a fence site when the statement writes. (An expression
			// statement that ends with the file's ';' is a site of its
			// own in exprStmt.)
			p.spanned(s, start, end)
			return
		}
		if start, ok := p.t.macroCall(s); ok && p.t.lastOfCall[start.Offset()] != s {
			// Not the last statement of its macro's expansion: the point
			// after it is not in the C text.
			saved := p.wroteAny
			p.wroteAny = false
			p.stmtCase(s)
			if p.wroteAny {
				name := p.t.macroName(start)
				what := "writes"
				if p.t.target.weak() {
					what = "accesses"
				}
				p.t.warn(start, "macro "+name, "the macro %s expands to several statements and one before the last %s shared memory: a fence can go after the call, not between them (if one is needed there, the result is unknown; write the statements without the macro)", name, what)
			}
			p.wroteAny = p.wroteAny || saved
			return
		}
		if s.Case == cc.StatementIteration {
			// A loop that writes: the point after it is a fence site too,
			// where a fence runs once rather than once per iteration.
			if start, end := p.t.pos(s), p.stmtEnd(s); start != cs.NoPos && end > start {
				p.spanned(s, start, end)
				return
			}
		}
	}
	p.stmtCase(s)
}

// spanned translates s as one statement with the span [start, end) of the
// C text, whose end is a fence site when s writes shared memory.
func (p *proc) spanned(s *cc.Statement, start, end cs.Pos) {
	saved := p.wroteAny
	p.wroteAny = false
	list := p.sub(func() { p.stmtCase(s) })
	if p.wroteAny {
		p.emit(&cs.BlockStmt{Lbrace: start, List: list, Rbrace: end - 1})
		p.writePoint(start, end)
	} else {
		p.emit(list...)
	}
	p.wroteAny = p.wroteAny || saved
}

// writePoint records [start, end) as the span of a C statement that writes
// shared memory, run in p.copies copies.
func (p *proc) writePoint(start, end cs.Pos) {
	k := [2]int{start.Offset(), end.Offset()}
	p.t.writePoints[k] = true
	p.t.copies[k] = max(p.t.copies[k], p.copies, 1)
}

func (p *proc) stmtCase(s *cc.Statement) {
	switch s.Case {
	case cc.StatementLabeled:
		p.labeled(s.LabeledStatement)
	case cc.StatementCompound:
		p.compound(s.CompoundStatement)
	case cc.StatementExpr:
		p.exprStmt(s.ExpressionStatement, p.t.pos(s))
	case cc.StatementSelection:
		p.selection(s.SelectionStatement)
	case cc.StatementIteration:
		p.iteration(s.IterationStatement)
	case cc.StatementJump:
		p.jump(s.JumpStatement)
	case cc.StatementAsm:
		p.asm(s.AsmStatement.Asm, p.t.pos(s), p.t.pos(s.AsmStatement.Token))
	}
}

// exprStmt translates "e;".
func (p *proc) exprStmt(es *cc.ExpressionStatement, start cs.Pos) {
	if es.ExpressionList == nil {
		return
	}
	semi := p.t.pos(es.Token)
	if x, ok := unparen(es.ExpressionList).(*cc.PostfixExpression); ok && x.Case == cc.PostfixExpressionCall {
		if id, ok := unparen(x.PostfixExpression).(*cc.PrimaryExpression); ok && id.Case == cc.PrimaryExpressionIdent {
			switch id.Token.SrcStr() {
			case "__VERIFIER_atomic_begin":
				p.atomicBegin(start)
				return
			case "__VERIFIER_atomic_end":
				p.atomicEnd(start)
				return
			}
		}
	}
	if ok := p.fenceStmt(es.ExpressionList, start, semi); ok {
		return
	}
	saved := p.wrote
	p.wrote = false
	list := p.sub(func() { p.effect(es.ExpressionList) })
	if p.atomic == 0 {
		p.emitSpanned(list, start, semi)
	} else {
		p.emit(list...)
	}
	p.wrote = saved
}

// emitSpanned emits list, the translation of the C statement start..semi,
// as one statement with the C span when it wrote shared memory (one write:
// the write itself; more: a block) and makes the point after it a fence
// site; otherwise as it is.
func (p *proc) emitSpanned(list []cs.Stmt, start, semi cs.Pos) {
	if !p.wrote || len(list) == 0 || start == cs.NoPos || semi < start || p.t.file.Src[semi.Offset()] != ';' {
		p.emit(list...)
		return
	}
	if a, ok := list[0].(*cs.AssignStmt); ok && len(list) == 1 {
		p.t.moveAccess(a.Lhs.Pos(), start)
		setPos(a.Lhs, start)
		a.Semi = semi
		p.emit(a)
	} else {
		p.emit(&cs.BlockStmt{Lbrace: start, List: list, Rbrace: semi})
	}
	p.writePoint(start, semi+1)
}

// declStmt translates a local declaration under a weak target: one whose
// initialisers access shared memory ("int r = x;") is a statement with the
// declaration's span, and the point after it a fence site, as for an
// expression statement.
func (p *proc) declStmt(d *cc.Declaration) {
	saved := p.wrote
	p.wrote = false
	list := p.sub(func() { p.declaration(d) })
	start, semi := p.t.pos(d), cs.NoPos
	if d != nil {
		semi = p.t.pos(d.Token)
	}
	p.emitSpanned(list, start, semi)
	p.wrote = saved
}

func (p *proc) labeled(ls *cc.LabeledStatement) {
	pos := p.fallback(ls)
	switch ls.Case {
	case cc.LabeledStatementLabel:
		if p.atomic > 0 && p.unusedLabel(ls.Token.SrcStr()) {
			// A label nothing jumps to is no location of its own: inside
			// an atomic section, where a label cannot stand, it is
			// dropped (docs/c.md).
			p.stmt(ls.Statement)
			return
		}
		name := p.userLabel(ls.Token.SrcStr(), pos)
		list := p.sub(func() { p.stmt(ls.Statement) })
		p.emit(p.labelOn(name, list, pos))
	case cc.LabeledStatementCaseLabel, cc.LabeledStatementDefault:
		sw := p.switchCtx()
		if sw == nil {
			failAt(pos, "case label outside a switch")
		}
		name := sw.caseLabels[ls]
		list := p.sub(func() { p.stmt(ls.Statement) })
		p.emit(p.labelOn(name, list, pos))
	default:
		refuse(pos, "case ranges")
	}
}

// labelOn puts a label on the statements list.
func (p *proc) labelOn(name string, list []cs.Stmt, pos cs.Pos) cs.Stmt {
	switch len(list) {
	case 0:
		return synLabel(name, nil, pos)
	case 1:
		return synLabel(name, list[0], pos)
	}
	return synLabel(name, synBlock(list, pos), pos)
}

// userLabel is the .cs name of a C label of the current frame.
func (p *proc) userLabel(name string, pos cs.Pos) string {
	f := p.frame()
	if l, ok := f.labels[name]; ok {
		return l
	}
	l := uniqueName(name, p.names)
	f.labels[name] = l
	return l
}

func (p *proc) selection(s *cc.SelectionStatement) {
	pos := p.fallback(s)
	switch s.Case {
	case cc.SelectionStatementIf, cc.SelectionStatementIfElse:
		if k, ok := p.konst(s.ExpressionList); ok {
			// A constant condition (as j != me in an unrolled loop): the
			// branch taken, when the other has no label to jump to.
			taken, dead := s.Statement, s.Statement2
			if k == 0 {
				taken, dead = s.Statement2, s.Statement
			}
			if dead == nil || !hasLabel(dead) {
				if taken != nil {
					p.emit(p.body(taken))
				}
				return
			}
		}
		c := p.cond(s.ExpressionList)
		then := p.body(s.Statement)
		is := &cs.IfStmt{If: pos, Cond: c, Then: then}
		if s.Case == cc.SelectionStatementIfElse {
			is.Else = p.body(s.Statement2)
		}
		p.emit(is)
	case cc.SelectionStatementSwitch:
		p.switchStmt(s, pos)
	}
}

// switchFrame is a loop entry for a switch, with its case labels.
type switchFrame struct {
	*loop
	caseLabels map[*cc.LabeledStatement]string
}

func (p *proc) switchCtx() *switchFrame {
	for i := len(p.switches) - 1; i >= 0; i-- {
		return p.switches[i]
	}
	return nil
}

func (p *proc) switchStmt(s *cc.SelectionStatement, pos cs.Pos) {
	v := p.rv(s.ExpressionList)
	if p.t.mentionsShared(v) || !isSimple(v) {
		tmp := p.tmp("sw", pos)
		p.emit(synAssign(ident(tmp, pos), v, pos))
		v = ident(tmp, pos)
	}
	sw := &switchFrame{loop: &loop{brk: p.label("_brk"), isSwitch: true}, caseLabels: map[*cc.LabeledStatement]string{}}
	// The case labels of this switch (not of a nested one).
	var cases []*cc.LabeledStatement
	var dflt *cc.LabeledStatement
	var find func(n any) bool
	find = func(n any) bool {
		switch x := n.(type) {
		case *cc.SelectionStatement:
			return x.Case != cc.SelectionStatementSwitch
		case *cc.LabeledStatement:
			switch x.Case {
			case cc.LabeledStatementCaseLabel:
				cases = append(cases, x)
				sw.caseLabels[x] = p.label("_case")
			case cc.LabeledStatementDefault:
				dflt = x
				sw.caseLabels[x] = p.label("_default")
			}
		}
		return true
	}
	inspect(s.Statement, find)
	// Dispatch: if (v == c1) goto case1; else if ... else goto default/break.
	var dispatch cs.Stmt
	if dflt != nil {
		dispatch = synGoto(sw.caseLabels[dflt], pos)
	} else {
		dispatch = synGoto(sw.brk, pos)
		sw.brkUsed = true
	}
	for i := len(cases) - 1; i >= 0; i-- {
		c := cases[i]
		k, ok := constValue(c.ConstantExpression)
		if !ok {
			refuse(p.fallback(c), "case label that is not a constant")
		}
		dispatch = &cs.IfStmt{If: pos, Cond: eq(v, lit(k, pos)), Then: synBlock([]cs.Stmt{synGoto(sw.caseLabels[c], pos)}, pos), Else: synBlock([]cs.Stmt{dispatch}, pos)}
	}
	p.emit(dispatch)
	p.loops = append(p.loops, sw.loop)
	p.switches = append(p.switches, sw)
	p.stmt(s.Statement)
	p.switches = p.switches[:len(p.switches)-1]
	p.loops = p.loops[:len(p.loops)-1]
	if sw.brkUsed {
		p.emit(synLabel(sw.brk, nil, pos))
	}
}

// isSimple reports whether a .cs expression is a constant or a name.
func isSimple(e cs.Expr) bool {
	switch e.(type) {
	case *cs.IntLit, *cs.Ident:
		return true
	}
	return false
}

func (p *proc) pushLoop() *loop {
	l := &loop{brk: p.label("_brk"), cont: p.label("_cont")}
	p.loops = append(p.loops, l)
	return l
}

func (p *proc) popLoop() { p.loops = p.loops[:len(p.loops)-1] }

func (p *proc) iteration(s *cc.IterationStatement) {
	pos := p.fallback(s)
	switch s.Case {
	case cc.IterationStatementWhile:
		p.whileLoop(s.ExpressionList, s.Statement, nil, pos)
	case cc.IterationStatementDo:
		l := p.pushLoop()
		top := p.label("_do")
		p.markBare(s.Statement)
		body := p.sub(func() { p.stmt(s.Statement) })
		if k, ok := p.konst(s.ExpressionList); ok && k == 0 && p.atomic > 0 {
			// do { ... } while (0) in an atomic section (a macro's body):
			// the body once. An atomic block has no jumps, so a break or
			// continue in it is refused rather than lost.
			p.popLoop()
			if l.brkUsed || l.contUsed {
				refuse(pos, "break or continue in do { ... } while (0) inside an atomic section (__VERIFIER_atomic_*)")
			}
			p.emit(body...)
			return
		}
		p.emit(p.labelOn(top, body, pos))
		if l.contUsed {
			p.emit(synLabel(l.cont, nil, pos))
		}
		c := p.cond(s.ExpressionList)
		p.emit(&cs.IfStmt{If: pos, Cond: c, Then: synBlock([]cs.Stmt{synGoto(top, pos)}, pos)})
		p.popLoop()
		if l.brkUsed {
			p.emit(synLabel(l.brk, nil, pos))
		}
	case cc.IterationStatementFor, cc.IterationStatementForDecl:
		cond, step := s.ExpressionList2, s.ExpressionList3
		if s.Case == cc.IterationStatementForDecl {
			cond, step = s.ExpressionList, s.ExpressionList2
		}
		if p.unroll(s, cond, step, pos) {
			return
		}
		if s.Case == cc.IterationStatementForDecl {
			p.declaration(s.Declaration)
		} else if s.ExpressionList != nil {
			p.effect(s.ExpressionList)
		}
		p.whileLoop(cond, s.Statement, step, pos)
	}
}

// whileLoop translates while (cond) body, with step run after the body
// and at continue (a for loop). A nil cond is true.
func (p *proc) whileLoop(condE cc.ExpressionNode, bodyS *cc.Statement, step cc.ExpressionNode, pos cs.Pos) {
	l := p.pushLoop()
	var c cs.Expr = lit(1, pos)
	var pre []cs.Stmt
	if condE != nil {
		pre = p.sub(func() { c = p.cond(condE) })
	}
	p.markBare(bodyS)
	body := p.sub(func() {
		p.stmt(bodyS)
		if step != nil {
			if l.contUsed {
				p.emit(synLabel(l.cont, nil, pos))
				l.contUsed = false // the label is placed: continue goes here
				l.cont = ""
			}
			p.effect(step)
		}
	})
	contAtHead := l.contUsed
	var w *cs.WhileStmt
	if len(pre) == 0 {
		w = &cs.WhileStmt{While: pos, Cond: c, Body: synBlock(body, pos)}
	} else {
		l.brkUsed = true
		exit := &cs.IfStmt{If: pos, Cond: &cs.UnaryExpr{OpPos: pos, Op: cs.NOT, X: &cs.ParenExpr{Lparen: pos, X: c, Rparen: pos}}, Then: synBlock([]cs.Stmt{synGoto(l.brk, pos)}, pos)}
		inner := append(append(pre, exit), body...)
		w = &cs.WhileStmt{While: pos, Cond: lit(1, pos), Body: synBlock(inner, pos)}
	}
	p.popLoop()
	if contAtHead {
		p.emit(synLabel(l.cont, w, pos))
	} else {
		p.emit(w)
	}
	if l.brkUsed {
		p.emit(synLabel(l.brk, nil, pos))
	}
}

func (p *proc) jump(j *cc.JumpStatement) {
	pos := p.fallback(j)
	switch j.Case {
	case cc.JumpStatementGoto:
		p.emit(synGoto(p.userLabel(j.Token2.SrcStr(), pos), pos))
	case cc.JumpStatementGotoExpr:
		refuse(pos, "computed goto")
	case cc.JumpStatementBreak:
		if len(p.loops) == 0 {
			failAt(pos, "break outside a loop or switch")
		}
		l := p.loops[len(p.loops)-1]
		l.brkUsed = true
		p.emit(synGoto(l.brk, pos))
	case cc.JumpStatementContinue:
		var l *loop
		for i := len(p.loops) - 1; i >= 0; i-- {
			if !p.loops[i].isSwitch {
				l = p.loops[i]
				break
			}
		}
		if l == nil {
			failAt(pos, "continue outside a loop")
		}
		if l.lazyCont && l.cont == "" {
			l.cont = p.label("_next")
		}
		if l.cont == "" {
			failAt(pos, "continue here is not supported")
		}
		l.contUsed = true
		p.emit(synGoto(l.cont, pos))
	case cc.JumpStatementReturn:
		p.ret(j, pos)
	}
}

// ret translates return: the end of the thread (or of main), or of an
// inlined call (its result in the frame's variable).
func (p *proc) ret(j *cc.JumpStatement, pos cs.Pos) {
	f := p.frame()
	if j.ExpressionList != nil {
		if len(p.frames) > 1 && f.retVar != "" {
			var rt cc.Type
			if ft, ok := f.fi.def.Declarator.Type().(*cc.FunctionType); ok {
				rt = ft.Result()
			}
			v := convert(p.rv(j.ExpressionList), rt, pos)
			p.emit(synAssign(ident(f.retVar, pos), v, pos))
		} else {
			p.effect(j.ExpressionList)
		}
	}
	if f.last == j {
		return
	}
	if p.atomic > 0 {
		refuse(pos, "return inside an atomic function, other than at its end")
	}
	if len(p.frames) == 1 {
		p.endUsed = true
		p.emit(synGoto(p.endLabel, pos))
		return
	}
	if f.retLabel == "" {
		f.retLabel = p.label("_ret")
	}
	f.retUsed = true
	p.emit(synGoto(f.retLabel, pos))
}

// setPos moves the position of an assignment's target (so that the
// statement starts at pos).
func setPos(e cs.Expr, pos cs.Pos) {
	switch x := e.(type) {
	case *cs.Ident:
		x.NamePos = pos
	case *cs.IndexExpr:
		x.X.NamePos = pos
	}
}
