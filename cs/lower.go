package cs

import (
	"fmt"
	"os"

	"fencer/smt/expr"
)

// This file turns a syntax tree into a System: declarations, template
// instances, unrolled for loops, and per process an automaton built
// statement by statement (see doc.go for the rules).

// MaxVars bounds the number of scalar variables (shared, locals and
// temporaries of every process, arrays expanded).
const MaxVars = 100000

// Parse parses and lowers the source src of the file named filename. On any
// error it returns a nil System and a sorted ErrorList (at most MaxErrors
// entries, one per line).
func Parse(filename string, src []byte) (*System, error) {
	file := NewFile(filename, src)
	prog, err := ParseProgram(file)
	if err != nil {
		return nil, err
	}
	return Lower(file, prog)
}

// ParseFile reads and parses the file at path.
func ParseFile(path string) (*System, error) {
	src, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return Parse(path, src)
}

// posOp is an operation with its source position.
type posOp struct {
	op  Op
	pos Pos
}

type pendingGoto struct {
	edge  int
	label *Ident
}

type lowerer struct {
	file   *File
	errs   *errorSink
	sys    *System
	consts map[string]*constInfo
	shared map[string]*varInfo
	locals map[string]*varInfo // of the current process
	idx    []binding           // template and for indices in scope

	sites       []*Site     // in order of creation
	siteByStart map[int]int // start offset -> index in sites
	nStmts      int
	nEdges      int
	nVars       int

	// the process being built
	proc     *Process
	parent   []Loc // union-find over locations
	locPos   []Pos
	edges    []Edge
	labels   map[string]Loc
	gotos    []pendingGoto
	errLoc   Loc
	nTemps   int     // temporaries already in proc.Locals
	temp     int     // next temporary of the current statement
	ops      []posOp // reads of the expression being lowered
	stmtPos  Pos     // the statement being lowered
	atomPos  Pos     // the atomic block being lowered
	tooMany  bool    // the path limit of the current atomic block was hit
	procPos  map[string]Pos
	procDecl map[string]*ProcDecl
}

func (l *lowerer) errorf(pos Pos, format string, args ...any) {
	l.errs.add(pos, fmt.Sprintf(format, args...))
}

// Lower turns a syntax tree without errors into a System. It returns a nil
// System and a sorted ErrorList on any error.
func Lower(file *File, prog *Program) (sys *System, err error) {
	l := &lowerer{
		file:        file,
		errs:        &errorSink{file: file},
		sys:         &System{File: file},
		consts:      map[string]*constInfo{},
		shared:      map[string]*varInfo{},
		siteByStart: map[int]int{},
		procPos:     map[string]Pos{},
		procDecl:    map[string]*ProcDecl{},
	}
	func() {
		defer func() {
			if r := recover(); r != nil {
				if _, ok := r.(bailout); !ok {
					panic(r)
				}
			}
		}()
		l.program(prog)
	}()
	if errs := l.errs.result(); len(errs) > 0 {
		return nil, errs
	}
	return l.sys, nil
}

