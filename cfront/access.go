package cfront

import (
	"fmt"

	"modernc.org/cc/v4"

	"fencer/cs"
)

// This file translates the accesses to variables: lvalues, loads and
// stores (with the x86 and SPARC mapping of their memory order), and the
// elements of arrays chosen at run time.

// lval resolves an lvalue expression.
func (p *proc) lval(e cc.ExpressionNode) lvalue {
	pos := p.fallback(e)
	switch x := unparen(e).(type) {
	case *cc.PrimaryExpression:
		if x.Case != cc.PrimaryExpressionIdent {
			break
		}
		d, ok := x.ResolvedTo().(*cc.Declarator)
		if !ok {
			failAt(pos, "%s is not a variable", x.Token.SrcStr())
		}
		loc, g := p.lookup(d)
		switch {
		case loc != nil:
			if loc.ref != nil {
				refuse(pos, "pointer parameter %s used other than as *%s", d.Name(), d.Name())
			}
			if loc.arg != nil {
				refuse(pos, "the thread argument %s used other than through a cast", d.Name())
			}
			return lvalue{l: loc, kok: true, pos: pos}
		case g != nil && g.v != nil:
			return lvalue{v: g.v, kok: true, pos: pos}
		case g != nil:
			refuse(pos, "access to the whole struct %s", d.Name())
		default:
			refuse(pos, "variable %s", d.Name())
		}
	case *cc.PostfixExpression:
		switch x.Case {
		case cc.PostfixExpressionIndex:
			base := p.arrayBase(x.PostfixExpression, pos)
			return p.indexed(base, x.ExpressionList, pos)
		case cc.PostfixExpressionSelect:
			return p.field(x, pos)
		case cc.PostfixExpressionPSelect:
			refuse(pos, "pointer access ->")
		}
	case *cc.UnaryExpression:
		if x.Case == cc.UnaryExpressionDeref {
			if lv, ok := p.argDeref(x); ok {
				return lv
			}
			if lv, ok := p.ptrDeref(x); ok {
				return lv
			}
			if lv, ok := p.refDeref(x); ok {
				return lv
			}
			refuse(pos, "pointer dereference")
		}
	}
	refuse(pos, "this expression as a variable")
	return lvalue{}
}

// arrayBase resolves the array of an index expression.
func (p *proc) arrayBase(e cc.ExpressionNode, pos cs.Pos) lvalue {
	x, ok := unparen(e).(*cc.PrimaryExpression)
	if !ok || x.Case != cc.PrimaryExpressionIdent {
		refuse(pos, "indexing of something other than an array variable")
	}
	d, _ := x.ResolvedTo().(*cc.Declarator)
	loc, g := p.lookup(d)
	switch {
	case loc != nil && loc.size >= 0:
		return lvalue{l: loc, pos: pos}
	case g != nil && g.v != nil && g.v.size >= 0:
		return lvalue{v: g.v, pos: pos}
	}
	refuse(pos, "indexing of something other than an array variable")
	return lvalue{}
}

// indexed is element idx of the array base.
func (p *proc) indexed(base lvalue, idx cc.ExpressionNode, pos cs.Pos) lvalue {
	if k, ok := p.konst(idx); ok {
		base.k, base.kok = k, true
		return base
	}
	base.idx = p.rv(idx)
	if k, ok := literal(base.idx); ok {
		// A constant after translation (a call such as other(me)).
		base.k, base.kok, base.idx = k, true, nil
	}
	return base
}

// field resolves s.f and a[i].f.
func (p *proc) field(x *cc.PostfixExpression, pos cs.Pos) lvalue {
	name := x.Token2.SrcStr()
	var g *global
	var idx cc.ExpressionNode
	switch b := unparen(x.PostfixExpression).(type) {
	case *cc.PrimaryExpression:
		if b.Case == cc.PrimaryExpressionIdent {
			if d, ok := b.ResolvedTo().(*cc.Declarator); ok {
				_, g = p.lookup(d)
			}
		}
	case *cc.PostfixExpression:
		if b.Case == cc.PostfixExpressionIndex {
			if a, ok := unparen(b.PostfixExpression).(*cc.PrimaryExpression); ok && a.Case == cc.PrimaryExpressionIdent {
				if d, ok := a.ResolvedTo().(*cc.Declarator); ok {
					_, g = p.lookup(d)
				}
				idx = b.ExpressionList
			}
		}
	}
	if g == nil || g.fields == nil {
		refuse(pos, "field access other than of a file-scope struct or array of structs")
	}
	v := g.fields[name]
	if v == nil {
		failAt(pos, "no field %s", name)
	}
	lv := lvalue{v: v, kok: true, pos: pos}
	if (idx == nil) != (g.size < 0) {
		refuse(pos, "this field access")
	}
	if idx != nil {
		return p.indexed(lvalue{v: v, pos: pos}, idx, pos)
	}
	return lv
}

