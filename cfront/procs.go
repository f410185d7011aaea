package cfront

import (
	"fmt"
	"strconv"

	"modernc.org/cc/v4"

	"fencer/cs"
)

// This file builds the processes: main, and one per pthread_create that
// main executes. The encoding of create and join (docs/c.md):
//
//   - create k: main runs "atomic { _go_k = 1; }" (a locked step: main's
//     buffer drains, then the thread may start); thread k starts with
//     "atomic { assume(_go_k == 1); }".
//   - thread k ends with "atomic { _done_k = 1; }": a locked step, so its
//     writes have reached memory; join k is "atomic { assume(_done_k ==
//     1); }" in main.
//
// When main does nothing but create and join threads (no shared access,
// assert, assume, fence or lock), it is left out with the flags: the
// threads then start at once, which has the same runs.

// local is a C local variable or parameter of one inlined frame.
type local struct {
	name  string // the .cs local, "" while it is a known constant
	size  int    // -1 for a scalar
	konst bool   // a known constant: val
	val   int64
	typ   cc.Type
	arg   *argVal // the thread argument (a void * parameter)
	ref   *lvalue // a pointer parameter given &x: the x that *it is (pointers.go)
	cname string
}

// argVal is the argument a thread is created with: an integer cast to a
// pointer, or the address of an element of an array.
type argVal struct {
	konst  bool
	val    int64
	ptr    *shvar // &ptr[idx]
	idx    int
	pos    cs.Pos
	isNull bool
}

// thread is one pthread_create that main runs.
type thread struct {
	fi      *funcInfo
	arg     argVal
	name    string
	goVar   string
	doneVar string
	handle  string
	pos     cs.Pos
}

// frame is one inlined function body.
type frame struct {
	fi       *funcInfo
	vars     map[*cc.Declarator]*local
	labels   map[string]string
	retLabel string
	retUsed  bool
	retVar   string
	last     *cc.JumpStatement // the return that ends the body, if any
}

// loop is an enclosing loop or switch: where break and continue go.
type loop struct {
	brk, cont         string
	brkUsed, contUsed bool
	isSwitch          bool
	lazyCont          bool // cont is named at the first continue (unrolled copies)
}

// proc is the process being built.
type proc struct {
	t          *translator
	name       string
	isMain     bool
	specs      []*cs.VarSpec
	names      map[string]int // locals and labels (see uniqueName)
	out        []cs.Stmt
	frames     []*frame
	loops      []*loop
	atomic     int  // > 0 inside an atomic block
	wrote      bool // a buffered shared write in the current C statement (under a weak target: any shared access)
	wroteAny   bool // a buffered shared write since it was last cleared (the same)
	copies     int  // the copies of the statement being translated: the product of the trip counts of the unrolled loops around it (0: 1)
	observed   bool // main: did something besides create and join
	endLabel   string
	endUsed    bool
	th         *thread
	handles    map[string]*thread // main: pthread_t lvalue -> thread
	known      map[string]int64   // main: elements with a known value ("ids[2]")
	pos        cs.Pos
	start      cs.Pos // the function's position
	switches   []*switchFrame
	atomicOuts [][]cs.Stmt // the outputs around __VERIFIER_atomic_begin
}

func (t *translator) newProc(name string, pos cs.Pos) *proc {
	return &proc{t: t, name: name, names: map[string]int{}, pos: pos, start: pos, handles: map[string]*thread{}, known: map[string]int64{}}
}

// maxEmitted bounds the statements the translation makes (after unrolling
// and inlining), as cs.MaxStmts bounds a .cs program's.
const maxEmitted = 200000

func (p *proc) emit(s ...cs.Stmt) {
	p.t.emitted += len(s)
	if p.t.emitted > maxEmitted {
		failAt(p.pos, "program too large: more than %d statements after unrolling loops and inlining calls", maxEmitted)
	}
	p.out = append(p.out, s...)
}

// sub runs f with an empty output and returns what it emitted.
func (p *proc) sub(f func()) []cs.Stmt {
	saved := p.out
	p.out = nil
	f()
	list := p.out
	p.out = saved
	return list
}

// newLocal declares a .cs local named after want.
func (p *proc) newLocal(want string, size int, pos cs.Pos) string {
	name := uniqueName(want, p.names)
	sp := &cs.VarSpec{Name: &cs.Ident{NamePos: pos, Name: name}}
	if size >= 0 {
		sp.Size = lit(int64(size), pos)
	}
	p.specs = append(p.specs, sp)
	return name
}