func (l *lowerer) program(prog *Program) {
	// Names of consts and shared variables share one scope; processes have
	// their own.
	top := map[string]Pos{}
	declare := func(id *Ident) bool {
		if prev, ok := top[id.Name]; ok {
			l.errorf(id.Pos(), "%s redeclared (previous declaration at line %d)", id.Name, l.file.Line(prev))
			return false
		}
		top[id.Name] = id.Pos()
		return true
	}
	var constDecls []*ConstDecl
	var sharedSpecs []*VarSpec
	var procs []*ProcDecl
	for _, d := range prog.Decls {
		switch d := d.(type) {
		case *ConstDecl:
			if declare(d.Name) {
				l.consts[d.Name.Name] = &constInfo{decl: d}
				constDecls = append(constDecls, d)
			}
		case *VarsDecl:
			for _, sp := range d.Specs {
				if declare(sp.Name) {
					sharedSpecs = append(sharedSpecs, sp)
				}
			}
		case *ProcDecl:
			if prev, ok := l.procPos[d.Name.Name]; ok {
				l.errorf(d.Name.Pos(), "process %s redeclared (previous declaration at line %d)", d.Name.Name, l.file.Line(prev))
				continue
			}
			l.procPos[d.Name.Name] = d.Name.Pos()
			l.procDecl[d.Name.Name] = d
			procs = append(procs, d)
		}
	}

	// Shared names are known (as non-constants) while consts are evaluated.
	for _, sp := range sharedSpecs {
		l.shared[sp.Name.Name] = &varInfo{name: sp.Name.Name, size: -1}
	}
	// Consts, in order: a const may use the consts declared before it.
	for _, d := range constDecls {
		c := l.consts[d.Name.Name]
		c.state = 1
		c.value, _ = l.constExpr(d.Value, "the value of a const")
		c.state = 2
	}

	// Shared variables.
	for _, sp := range sharedSpecs {
		v := l.declVar(sp, "", false)
		l.shared[sp.Name.Name] = v
		l.sys.Shared = append(l.sys.Shared, l.expand(sp, v)...)
	}

	if len(procs) == 0 {
		l.errorf(PosAt(0), "program has no processes")
		return
	}
	for _, d := range procs {
		if d.Index == nil {
			l.process(d, d.Name.Name, "", nil)
			continue
		}
		lo, ok1 := l.constExpr(d.Lo, "template range")
		hi, ok2 := l.constExpr(d.Hi, "template range")
		switch {
		case !ok1 || !ok2:
			continue
		case hi < lo:
			l.errorf(d.Lo.Pos(), "empty template range %d..%d", lo, hi)
			continue
		case hi-lo < 0 || hi-lo >= MaxInstances:
			l.errorf(d.Lo.Pos(), "template range %d..%d too large (at most %d instances)", lo, hi, MaxInstances)
			continue
		}
		for v := lo; ; v++ {
			name := fmt.Sprintf("%s[%d]", d.Name.Name, v)
			l.process(d, name, d.Name.Name, &binding{name: d.Index.Name, value: v, template: true})
			if v == hi {
				break
			}
		}
	}
	l.locals, l.idx = nil, nil

	for _, d := range prog.Decls {
		switch d := d.(type) {
		case *ForbiddenDecl:
			l.forbidden(d)
		case *MutexDecl:
			l.mutex(d)
		}
	}
	l.finishSites()
}

// declVar evaluates the size of a declared variable; prefix qualifies
// locals.
func (l *lowerer) declVar(sp *VarSpec, prefix string, local bool) *varInfo {
	v := &varInfo{name: prefix + sp.Name.Name, size: -1, pos: sp.Name.Pos(), local: local}
	if sp.Size != nil {
		n, ok := l.constExpr(sp.Size, "array size")
		switch {
		case !ok:
			n = 1
		case n < 1:
			l.errorf(sp.Size.Pos(), "array size %d must be at least 1", n)
			n = 1
		case n > MaxArraySize:
			l.errorf(sp.Size.Pos(), "array size %d too large (at most %d)", n, MaxArraySize)
			n = 1
		}
		v.size = int(n)
	}
	return v
}

// expand returns the scalar declarations of v with their initial value.
func (l *lowerer) expand(sp *VarSpec, v *varInfo) []VarDecl {
	var init Init
	switch x := sp.Value.(type) {
	case nil:
	case *StarExpr:
		init.Nondet = true
	default:
		init.Value, _ = l.constExpr(x, "an initial value")
	}
	if v.size < 0 {
		l.countVars(1, sp.Name.Pos())
		return []VarDecl{{Name: v.name, Init: init, Pos: v.pos}}
	}
	l.countVars(v.size, sp.Name.Pos())
	out := make([]VarDecl, v.size)
	for i := range out {
		out[i] = VarDecl{Name: fmt.Sprintf("%s[%d]", v.name, i), Init: init, Pos: v.pos}
	}
	return out
}

