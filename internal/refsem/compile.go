package refsem

import (
	"errors"
	"fmt"
	"math"
	"sort"
	"strings"

	"fencer/cs"
)

// This file turns the syntax tree into one flat list of instructions per
// process: templates and for loops expanded, names resolved, constants
// folded. Each instruction is one statement of the source (an if or while
// contributes its test); jumps between them are explicit.

type exprKind uint8

const (
	eConst  exprKind = iota
	eLocal           // a local of the process: idx is its slot
	eRead            // the value of the statement's idx-th read
	eShared          // inside atomic only: shared variable idx read from memory
	eUnary
	eBinary
)

// expr is a resolved expression.
type expr struct {
	kind exprKind
	val  int64 // eConst
	idx  int
	op   cs.Token // eUnary, eBinary
	x, y *expr
}

type instrKind uint8

const (
	iNop          instrKind = iota // skip, an empty statement, a labelled empty block
	iAssign                        // local dst = e
	iWrite                         // shared dst = e (a write site)
	iHavoc                         // local dst = *
	iHavocWrite                    // shared dst = * (a write site)
	iAssume                        // assume(e)
	iAssert                        // assert(e)
	iBranch                        // if e then next else alt
	iBranchAny                     // if (*) / while (*): next or alt
	iGoto                          // goto: one step to next
	iFence                         // a fence statement of kind fkind
	iStoreFence                    // a site fenced with a store fence (withFences)
	iAtomic                        // atomic { body }
	iCall                          // dst = call(target, e, e2)
	iWritePending                  // shared dst = the result of the call just before (a write site)
	iSiteFence                     // a fence site (program point): a fence when the run fences it, else skipped
	iJump                          // compile time only: removed before running
	iEnd                           // the process has finished
)

// instr is one statement-level instruction. Its reads (shared variables, in
// order) are each one step before the instruction's own effect.
type instr struct {
	kind      instrKind
	pos       cs.Pos
	reads     []int
	e, e2     *expr
	dst       int // a local slot, or a shared variable for writes
	next, alt int
	call      string // cas, fetch_add, swap
	target    int    // the shared variable of a call
	resShared bool   // iCall: the result goes to shared dst through iWritePending
	body      []astmt
	key       SiteKey // iSiteFence: its site

	// Only the weak models (weak.go) look at these; the store-buffer runs
	// ignore annotations, and read fkind as a full fence, a store fence or
	// nothing (procStep).
	fkind cs.FenceKind // iFence: what the fence statement orders
	ann   cs.Ann       // cs.Acquire: the instruction's one read; cs.Release: its write
	addr  []int        // locals the address of the instruction's access depends on
}

type astmtKind uint8

const (
	aAssign astmtKind = iota
	aWrite
	aHavoc
	aHavocWrite
	aAssume
	aAssert
	aIf
	aIfAny
)

// astmt is a statement inside an atomic block; blocks are flattened into
// lists.
type astmt struct {
	kind      astmtKind
	e         *expr
	dst       int
	then, els []astmt
}

// Site is a fence site: a program point of the source where "fence;" can
// be written (LANGUAGE.md, Fences in the output): after a statement of a
// block, before the first statement of the body of an if, else, while or
// for, or before or after such a body written without braces (Bare). One
// site serves every template instance and every copy of a for body.
type Site struct {
	Key        SiteKey
	Line       int
	Text       string // the statement's source text
	AfterWrite bool   // right after an assignment to a shared variable
}

// SiteKey identifies a site by its statement [Start, End) (for a point after
// a labelled statement, the statement under the labels) and its side.
type SiteKey struct {
	Start, End int
	Before     bool
	Bare       bool
}

type proc struct {
	name     string
	locals   []string
	linit    []int64
	linitAny []bool
	code     []instr
	labels   map[string]int
}

// point is a process at a label: at instruction pc, before its first read.
type point struct{ proc, pc int }

// Program is a compiled program, ready to run under any model.
type Program struct {
	file    *cs.File
	shared  []string // one name per scalar (array elements as a[3])
	init    []int64
	initAny []bool
	procs   []*proc
	bad     [][]point // forbidden combinations
	sites   []Site    // sorted by key
	values  []int64   // the values "*" stands for
	anyVal  bool      // the program uses "= *" somewhere: answers are bounded
}

type varInfo struct {
	base int
	size int // -1 for a scalar
}