// tmp declares a temporary local.
func (p *proc) tmp(want string, pos cs.Pos) string { return p.newLocal("_"+want, -1, pos) }

// label returns a fresh label name.
func (p *proc) label(want string) string { return uniqueName(want, p.names) }

func (p *proc) frame() *frame { return p.frames[len(p.frames)-1] }

// syn* build statements with an empty span at pos: they are never fence
// sites and no trace names them as a statement of their own.
func synAssign(lhs cs.Expr, rhs cs.Expr, pos cs.Pos) *cs.AssignStmt {
	return &cs.AssignStmt{Lhs: lhs, TokPos: pos, Rhs: rhs, Semi: pos - 1}
}

func synBlock(list []cs.Stmt, pos cs.Pos) *cs.BlockStmt {
	return &cs.BlockStmt{Lbrace: pos, List: list, Rbrace: pos - 1}
}

func synLabel(name string, s cs.Stmt, pos cs.Pos) *cs.LabeledStmt {
	if s == nil {
		s = &cs.EmptyStmt{Semi: pos - 1}
	}
	return &cs.LabeledStmt{Label: &cs.Ident{NamePos: pos, Name: name}, Colon: pos, Stmt: s}
}

func synGoto(name string, pos cs.Pos) *cs.GotoStmt {
	return &cs.GotoStmt{Goto: pos, Label: &cs.Ident{NamePos: pos, Name: name}, Semi: pos - 1}
}

func synAtomic(list []cs.Stmt, pos cs.Pos) *cs.AtomicStmt {
	return &cs.AtomicStmt{Atomic: pos, Body: synBlock(list, pos)}
}

func ident(name string, pos cs.Pos) *cs.Ident { return &cs.Ident{NamePos: pos, Name: name} }

// synFence is a fence of kind k with an empty span at pos.
func synFence(k cs.FenceKind, pos cs.Pos) *cs.FenceStmt {
	f := &cs.FenceStmt{Fence: pos, Kind: k, Semi: pos - 1}
	if k != cs.FullFence {
		f.StorePos = pos
	}
	return f
}

func synAssume(x cs.Expr, pos cs.Pos) *cs.AssumeStmt {
	return &cs.AssumeStmt{Assume: pos, X: x, Semi: pos - 1}
}

func eq(a, b cs.Expr) cs.Expr { return &cs.BinaryExpr{X: a, OpPos: a.Pos(), Op: cs.EQL, Y: b} }

// program translates main, then each thread main created, and assembles
// the .cs program.
func (t *translator) program(mainDef *cc.FunctionDefinition) *cs.Program {
	mp := t.newProc("main", t.pos(mainDef))
	mp.isMain = true
	t.mainProc = mp
	fi := t.funcs["main"]
	mp.endLabel = "_end"
	mp.names["_end"] = 1
	mp.runBody(fi, nil)
	if len(t.threads) == 0 {
		failAt(t.pos(mainDef), "main creates no thread (pthread_create)")
	}
	keepMain := mp.observed
	// Instance names: f for a function started once, else f[0], f[1], ...
	count := map[*funcInfo]int{}
	for _, th := range t.threads {
		count[th.fi]++
	}
	seen := map[*funcInfo]int{}
	for _, th := range t.threads {
		if count[th.fi] == 1 {
			th.name = th.fi.name
		} else {
			th.name = fmt.Sprintf("%s[%d]", th.fi.name, seen[th.fi])
			seen[th.fi]++
		}
	}
	var procs []*cs.ProcDecl
	if keepMain {
		procs = append(procs, mp.decl())
	}
	for _, th := range t.threads {
		p := t.newProc(th.name, th.pos)
		p.th = th
		p.endLabel = uniqueName("_end", p.names)
		if keepMain {
			p.emit(synAtomic([]cs.Stmt{synAssume(eq(ident(th.goVar, th.pos), lit(1, th.pos)), th.pos)}, th.pos))
		}
		arg := th.arg
		p.runBody(th.fi, &arg)
		if p.endUsed {
			p.emit(synLabel(p.endLabel, nil, p.pos))
		}
		if keepMain {
			p.emit(synAtomic([]cs.Stmt{synAssign(ident(th.doneVar, p.pos), lit(1, p.pos), p.pos)}, p.pos))
		}
		procs = append(procs, p.decl())
	}
	prog := &cs.Program{}
	t.raceWarnings()
	if t.splitAtomic && len(t.directiveLabels) == 0 {
		t.splitAtomics(procs)
	}
	specs := t.sharedSpecs()
	if t.lockName != "" {
		specs = append(specs, &cs.VarSpec{Name: ident(t.lockName, cs.PosAt(0))})
	}
	if keepMain {
		for _, th := range t.threads {
			specs = append(specs, &cs.VarSpec{Name: ident(th.goVar, th.pos)}, &cs.VarSpec{Name: ident(th.doneVar, th.pos)})
		}
	}
	specs = append(specs, t.splitSpecs()...)
	if len(specs) > 0 {
		prog.Decls = append(prog.Decls, &cs.VarsDecl{Keyword: cs.PosAt(0), Tok: cs.SHARED, Specs: specs, Semi: cs.PosAt(0)})
	}
	for _, d := range procs {
		prog.Decls = append(prog.Decls, d)
	}
	return prog
}