// argDeref resolves *(T *)arg, the thread argument read back through a
// cast: the element whose address main passed.
func (p *proc) argDeref(x *cc.UnaryExpression) (lvalue, bool) {
	a := p.argOf(x.CastExpression)
	if a == nil || a.ptr == nil {
		return lvalue{}, false
	}
	return lvalue{v: a.ptr, k: int64(a.idx), kok: true, pos: p.fallback(x)}, true
}

// argOf returns the thread argument that e names, through casts, or nil.
func (p *proc) argOf(e cc.ExpressionNode) *argVal {
	e = uncast(e)
	id, ok := e.(*cc.PrimaryExpression)
	if !ok || id.Case != cc.PrimaryExpressionIdent {
		return nil
	}
	d, _ := id.ResolvedTo().(*cc.Declarator)
	loc, _ := p.lookup(d)
	if loc == nil {
		return nil
	}
	return loc.arg
}

// elemKey names an element for main's known values.
func elemKey(lv lvalue) string {
	name := ""
	if lv.v != nil {
		name = lv.v.name
	} else if lv.l != nil {
		name = "." + lv.l.name
	}
	return fmt.Sprintf("%s[%d]", name, lv.k)
}

// writtenByThreads reports whether a function other than main may write v.
func (t *translator) writtenByThreads(v *shvar) bool {
	g := t.globals[v.decl]
	for d := range t.outsideMain {
		if dg, _ := t.globalOf(d); dg == g {
			return true
		}
	}
	return false
}

// touch records an access of v by p of memory order order (orderPlain
// for a plain or volatile one), for mayRace.
func (p *proc) touch(v *shvar, write bool, order int) {
	v.accessors[p.name] = true
	v.writeAny = v.writeAny || write
	v.plainAny = v.plainAny || order == orderPlain && p.atomic == 0 && !v.atomic && !v.volatile && !v.mutex
}

// track records a plain access of a thread for the data-race warning.
func (p *proc) track(v *shvar, write bool, pos cs.Pos) {
	if p.th == nil || v.atomic || v.volatile || p.atomic > 0 {
		return
	}
	if write {
		if len(v.writers) == 0 && v.firstWrite == cs.NoPos {
			v.firstWrite = pos
		}
		v.writers[p.name] = true
	} else {
		v.readers[p.name] = true
	}
}

// load reads lv with a memory order (orderPlain for a plain or volatile
// access): under the default target every order is the same read.
func (p *proc) load(lv lvalue, order int) cs.Expr { return p.loadAt(lv, order, nil) }

// loadAt is load; arg is the memory order argument of the atomic call
// that reads, nil for none (an order raise edits it). Under a weak
// target an acquire or seq_cst load is a statement of its own
// (orderedLoad) and its value a temporary.
func (p *proc) loadAt(lv lvalue, order int, arg *orderSpan) cs.Expr {
	pos := lv.pos
	if lv.v != nil {
		p.touch(lv.v, false, order)
	}
	if lv.v != nil && order == orderPlain {
		p.track(lv.v, false, pos)
		if p.isMain {
			p.observed = true
		}
	}
	if lv.v != nil && p.t.target.weak() && p.atomic == 0 {
		order = loadOrder(order, lv.v.atomic)
		p.accessed()
		p.t.noteAccess(pos, false, &access{v: lv.v, order: order, arg: arg})
		if order == orderAcquire || order == orderSeqCst {
			return p.orderedLoad(lv, order)
		}
	}
	if lv.kok {
		return p.elem(lv, int(lv.k), pos)
	}
	// An element chosen at run time: a branch per element.
	i := p.indexTmp(lv, pos)
	t := p.tmp("e", pos)
	p.emit(p.chain(lv, i, pos, func(k int) []cs.Stmt {
		return []cs.Stmt{synAssign(ident(t, pos), p.elem(lv, k, pos), pos)}
	}))
	return ident(t, pos)
}