func (l *lowerer) countVars(n int, pos Pos) {
	l.nVars += n
	if l.nVars > MaxVars {
		l.errorf(pos, "too many variables (more than %d scalars)", MaxVars)
		panic(bailout{})
	}
}

// ---------------------------------------------------------------------------
// Expressions

// beginStmt starts a statement: temporaries count from $0 again.
func (l *lowerer) beginStmt(pos Pos) {
	l.stmtPos = pos
	l.temp = 0
	l.ops = l.ops[:0]
}

func (l *lowerer) newTemp() string {
	name := fmt.Sprintf("%s.$%d", l.proc.Name, l.temp)
	if l.temp >= l.nTemps {
		l.countVars(1, l.stmtPos)
		l.proc.Locals = append(l.proc.Locals, VarDecl{Name: name})
		l.nTemps++
	}
	l.temp++
	return name
}

// takeOps returns the pending reads and clears them.
func (l *lowerer) takeOps() []posOp {
	ops := append([]posOp(nil), l.ops...)
	l.ops = l.ops[:0]
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

// lowerExpr translates e; every shared variable becomes a read into a new
// temporary, appended to l.ops (left to right).
func (l *lowerer) lowerExpr(e Expr) expr.Expr {
	switch e := e.(type) {
	case *IntLit:
		return expr.N(e.Value)
	case *BoolLit:
		return expr.N(b2i(e.Value))
	case *ParenExpr:
		return l.lowerExpr(e.X)
	case *Ident, *IndexExpr:
		r := l.resolve(e)
		switch r.kind {
		case refConst, refIndex:
			return expr.N(r.value)
		case refLocal:
			return expr.V(r.name)
		case refShared:
			t := l.newTemp()
			l.ops = append(l.ops, posOp{Op{Kind: OpRead, Local: t, Shared: r.name}, e.Pos()})
			return expr.V(t)
		}
		return expr.Zero
	case *UnaryExpr:
		x := l.lowerExpr(e.X)
		if e.Op == NOT {
			return expr.Not(asBool(x))
		}
		return expr.Neg(asInt(x))
	case *BinaryExpr:
		x := l.lowerExpr(e.X)
		var y expr.Expr
		if e.Op == QUO || e.Op == REM {
			v, st := l.evalConst(e.Y)
			switch {
			case st == notConst:
				l.errorf(e.Y.Pos(), "division by non-constant: the right operand of %s must be constant", e.Op)
				return expr.Zero
			case st == failed:
				return expr.Zero
			case v == 0:
				l.errorf(e.Y.Pos(), "division by zero")
				return expr.Zero
			}
			y = expr.N(v)
		} else {
			y = l.lowerExpr(e.Y)
		}
		switch e.Op {
		case ADD:
			return expr.Add(asInt(x), asInt(y))
		case SUB:
			return expr.Sub(asInt(x), asInt(y))
		case MUL:
			return expr.Mul(asInt(x), asInt(y))
		case QUO:
			return expr.Div(asInt(x), y)
		case REM:
			return expr.Mod(asInt(x), y)
		case EQL:
			return expr.Eq(asInt(x), asInt(y))
		case NEQ:
			return expr.Ne(asInt(x), asInt(y))
		case LSS:
			return expr.Lt(asInt(x), asInt(y))
		case LEQ:
			return expr.Le(asInt(x), asInt(y))
		case GTR:
			return expr.Gt(asInt(x), asInt(y))
		case GEQ:
			return expr.Ge(asInt(x), asInt(y))
		case LAND:
			return expr.And(asBool(x), asBool(y))
		case LOR:
			return expr.Or(asBool(x), asBool(y))
		}
	case *StarExpr:
		l.errorf(e.Pos(), "* is only allowed as a condition of if or while, or as a right-hand side")
	case *CallExpr:
		l.errorf(e.Pos(), "%s is only allowed as the whole right-hand side of an assignment", e.Fun.Name)
	}
	return expr.Zero
}

// ---------------------------------------------------------------------------
// Statements

// stmt lowers s starting at location from and returns the location where
// the next statement starts. bare is true when s is the whole body of an
// if, else, while or for without braces.
func (l *lowerer) stmt(s Stmt, from Loc, bare bool) Loc {
	l.nStmts++
	if l.nStmts > MaxStmts {
		l.errorf(s.Pos(), "program too large: more than %d statements after expansion", MaxStmts)
		panic(bailout{})
	}
	switch s := s.(type) {
	case *BadStmt, *EmptyStmt, *SkipStmt, *DeclStmt:
		return from
	case *BlockStmt:
		cur := from
		for _, x := range s.List {
			cur = l.stmt(x, cur, false)
		}
		return cur
	case *LabeledStmt:
		l.labels[s.Label.Name] = from
		end := l.stmt(s.Stmt, from, bare)
		if l.find(end) != l.find(from) {
			return end
		}
		// The statement has no operation (skip, an empty block or for): the
		// label still needs a point of its own, reached only by the paths
		// that execute it, or the end of a branch or loop body would be
		// merged into the join. One no-op step gives it one.
		l.beginStmt(s.Stmt.Pos())
		to := l.newLoc()
		l.emit(from, to, Op{Kind: OpAssume, Val: expr.True}, s.Stmt.Pos(), -1)
		return to
	case *AssignStmt:
		l.beginStmt(s.Pos())
		if call, ok := s.Rhs.(*CallExpr); ok {
			return l.atomicForm(s, call, from, bare)
		}
		ops, w := l.assignOps(s)
		site := -1
		if w >= 0 {
			site = l.site(s, bare)
		}
		return l.chain(from, ops, w, site)
	case *AssumeStmt:
		l.beginStmt(s.Pos())
		c := asBool(l.lowerExpr(s.X))
		ops := append(l.takeOps(), posOp{Op{Kind: OpAssume, Val: c}, s.Pos()})
		return l.chain(from, ops, -1, -1)
	case *AssertStmt:
		l.beginStmt(s.Pos())
		c := asBool(l.lowerExpr(s.X))
		cur := l.chain(from, l.takeOps(), -1, -1)
		to := l.newLoc()
		l.emit(cur, to, Op{Kind: OpAssume, Val: c}, s.Pos(), -1)
		l.emit(cur, l.errLocation(), Op{Kind: OpAssume, Val: expr.Not(c)}, s.Pos(), -1)
		return to
	case *FenceStmt:
		l.beginStmt(s.Pos())
		to := l.newLoc()
		l.emit(from, to, Op{Kind: OpFence}, s.Pos(), -1)
		return to
	case *GotoStmt:
		l.beginStmt(s.Pos())
		i := l.emit(from, from, Op{Kind: OpAssume, Val: expr.True}, s.Pos(), -1)
		l.gotos = append(l.gotos, pendingGoto{edge: i, label: s.Label})
		return l.newLoc() // unreachable unless labeled
	case *IfStmt:
		l.beginStmt(s.Pos())
		cur, c := l.condition(s.Cond, from)
		then, els := l.newLoc(), l.newLoc()
		l.branch(cur, then, els, c, s.Pos())
		t := l.stmt(s.Then, then, isBare(s.Then))
		e := els
		if s.Else != nil {
			e = l.stmt(s.Else, els, isBare(s.Else))
		}
		l.merge(t, e)
		return l.find(e)
	case *WhileStmt:
		l.beginStmt(s.Pos())
		head := from
		cur, c := l.condition(s.Cond, head)
		body, exit := l.newLoc(), l.newLoc()
		l.branch(cur, body, exit, c, s.Pos())
		end := l.stmt(s.Body, body, isBare(s.Body))
		l.merge(end, head)
		return exit
	case *ForStmt:
		lo, ok1 := l.constExpr(s.Lo, "a for bound")
		hi, ok2 := l.constExpr(s.Hi, "a for bound")
		if !ok1 || !ok2 || hi < lo {
			return from
		}
		if hi-lo < 0 || hi-lo >= MaxStmts {
			l.errorf(s.Lo.Pos(), "for range %d..%d too large", lo, hi)
			return from
		}
		cur := from
		for v := lo; ; v++ {
			l.idx = append(l.idx, binding{name: s.Var.Name, value: v})
			cur = l.stmt(s.Body, cur, isBare(s.Body))
			l.idx = l.idx[:len(l.idx)-1]
			if v == hi {
				break
			}
		}
		return cur
	case *AtomicStmt:
		return l.atomic(s, from)
	}
	panic(fmt.Sprintf("cs: unexpected statement %T", s))
}

func isBare(s Stmt) bool {
	_, block := s.(*BlockStmt)
	return !block
}

// condition lowers the condition of if or while from location from: the
// reads, then the formula, or nil for "*".
func (l *lowerer) condition(e Expr, from Loc) (Loc, expr.Expr) {
	if _, ok := e.(*StarExpr); ok {
		return from, nil
	}
	c := asBool(l.lowerExpr(e))
	return l.chain(from, l.takeOps(), -1, -1), c
}

// branch emits assume(c) from cur to yes and assume(!c) to no; for c nil
// (a "*" condition) both are assume(true).
func (l *lowerer) branch(cur, yes, no Loc, c expr.Expr, pos Pos) {
	cy, cn := expr.True, expr.True
	if c != nil {
		cy, cn = c, expr.Not(c)
	}
	l.emit(cur, yes, Op{Kind: OpAssume, Val: cy}, pos, -1)
	l.emit(cur, no, Op{Kind: OpAssume, Val: cn}, pos, -1)
}

// target resolves the left-hand side of an assignment; ok is false after an
// error.
func (l *lowerer) target(lhs Expr) (ref, bool) {
	r := l.resolve(lhs)
	switch r.kind {
	case refBad:
		return r, false
	case refConst:
		l.errorf(lhs.Pos(), "cannot assign to constant %s", r.name)
		return r, false
	case refIndex:
		if r.tmpl {
			l.errorf(lhs.Pos(), "cannot assign to template index %s", r.name)
		} else {
			l.errorf(lhs.Pos(), "cannot assign to for index %s", r.name)
		}
		return r, false
	}
	return r, true
}

// assignOps lowers lhs = rhs (rhs not a call) into its operations; w is the
// index of the write to a shared target, or -1.
func (l *lowerer) assignOps(s *AssignStmt) (ops []posOp, w int) {
	t, ok := l.target(s.Lhs)
	if !ok {
		return nil, -1
	}
	pos := s.Pos()
	if _, star := s.Rhs.(*StarExpr); star {
		if t.kind == refLocal {
			return []posOp{{Op{Kind: OpHavoc, Local: t.name}, pos}}, -1
		}
		tmp := l.newTemp()
		return []posOp{
			{Op{Kind: OpHavoc, Local: tmp}, pos},
			{Op{Kind: OpWrite, Shared: t.name, Val: expr.V(tmp)}, pos},
		}, 1
	}
	if t.kind == refLocal {
		if x := unparen(s.Rhs); isVarRef(x) {
			r := l.resolve(x)
			if r.kind == refShared { // r = x: one read
				return []posOp{{Op{Kind: OpRead, Local: t.name, Shared: r.name}, x.Pos()}}, -1
			}
		}
		v := asInt(l.lowerExpr(s.Rhs))
		return append(l.takeOps(), posOp{Op{Kind: OpAssign, Local: t.name, Val: v}, pos}), -1
	}
	v := asInt(l.lowerExpr(s.Rhs))
	ops = append(l.takeOps(), posOp{Op{Kind: OpWrite, Shared: t.name, Val: v}, pos})
	return ops, len(ops) - 1
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
func (l *lowerer) atomicForm(s *AssignStmt, call *CallExpr, from Loc, bare bool) Loc {
	name := call.Fun.Name
	want := 2
	if name == "cas" {
		want = 3
	}
	t, ok := l.target(s.Lhs)
	if !ok || len(call.Args) != want {
		return from
	}
	x := unparen(call.Args[0])
	if !isVarRef(x) {
		l.errorf(x.Pos(), "the first argument of %s must be a shared variable", name)
		return from
	}
	xr := l.resolve(x)
	switch xr.kind {
	case refBad:
		return from
	case refShared:
	default:
		l.errorf(x.Pos(), "the first argument of %s must be a shared variable", name)
		return from
	}
	var args []expr.Expr
	for _, a := range call.Args[1:] {
		args = append(args, asInt(l.lowerExpr(a)))
	}
	cur := l.chain(from, l.takeOps(), -1, -1)
	old := l.newTemp()
	res := t.name
	if t.kind == refShared {
		res = l.newTemp()
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
	to := l.newLoc()
	for _, b := range bodies {
		l.emit(cur, to, Op{Kind: OpAtomic, Body: b}, s.Pos(), -1)
	}
	if t.kind != refShared {
		return to
	}
	end := l.newLoc()
	l.emit(to, end, Op{Kind: OpWrite, Shared: t.name, Val: expr.V(res)}, s.Pos(), l.site(s, bare))
	return end
}

// ---------------------------------------------------------------------------
// Properties

func (l *lowerer) procRef(id *Ident, index Expr) (int, string, bool) {
	name := id.Name
	d := l.procDecl[name]
	switch {
	case d == nil:
		l.errorf(id.Pos(), "unknown process %s", name)
		return -1, "", false
	case index == nil && d.Index != nil:
		l.errorf(id.Pos(), "process %s is a template: name an instance, as in %s[0]", name, name)
		return -1, "", false
	case index != nil && d.Index == nil:
		l.errorf(id.Pos(), "process %s is not a template", name)
		return -1, "", false
	}
	if index != nil {
		v, ok := l.constExpr(index, "a process index")
		if !ok {
			return -1, "", false
		}
		name = fmt.Sprintf("%s[%d]", name, v)
	}
	pi := l.sys.ProcIndex(name)
	if pi < 0 {
		l.errorf(id.Pos(), "unknown process %s", name)
		return -1, "", false
	}
	return pi, name, true
}

func (l *lowerer) forbidden(d *ForbiddenDecl) {
	b := BadState{Pos: d.Pos()}
	ok := true
	seen := map[int]bool{}
	for _, it := range d.Items {
		pi, name, good := l.procRef(it.Proc, it.Index)
		if !good {
			ok = false
			continue
		}
		if seen[pi] {
			l.errorf(it.Proc.Pos(), "process %s appears twice in forbidden", name)
			ok = false
			continue
		}
		seen[pi] = true
		loc, has := l.sys.Procs[pi].Labels[it.Label.Name]
		if !has {
			l.errorf(it.Label.Pos(), "process %s has no label %s", name, it.Label.Name)
			ok = false
			continue
		}
		b.Procs = append(b.Procs, pi)
		b.Locs = append(b.Locs, loc)
	}
	if ok {
		l.sys.Bad = append(l.sys.Bad, b)
	}
}

func (l *lowerer) mutex(d *MutexDecl) {
	var procs []int
	for i, p := range l.sys.Procs {
		if _, ok := p.Labels[d.Label.Name]; ok {
			procs = append(procs, i)
		}
	}
	if len(procs) < 2 {
		l.errorf(d.Label.Pos(), "mutex %s: %d process(es) have label %s, at least two are needed", d.Label.Name, len(procs), d.Label.Name)
		return
	}
	for a := 0; a < len(procs); a++ {
		for b := a + 1; b < len(procs); b++ {
			pa, pb := l.sys.Procs[procs[a]], l.sys.Procs[procs[b]]
			l.sys.Bad = append(l.sys.Bad, BadState{
				Procs: []int{procs[a], procs[b]},
				Locs:  []Loc{pa.Labels[d.Label.Name], pb.Labels[d.Label.Name]},
				Pos:   d.Pos(),
			})
		}
	}
}