// runBody translates the body of fi as the top frame of the process, the
// thread argument bound to arg.
func (p *proc) runBody(fi *funcInfo, arg *argVal) {
	if fi.refusal != nil {
		panic(*fi.refusal)
	}
	f := &frame{fi: fi, vars: map[*cc.Declarator]*local{}, labels: map[string]string{}}
	f.last = lastReturn(fi.def.CompoundStatement)
	if arg != nil && len(fi.params) > 0 {
		f.vars[fi.params[0]] = &local{arg: arg, size: -1, cname: fi.params[0].Name()}
		for _, extra := range fi.params[1:] {
			refuse(p.t.pos(extra), "thread function %s with more than one parameter", fi.name)
		}
	}
	if arg == nil && len(fi.params) > 0 && fi.name == "main" {
		for _, prm := range fi.params {
			f.vars[prm] = &local{konst: true, size: -1, cname: prm.Name()}
		}
	}
	p.frames = append(p.frames, f)
	p.compound(fi.def.CompoundStatement)
	p.frames = p.frames[:len(p.frames)-1]
}

// lastReturn returns the return statement that ends a body, or nil.
func lastReturn(c *cc.CompoundStatement) *cc.JumpStatement {
	var last *cc.BlockItem
	for l := c.BlockItemList; l != nil; l = l.BlockItemList {
		last = l.BlockItem
	}
	if last != nil && last.Case == cc.BlockItemStmt && last.Statement.Case == cc.StatementJump {
		if j := last.Statement.JumpStatement; j.Case == cc.JumpStatementReturn {
			return j
		}
	}
	return nil
}

// decl is the .cs declaration of the process.
func (p *proc) decl() *cs.ProcDecl {
	at := p.start
	body := &cs.BlockStmt{Lbrace: at, Rbrace: at - 1}
	if len(p.specs) > 0 {
		body.List = append(body.List, &cs.DeclStmt{Decl: &cs.VarsDecl{Keyword: at, Tok: cs.LOCAL, Specs: p.specs, Semi: at - 1}})
	}
	body.List = append(body.List, p.out...)
	if p.isMain && p.endUsed {
		body.List = append(body.List, synLabel(p.endLabel, nil, p.pos))
	}
	return &cs.ProcDecl{Process: at, Name: ident(p.name, at), Body: body}
}

// splitSpecs declares the elements of the arrays whose elements start with
// different values as scalars of their own (a .cs array has one initial
// value for all its elements).
func (t *translator) splitSpecs() []*cs.VarSpec {
	var out []*cs.VarSpec
	for _, v := range t.order {
		if !v.split() {
			continue
		}
		for k, x := range v.init {
			sp := &cs.VarSpec{Name: ident(v.elemName(k), v.pos)}
			if x != 0 {
				sp.Value = lit(x, v.pos)
			}
			out = append(out, sp)
		}
	}
	return out
}

// split reports whether the array's elements are scalars of their own.
func (v *shvar) split() bool { return v.size >= 0 && !v.uniformInit() }

func (v *shvar) elemName(k int) string { return v.name + "_" + strconv.Itoa(k) }

// elem is the .cs expression of element k (k is in range), or of the
// scalar.
func (v *shvar) elem(k int, pos cs.Pos) cs.Expr {
	if v.size < 0 {
		return ident(v.name, pos)
	}
	if v.split() {
		return ident(v.elemName(k), pos)
	}
	return &cs.IndexExpr{X: ident(v.name, pos), Lbrack: pos, Index: lit(int64(k), pos), Rbrack: pos}
}