// accessed marks the C statement being translated as one that accesses
// shared memory, under a weak target: the point after it is a fence site
// (as after a buffered write under the default target).
func (p *proc) accessed() { p.wrote, p.wroteAny = true, true }

// orderedLoad reads lv, of order acquire or seq_cst, on a weak target: a
// read into a new temporary annotated as the target's mapping says, with
// its barriers before and after (loadMapping).
func (p *proc) orderedLoad(lv lvalue, order int) cs.Expr {
	pos := lv.pos
	if lv.kok && p.outOfBounds(lv, pos) {
		return lit(0, pos)
	}
	pre, ann, post := p.t.target.loadMapping(order)
	t := p.tmp("ld", pos)
	for _, k := range pre {
		p.emit(synFence(k, pos))
	}
	one := func(k int) []cs.Stmt {
		a := synAssign(ident(t, pos), p.elem(lv, k, pos), pos)
		if ann != 0 {
			a.Ann, a.AnnPos = ann, pos
		}
		return []cs.Stmt{a}
	}
	if lv.kok {
		p.emit(one(int(lv.k))...)
	} else {
		i := p.indexTmp(lv, pos)
		p.emit(p.chain(lv, i, pos, one))
	}
	for _, k := range post {
		p.emit(synFence(k, pos))
	}
	return ident(t, pos)
}

// indexTmp puts a run-time index into a temporary (unless it is a local).
func (p *proc) indexTmp(lv lvalue, pos cs.Pos) cs.Expr {
	if id, ok := lv.idx.(*cs.Ident); ok && !p.t.sharedNames[id.Name] {
		return id
	}
	i := p.tmp("i", pos)
	p.emit(synAssign(ident(i, pos), lv.idx, pos))
	return ident(i, pos)
}

// chain is "if (i == 0) S0 else if (i == 1) S1 ... else assert(0)": the
// element the index selects, an index out of bounds a failed assert.
func (p *proc) chain(lv lvalue, i cs.Expr, pos cs.Pos, each func(k int) []cs.Stmt) cs.Stmt {
	var s cs.Stmt = p.outOfRange(pos)
	for k := lv.size() - 1; k >= 0; k-- {
		s = &cs.IfStmt{If: pos, Cond: eq(i, lit(int64(k), pos)), Then: synBlock(each(k), pos), Else: synBlock([]cs.Stmt{s}, pos)}
	}
	return s
}

// elem is the .cs expression of element k of lv; an index out of bounds
// is a failed assert here.
func (p *proc) elem(lv lvalue, k int, pos cs.Pos) cs.Expr {
	n := lv.size()
	if n >= 0 && (k < 0 || k >= n) {
		p.emit(p.outOfRange(pos))
		return lit(0, pos)
	}
	if lv.v != nil {
		return lv.v.elem(k, pos)
	}
	if lv.l.konst {
		return lit(lv.l.val, pos)
	}
	if lv.l.name == "" {
		refuse(pos, "this use of %s", lv.l.cname)
	}
	if n < 0 {
		return ident(lv.l.name, pos)
	}
	return &cs.IndexExpr{X: ident(lv.l.name, pos), Lbrack: pos, Index: lit(int64(k), pos), Rbrack: pos}
}

// localOnly puts a value that reads shared memory into a temporary, so
// that the read happens before a locked step (whose reads go to memory).
func (p *proc) localOnly(v cs.Expr, pos cs.Pos) cs.Expr {
	if !p.t.mentionsShared(v) {
		return v
	}
	t := p.tmp("v", pos)
	p.emit(synAssign(ident(t, pos), v, pos))
	return ident(t, pos)
}

// store writes val to lv with a memory order: plain, relaxed and acquire
// are a buffered store; release is "fence store;" then the store (a store
// fence changes nothing under TSO, orders the buffers under PSO); seq_cst
// is a locked step (x86 xchg; under TSO and PSO the same as "fence store;
// store; fence;"). Under a weak target the order is storeOrder's and the
// write has the annotation and barriers of the target (storeMapping).
func (p *proc) store(lv lvalue, val cs.Expr, order int, pos cs.Pos) {
	p.storeAt(lv, val, order, pos, nil)
}