type binding struct {
	name string
	val  int64
}

type compiler struct {
	file   *cs.File
	errs   []string
	consts map[string]int64
	shared map[string]varInfo
	prog   *Program
	values map[int64]bool
	sites  map[SiteKey]Site
	wrote  bool // the statement being compiled writes a shared variable

	// per process
	p       *proc
	locals  map[string]varInfo
	idx     []binding
	gotos   []int // instructions whose label is in gotoLbl
	gotoLbl []string
}

func (c *compiler) errorf(pos cs.Pos, format string, args ...any) {
	c.errs = append(c.errs, c.file.Position(pos).String()+": "+fmt.Sprintf(format, args...))
}

// Compile parses src and prepares it to run.
func Compile(name string, src []byte) (*Program, error) {
	file := cs.NewFile(name, src)
	ast, err := cs.ParseProgram(file)
	if err != nil {
		return nil, err
	}
	return CompileAST(file, ast)
}

// CompileAST prepares a syntax tree that cs.ParseProgram returned for file
// (tests may change it first, such as to set AssignStmt.AddrDeps, which
// the .cs syntax has no way to write).
func CompileAST(file *cs.File, ast *cs.Program) (*Program, error) {
	c := &compiler{
		file:   file,
		consts: map[string]int64{},
		shared: map[string]varInfo{},
		prog:   &Program{file: file},
		values: map[int64]bool{0: true, 1: true, -1: true},
		sites:  map[SiteKey]Site{},
	}
	c.program(ast)
	if len(c.errs) > 0 {
		if len(c.errs) > 10 {
			c.errs = c.errs[:10]
		}
		return nil, errors.New(strings.Join(c.errs, "\n"))
	}
	for v := range c.values {
		c.prog.values = append(c.prog.values, v)
	}
	sort.Slice(c.prog.values, func(i, j int) bool { return c.prog.values[i] < c.prog.values[j] })
	for _, s := range c.sites {
		c.prog.sites = append(c.prog.sites, s)
	}
	sort.Slice(c.prog.sites, func(i, j int) bool { return keyLess(c.prog.sites[i].Key, c.prog.sites[j].Key) })
	return c.prog, nil
}

func (c *compiler) addValue(v int64) {
	c.values[v] = true
	if v > math.MinInt64 {
		c.values[v-1] = true
	}
	if v < math.MaxInt64 {
		c.values[v+1] = true
	}
}

func (c *compiler) program(ast *cs.Program) {
	// Constants first, in order (each may use the ones before it).
	for _, d := range ast.Decls {
		switch d := d.(type) {
		case *cs.ConstDecl:
			if c.declared(d.Name.Name) {
				c.errorf(d.Name.Pos(), "%s declared twice", d.Name.Name)
				continue
			}
			v, ok := c.constExpr(d.Value)
			if ok {
				c.consts[d.Name.Name] = v
				c.addValue(v)
			}
		case *cs.BadDecl:
			c.errorf(d.Pos(), "bad declaration")
		}
	}
	for _, d := range ast.Decls {
		if d, ok := d.(*cs.VarsDecl); ok {
			for _, sp := range d.Specs {
				if c.declared(sp.Name.Name) {
					c.errorf(sp.Name.Pos(), "%s declared twice", sp.Name.Name)
					continue
				}
				vi, init, any, ok := c.varSpec(sp, len(c.prog.shared))
				if !ok {
					continue
				}
				c.shared[sp.Name.Name] = vi
				for k := 0; k < max(vi.size, 1); k++ {
					name := sp.Name.Name
					if vi.size >= 0 {
						name = fmt.Sprintf("%s[%d]", name, k)
					}
					c.prog.shared = append(c.prog.shared, name)
					c.prog.init = append(c.prog.init, init)
					c.prog.initAny = append(c.prog.initAny, any)
				}
			}
		}
	}
	procNames := map[string]bool{}
	for _, d := range ast.Decls {
		d, ok := d.(*cs.ProcDecl)
		if !ok {
			continue
		}
		if procNames[d.Name.Name] || c.declared(d.Name.Name) {
			c.errorf(d.Name.Pos(), "%s declared twice", d.Name.Name)
			continue
		}
		procNames[d.Name.Name] = true
		if d.Index == nil {
			c.process(d, d.Name.Name, nil)
			continue
		}
		lo, ok1 := c.constExpr(d.Lo)
		hi, ok2 := c.constExpr(d.Hi)
		if !ok1 || !ok2 {
			continue
		}
		if lo > hi {
			c.errorf(d.Pos(), "empty template range %d..%d", lo, hi)
			continue
		}
		for v := lo; v <= hi; v++ {
			c.process(d, fmt.Sprintf("%s[%d]", d.Name.Name, v), &binding{d.Index.Name, v})
		}
	}
	c.p, c.locals, c.idx = nil, nil, nil // back at the top level
	if len(c.prog.procs) == 0 {
		c.errorf(cs.PosAt(0), "no process")
	}
	for _, d := range ast.Decls {
		switch d := d.(type) {
		case *cs.ForbiddenDecl:
			c.forbidden(d)
		case *cs.MutexDecl:
			var at []point
			for pi, p := range c.prog.procs {
				if pc, ok := p.labels[d.Label.Name]; ok {
					at = append(at, point{pi, pc})
				}
			}
			if len(at) < 2 {
				c.errorf(d.Pos(), "mutex %s: fewer than two processes have this label", d.Label.Name)
				continue
			}
			for i := range at {
				for j := i + 1; j < len(at); j++ {
					c.prog.bad = append(c.prog.bad, []point{at[i], at[j]})
				}
			}
		}
	}
}