// storeAt is store; arg is the memory order argument of the atomic call
// that writes, nil for none (an order raise edits it).
func (p *proc) storeAt(lv lvalue, val cs.Expr, order int, pos cs.Pos, arg *orderSpan) {
	if lv.v != nil {
		p.touch(lv.v, true, order)
		if order == orderPlain {
			p.track(lv.v, true, pos)
		}
		if p.isMain {
			p.observed = true
		}
	}
	if lv.l != nil && lv.l.konst {
		failAt(pos, "internal: assignment to a constant local %s", lv.l.cname)
	}
	if p.outOfBounds(lv, pos) {
		return
	}
	if lv.v == nil {
		// A local: one assignment (a run-time index branches).
		if lv.kok {
			p.emit(synAssign(p.elem(lv, int(lv.k), pos), val, pos))
			return
		}
		i := p.indexTmp(lv, pos)
		v := p.localOnly(val, pos)
		p.emit(p.chain(lv, i, pos, func(k int) []cs.Stmt { return []cs.Stmt{synAssign(p.elem(lv, k, pos), v, pos)} }))
		return
	}
	if p.isMain && lv.kok {
		if k, ok := literal(val); ok {
			p.known[elemKey(lv)] = k
		} else {
			delete(p.known, elemKey(lv))
		}
	}
	weak := p.t.target.weak() && p.atomic == 0
	var pre, post []cs.FenceKind
	var ann cs.Ann
	if weak {
		order = storeOrder(order, lv.v.atomic)
		p.t.noteAccess(pos, true, &access{v: lv.v, order: order, arg: arg})
		pre, ann, post = p.t.target.storeMapping(order)
	}
	if !weak && order == orderSeqCst || len(pre)+len(post) > 0 {
		// The value is computed before the locked step, or before the
		// barriers (as the compiled code does).
		val = p.localOnly(val, pos)
	}
	one := func(k int) []cs.Stmt {
		target := p.elem(lv, k, pos)
		w := synAssign(target, val, pos)
		switch {
		case p.atomic > 0:
			return []cs.Stmt{w}
		case weak:
			p.accessed()
			if ann != 0 {
				w.Ann, w.AnnPos = ann, pos
			}
			var out []cs.Stmt
			for _, k := range pre {
				out = append(out, synFence(k, pos))
			}
			out = append(out, w)
			for _, k := range post {
				out = append(out, synFence(k, pos))
			}
			return out
		case order == orderSeqCst:
			return []cs.Stmt{synAtomic([]cs.Stmt{w}, pos)}
		case order == orderRelease || order == orderAcqRel:
			p.wrote, p.wroteAny = true, true
			return []cs.Stmt{&cs.FenceStmt{Fence: pos, Kind: cs.StoreFence, StorePos: pos, Semi: pos - 1}, w}
		}
		p.wrote, p.wroteAny = true, true
		return []cs.Stmt{w}
	}
	if lv.kok {
		p.emit(one(int(lv.k))...)
		return
	}
	i := p.indexTmp(lv, pos)
	val = p.localOnly(val, pos)
	p.emit(p.chain(lv, i, pos, one))
}

// literal returns the value of a .cs constant expression built by lit.
func literal(e cs.Expr) (int64, bool) {
	switch x := e.(type) {
	case *cs.IntLit:
		return x.Value, true
	case *cs.ParenExpr:
		return literal(x.X)
	case *cs.UnaryExpr:
		if x.Op == cs.SUB {
			v, ok := literal(x.X)
			return -v, ok
		}
	}
	return 0, false
}

// rmw runs body as one locked step on element lv (a run-time index
// branches first); body gets the element's expression.
func (p *proc) rmw(lv lvalue, pos cs.Pos, body func(target cs.Expr) []cs.Stmt) {
	p.rmwOrd(lv, orderSeqCst, pos, body)
}