func (c *compiler) declared(name string) bool {
	_, a := c.consts[name]
	_, b := c.shared[name]
	return a || b
}

func (c *compiler) forbidden(d *cs.ForbiddenDecl) {
	var combo []point
	for _, it := range d.Items {
		name := it.Proc.Name
		if it.Index != nil {
			v, ok := c.constExpr(it.Index)
			if !ok {
				return
			}
			name = fmt.Sprintf("%s[%d]", name, v)
		}
		pi := -1
		for i, p := range c.prog.procs {
			if p.name == name {
				pi = i
			}
		}
		if pi < 0 {
			c.errorf(it.Proc.Pos(), "forbidden: no process %s", name)
			return
		}
		pc, ok := c.prog.procs[pi].labels[it.Label.Name]
		if !ok {
			c.errorf(it.Label.Pos(), "forbidden: process %s has no label %s", name, it.Label.Name)
			return
		}
		combo = append(combo, point{pi, pc})
	}
	c.prog.bad = append(c.prog.bad, combo)
}

// varSpec reads one declared variable: its size and initial value.
func (c *compiler) varSpec(sp *cs.VarSpec, base int) (vi varInfo, init int64, any, ok bool) {
	vi = varInfo{base: base, size: -1}
	if sp.Size != nil {
		n, ok := c.constExpr(sp.Size)
		if !ok {
			return vi, 0, false, false
		}
		if n < 1 || n > 4096 {
			c.errorf(sp.Size.Pos(), "array size %d out of range", n)
			return vi, 0, false, false
		}
		vi.size = int(n)
	}
	switch v := sp.Value.(type) {
	case nil:
	case *cs.StarExpr:
		any = true
		c.prog.anyVal = true
	default:
		init, ok = c.constExpr(v)
		if !ok {
			return vi, 0, false, false
		}
		c.addValue(init)
	}
	return vi, init, any, true
}