// rmwOrd is rmw with a memory order: under a weak target the step has
// the annotation and barriers of the target (rmwMapping); under the
// default target every order is the same locked step.
func (p *proc) rmwOrd(lv lvalue, order int, pos cs.Pos, body func(target cs.Expr) []cs.Stmt) {
	if lv.v == nil {
		refuse(pos, "an atomic operation on a local variable")
	}
	p.touch(lv.v, true, orderSeqCst)
	if p.outOfBounds(lv, pos) {
		return
	}
	if p.isMain {
		p.observed = true
		delete(p.known, elemKey(lv))
	}
	weak := p.t.target.weak() && p.atomic == 0
	var pre, post []cs.FenceKind
	var ann cs.Ann
	if weak {
		p.accessed()
		pre, ann, post = p.t.target.rmwMapping(order)
	}
	one := func(k int) []cs.Stmt {
		b := body(p.elem(lv, k, pos))
		if p.atomic > 0 {
			return b
		}
		if !weak {
			return []cs.Stmt{synAtomic(b, pos)}
		}
		var out []cs.Stmt
		for _, k := range pre {
			out = append(out, synFence(k, pos))
		}
		at := synAtomic(b, pos)
		at.Ann = ann
		out = append(out, at)
		for _, k := range post {
			out = append(out, synFence(k, pos))
		}
		return out
	}
	if lv.kok {
		p.emit(one(int(lv.k))...)
		return
	}
	i := p.indexTmp(lv, pos)
	p.emit(p.chain(lv, i, pos, one))
}

// rmwAdd is atomic_fetch_add(&lv, v) of memory order order: it returns
// the old value.
func (p *proc) rmwAdd(lv lvalue, v cs.Expr, order int, pos cs.Pos) cs.Expr {
	v = p.localOnly(v, pos)
	old := p.tmp("old", pos)
	p.rmwOrd(lv, order, pos, func(x cs.Expr) []cs.Stmt {
		return []cs.Stmt{
			synAssign(ident(old, pos), x, pos),
			synAssign(x, &cs.BinaryExpr{X: ident(old, pos), OpPos: pos, Op: cs.ADD, Y: paren(v)}, pos),
		}
	})
	return ident(old, pos)
}

// retarget makes a locked step that just put its result in the temporary
// v put it in the local target instead (r = atomic_fetch_add(...) is then
// one step, as in .cs), and drops the temporary. It reports whether it
// did. Under a weak target it does the same for the read of an ordered
// load (orderedLoad), followed by its barriers: r =
// atomic_load_explicit(&x, memory_order_acquire) is "acquire r = x;".
func (p *proc) retarget(v cs.Expr, target string) bool {
	id, ok := v.(*cs.Ident)
	if !ok || len(id.Name) < 2 || id.Name[0] != '_' || len(p.out) == 0 {
		return false
	}
	j := len(p.out) - 1
	if p.t.target.weak() {
		// Past the barriers after the read or the step.
		for j > 0 {
			if _, ok := p.out[j].(*cs.FenceStmt); !ok {
				break
			}
			j--
		}
	}
	var at cs.Stmt
	switch def := p.out[j].(type) {
	case *cs.AtomicStmt:
		// The step must define the temporary first.
		if len(def.Body.List) == 0 {
			return false
		}
		if first, ok := def.Body.List[0].(*cs.AssignStmt); !ok || !isIdent(first.Lhs, id.Name) {
			return false
		}
		at = def
	case *cs.AssignStmt:
		if !p.t.target.weak() || !isIdent(def.Lhs, id.Name) {
			return false
		}
		at = def
	default:
		return false
	}
	spec := -1
	for i, sp := range p.specs {
		if sp.Name.Name == id.Name {
			spec = i
		}
	}
	if spec < 0 {
		return false
	}
	// The temporary must be used nowhere before the step, and the target
	// nowhere in it.
	for _, st := range p.out[:j] {
		if mentions(st, id.Name) {
			return false
		}
	}
	if mentions(at, target) {
		return false
	}
	cs.Inspect(at, func(n cs.Node) bool {
		if x, ok := n.(*cs.Ident); ok && x.Name == id.Name {
			x.Name = target
		}
		return true
	})
	p.specs = append(p.specs[:spec], p.specs[spec+1:]...)
	delete(p.names, id.Name)
	return true
}

// outOfBounds emits a failed assert for a constant index out of bounds and
// reports whether it did.
func (p *proc) outOfBounds(lv lvalue, pos cs.Pos) bool {
	n := lv.size()
	if !lv.kok || n < 0 || lv.k >= 0 && lv.k < int64(n) {
		return false
	}
	p.emit(p.outOfRange(pos))
	return true
}

func isIdent(e cs.Expr, name string) bool {
	id, ok := e.(*cs.Ident)
	return ok && id.Name == name
}

// mentions reports whether the name occurs in n.
func mentions(n cs.Node, name string) bool {
	found := false
	cs.Inspect(n, func(x cs.Node) bool {
		if id, ok := x.(*cs.Ident); ok && id.Name == name {
			found = true
		}
		return !found
	})
	return found
}