// process compiles one process (one instance of a template).
func (c *compiler) process(d *cs.ProcDecl, name string, index *binding) {
	c.p = &proc{name: name, labels: map[string]int{}}
	c.locals = map[string]varInfo{}
	c.idx = nil
	c.gotos, c.gotoLbl = nil, nil
	if index != nil {
		c.idx = append(c.idx, *index)
	}
	body := d.Body.List
	for len(body) > 0 {
		ds, ok := body[0].(*cs.DeclStmt)
		if !ok {
			break
		}
		body = body[1:]
		for _, sp := range ds.Decl.Specs {
			if _, dup := c.locals[sp.Name.Name]; dup {
				c.errorf(sp.Name.Pos(), "local %s declared twice", sp.Name.Name)
				continue
			}
			vi, init, any, ok := c.varSpec(sp, len(c.p.locals))
			if !ok {
				continue
			}
			c.locals[sp.Name.Name] = vi
			for k := 0; k < max(vi.size, 1); k++ {
				n := sp.Name.Name
				if vi.size >= 0 {
					n = fmt.Sprintf("%s[%d]", n, k)
				}
				c.p.locals = append(c.p.locals, n)
				c.p.linit = append(c.p.linit, init)
				c.p.linitAny = append(c.p.linitAny, any)
			}
		}
	}
	c.list(body)
	c.emit(instr{kind: iEnd, pos: d.Body.Rbrace})
	for k, g := range c.gotos {
		pc, ok := c.p.labels[c.gotoLbl[k]]
		if !ok {
			c.errorf(c.p.code[g].pos, "goto %s: no such label", c.gotoLbl[k])
			continue
		}
		c.p.code[g].next = pc
	}
	// Remove the compile-time jumps.
	follow := func(t int) int {
		for n := 0; t >= 0 && t < len(c.p.code) && c.p.code[t].kind == iJump; n++ {
			if n > len(c.p.code) {
				panic("refsem: a cycle of jumps")
			}
			t = c.p.code[t].next
		}
		return t
	}
	for k := range c.p.code {
		c.p.code[k].next = follow(c.p.code[k].next)
		c.p.code[k].alt = follow(c.p.code[k].alt)
	}
	for l, pc := range c.p.labels {
		c.p.labels[l] = follow(pc)
	}
	c.prog.procs = append(c.prog.procs, c.p)
}

// emit appends in; its next is the instruction emitted after it unless the
// caller changes it.
func (c *compiler) emit(in instr) int {
	k := len(c.p.code)
	in.next = k + 1
	c.p.code = append(c.p.code, in)
	return k
}

// emitWrite emits a write instruction of the statement s.
func (c *compiler) emitWrite(in instr, s cs.Stmt) {
	c.wrote = true
	c.emit(in)
}

func keyLess(a, b SiteKey) bool {
	if a.Start != b.Start {
		return a.Start < b.Start
	}
	if a.End != b.End {
		return a.End < b.End
	}
	if a.Before != b.Before {
		return a.Before
	}
	return !a.Bare && b.Bare
}

// point emits the fence site on one side of statement s: an instruction
// that a run takes as a fence when it fences the site and skips otherwise.
func (c *compiler) point(s cs.Stmt, before, bare, afterWrite bool) {
	if _, ok := s.(*cs.DeclStmt); ok {
		return
	}
	if !before {
		for {
			l, ok := s.(*cs.LabeledStmt)
			if !ok {
				break
			}
			s = l.Stmt
		}
	}
	start, end := s.Pos().Offset(), s.End().Offset()
	k := SiteKey{Start: start, End: end, Before: before, Bare: bare}
	if _, ok := c.sites[k]; !ok {
		c.sites[k] = Site{Key: k, Line: c.file.Line(s.Pos()), Text: string(c.file.Src[start:end]), AfterWrite: afterWrite}
	}
	c.emit(instr{kind: iSiteFence, pos: s.Pos(), key: k})
}

// list compiles the statements of a block, each followed by its site.
func (c *compiler) list(list []cs.Stmt) {
	for _, t := range list {
		c.wrote = false
		c.stmt(t)
		c.point(t, false, false, c.wrote && isAssign(t))
	}
}

// body compiles the body of an if, else, while or for: a block starts with
// the site before its first statement; a body without braces has a site
// on each side.
func (c *compiler) body(s cs.Stmt) {
	if b, ok := s.(*cs.BlockStmt); ok {
		if len(b.List) > 0 {
			c.point(b.List[0], true, false, false)
		}
		c.list(b.List)
		return
	}
	c.point(s, true, true, false)
	c.wrote = false
	c.stmt(s)
	c.point(s, false, true, c.wrote && isAssign(s))
}

func isAssign(s cs.Stmt) bool {
	for {
		l, ok := s.(*cs.LabeledStmt)
		if !ok {
			break
		}
		s = l.Stmt
	}
	_, ok := s.(*cs.AssignStmt)
	return ok
}

func (c *compiler) stmt(s cs.Stmt) {
	switch s := s.(type) {
	case *cs.EmptyStmt, *cs.SkipStmt:
		c.emit(instr{kind: iNop, pos: s.Pos()})
	case *cs.DeclStmt:
		c.errorf(s.Pos(), "local declarations must come first in the process body")
	case *cs.AssignStmt:
		c.assign(s)
	case *cs.AssumeStmt:
		var reads []int
		e := c.expr(s.X, &reads)
		c.emit(instr{kind: iAssume, pos: s.Pos(), e: e, reads: reads})
	case *cs.AssertStmt:
		var reads []int
		e := c.expr(s.X, &reads)
		c.emit(instr{kind: iAssert, pos: s.Pos(), e: e, reads: reads})
	case *cs.FenceStmt:
		c.emit(instr{kind: iFence, pos: s.Pos(), fkind: s.Kind})
	case *cs.GotoStmt:
		g := c.emit(instr{kind: iGoto, pos: s.Pos()})
		c.gotos = append(c.gotos, g)
		c.gotoLbl = append(c.gotoLbl, s.Label.Name)
	case *cs.BlockStmt:
		c.list(s.List)
	case *cs.IfStmt:
		b := c.branch(s.Cond, s.Pos())
		c.body(s.Then)
		if s.Else == nil {
			c.p.code[b].alt = len(c.p.code)
			return
		}
		j := c.emit(instr{kind: iJump, pos: s.Pos()})
		c.p.code[b].alt = len(c.p.code)
		c.body(s.Else)
		c.p.code[j].next = len(c.p.code)
	case *cs.WhileStmt:
		h := c.branch(s.Cond, s.Pos())
		c.body(s.Body)
		j := c.emit(instr{kind: iJump, pos: s.Pos()})
		c.p.code[j].next = h
		c.p.code[h].alt = len(c.p.code)
	case *cs.ForStmt:
		lo, ok1 := c.constExpr(s.Lo)
		hi, ok2 := c.constExpr(s.Hi)
		if !ok1 || !ok2 {
			return
		}
		for v := lo; v <= hi; v++ {
			c.idx = append(c.idx, binding{s.Var.Name, v})
			c.body(s.Body)
			c.idx = c.idx[:len(c.idx)-1]
		}
	case *cs.LabeledStmt:
		name := s.Label.Name
		if _, dup := c.p.labels[name]; dup {
			c.errorf(s.Pos(), "label %s defined twice", name)
		}
		start := len(c.p.code)
		c.stmt(s.Stmt)
		if len(c.p.code) == start {
			c.emit(instr{kind: iNop, pos: s.Pos()})
		}
		c.p.labels[name] = start
	case *cs.AtomicStmt:
		body := c.atomicList(s.Body.List)
		c.emit(instr{kind: iAtomic, pos: s.Pos(), body: body, ann: s.Ann})
	default:
		c.errorf(s.Pos(), "unexpected statement %T", s)
	}
}

func (c *compiler) branch(cond cs.Expr, pos cs.Pos) int {
	if _, ok := cond.(*cs.StarExpr); ok {
		return c.emit(instr{kind: iBranchAny, pos: pos})
	}
	var reads []int
	e := c.expr(cond, &reads)
	return c.emit(instr{kind: iBranch, pos: pos, e: e, reads: reads})
}

func (c *compiler) assign(s *cs.AssignStmt) {
	first := len(c.p.code)
	c.assignOps(s)
	if len(c.p.code) > first && (s.Ann != 0 || len(s.AddrDeps) > 0) {
		c.accessAttrs(s, c.p.code[first:])
	}
}

// accessAttrs gives the instructions of an annotated assignment (or of one
// with address dependencies) what the weak models read: the annotation of
// the write of release x = e; or of the one read of acquire r = x; (a call
// keeps its tree's annotation: weakAnn reads it), and the locals the
// address of the access depends on: of its write, else of its one read.
func (c *compiler) accessAttrs(s *cs.AssignStmt, code []instr) {
	last := &code[len(code)-1]
	isWrite := last.kind == iWrite || last.kind == iHavocWrite || last.kind == iWritePending
	oneRead := len(code) == 1 && last.kind == iAssign && len(last.reads) == 1
	var access *instr
	switch {
	case code[0].kind == iCall:
		access = &code[0]
		code[0].ann = s.Ann
	case isWrite:
		access = last
	case oneRead:
		access = last
	}
	if s.Ann != 0 && code[0].kind != iCall {
		switch {
		case s.Ann&(cs.Acquire|cs.AcquirePC) != 0 && !oneRead:
			c.errorf(s.Pos(), "acquire needs a read of one shared variable into a local (acquire r = x;)")
		case s.Ann&cs.Release != 0 && !isWrite:
			c.errorf(s.Pos(), "release needs a write to a shared variable (release x = e;)")
		default:
			last.ann = s.Ann
		}
	}
	if len(s.AddrDeps) == 0 {
		return
	}
	if access == nil {
		c.errorf(s.Pos(), "an address dependency needs one shared access")
		return
	}
	for _, id := range s.AddrDeps {
		iv, lv, _, _ := c.lookup(id.Name)
		if iv != nil || lv == nil || lv.size >= 0 {
			c.errorf(id.Pos(), "address dependency on %s, which is not a local", id.Name)
			continue
		}
		access.addr = append(access.addr, lv.base)
	}
}

// assignOps emits the instructions of an assignment.
func (c *compiler) assignOps(s *cs.AssignStmt) {
	dst, shared, ok := c.lvalue(s.Lhs)
	if !ok {
		return
	}
	switch rhs := s.Rhs.(type) {
	case *cs.StarExpr:
		c.prog.anyVal = true
		if shared {
			c.emitWrite(instr{kind: iHavocWrite, pos: s.Pos(), dst: dst}, s)
		} else {
			c.emit(instr{kind: iHavoc, pos: s.Pos(), dst: dst})
		}
	case *cs.CallExpr:
		name := rhs.Fun.Name
		want := map[string]int{"cas": 3, "fetch_add": 2, "swap": 2}[name]
		if want == 0 || len(rhs.Args) != want {
			c.errorf(rhs.Pos(), "bad call %s", name)
			return
		}
		target, tshared, ok := c.lvalue(rhs.Args[0])
		if !ok {
			return
		}
		if !tshared {
			c.errorf(rhs.Args[0].Pos(), "%s needs a shared variable", name)
			return
		}
		in := instr{kind: iCall, pos: s.Pos(), call: name, target: target, dst: dst, resShared: shared}
		in.e = c.expr(rhs.Args[1], &in.reads)
		if want == 3 {
			in.e2 = c.expr(rhs.Args[2], &in.reads)
		}
		c.emit(in)
		if shared {
			c.emitWrite(instr{kind: iWritePending, pos: s.Pos(), dst: dst}, s)
		}
	default:
		var reads []int
		e := c.expr(rhs, &reads)
		if shared {
			c.emitWrite(instr{kind: iWrite, pos: s.Pos(), dst: dst, e: e, reads: reads}, s)
		} else {
			c.emit(instr{kind: iAssign, pos: s.Pos(), dst: dst, e: e, reads: reads})
		}
	}
}

// atomicList compiles the statements of an atomic block.
func (c *compiler) atomicList(list []cs.Stmt) []astmt {
	var out []astmt
	for _, s := range list {
		switch s := s.(type) {
		case *cs.EmptyStmt, *cs.SkipStmt:
		case *cs.BlockStmt:
			out = append(out, c.atomicList(s.List)...)
		case *cs.AssignStmt:
			dst, shared, ok := c.lvalue(s.Lhs)
			if !ok {
				continue
			}
			switch rhs := s.Rhs.(type) {
			case *cs.StarExpr:
				c.prog.anyVal = true
				k := aHavoc
				if shared {
					k = aHavocWrite
				}
				out = append(out, astmt{kind: k, dst: dst})
			case *cs.CallExpr:
				c.errorf(s.Pos(), "%s not allowed inside atomic", rhs.Fun.Name)
			default:
				k := aAssign
				if shared {
					k = aWrite
				}
				out = append(out, astmt{kind: k, dst: dst, e: c.expr(rhs, nil)})
			}
		case *cs.AssumeStmt:
			out = append(out, astmt{kind: aAssume, e: c.expr(s.X, nil)})
		case *cs.AssertStmt:
			out = append(out, astmt{kind: aAssert, e: c.expr(s.X, nil)})
		case *cs.IfStmt:
			a := astmt{kind: aIf}
			if _, ok := s.Cond.(*cs.StarExpr); ok {
				a.kind = aIfAny
			} else {
				a.e = c.expr(s.Cond, nil)
			}
			a.then = c.atomicList([]cs.Stmt{s.Then})
			if s.Else != nil {
				a.els = c.atomicList([]cs.Stmt{s.Else})
			}
			out = append(out, a)
		default:
			c.errorf(s.Pos(), "%T not allowed inside atomic", s)
		}
	}
	return out
}
