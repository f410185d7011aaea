package rmm

import (
	"fmt"
	"strconv"

	"fencer/cs"
	"fencer/readkit"
)

// This file turns a model into the .cs syntax tree (cs.Program) that Lower
// turns into a System: one cs process per Memorax process (process(N)
// gives N of them, P0, P1, ... in Memorax's numbering), the global and
// per-process data as shared variables, the registers as locals.

// site is what the patcher needs to know about a write statement, found
// while reading it; keyed by the offset of its "write" token.
type site struct {
	write     token // "write"
	lastEnd   int   // end of the statement's last token
	next      token // the token after the statement
	bare      bool  // the whole body of an if/else/while
	wrapStart int   // where the statement starts with its label (for bare)
	inMacro   bool  // written in the body of a macro
	mixed     bool  // made of tokens of a macro body and of a call's arguments
}

// builder holds what lasts for the whole model.
type builder struct {
	m       *model
	nprocs  int
	owner   []*procDecl // owner[pid]
	global  map[string]string
	local   []map[string]string // per pid: data name -> cs name
	domains map[string]*varDecl // cs shared name -> declaration with a domain
	taken   map[string]bool     // cs shared names in use
	specs   []*cs.VarSpec
	sites   map[int]*site
	fences  map[int]*fenceSite
	opt     Options
	// ranged maps the cs name of each variable that starts at "*" within
	// a declared domain (a local qualified by its process) to that
	// domain; ParseWith puts it in the lowered System (cs.Init.Ranged).
	ranged map[string]*varDecl
}

// fenceSite is what the patcher needs to remove a "fence" statement,
// keyed by the offset of its token.
type fenceSite struct {
	tok        token
	prev, next token // the tokens around it (prev of kind tEOF: the first of the process)
	keep       bool  // labelled, a whole if/else/while body, or alone in its list: becomes nop
	inMacro    bool  // written in the body of a macro
}

// csName returns a name for want that is not a .cs keyword and not in
// taken, and marks it taken.
func csName(want string, taken map[string]bool) string {
	if want == "" || isDigit(want[0]) {
		want = "r" + want
	}
	name := want
	for n := 2; taken[name] || cs.Lookup(name) != cs.IDENT || name == "true" || name == "false"; n++ {
		name = fmt.Sprintf("%s_%d", want, n)
	}
	taken[name] = true
	return name
}

func ident(name string, off int) *cs.Ident { return &cs.Ident{NamePos: cs.PosAt(off), Name: name} }

func intLit(v int64, off int) cs.Expr {
	if v < 0 {
		return &cs.UnaryExpr{OpPos: cs.PosAt(off), Op: cs.SUB, X: &cs.IntLit{ValuePos: cs.PosAt(off), Lit: strconv.FormatInt(-v, 10), Value: -v}}
	}
	return &cs.IntLit{ValuePos: cs.PosAt(off), Lit: strconv.FormatInt(v, 10), Value: v}
}

func (b *builder) declare(d *varDecl, name string) {
	sp := &cs.VarSpec{Name: ident(name, d.name.Pos)}
	if d.nondet {
		sp.Value = &cs.StarExpr{Star: cs.PosAt(d.name.Pos)}
	} else if d.value != 0 {
		sp.Value = intLit(d.value, d.name.Pos)
	}
	b.specs = append(b.specs, sp)
	if d.hasDomain {
		b.domains[name] = d
		if d.nondet && !b.opt.StrictDomains {
			b.ranged[name] = d
		}
	}
}

// program builds the syntax tree of the whole model.
func (b *builder) program() *cs.Program {
	m := b.m
	b.global, b.domains, b.taken, b.sites = map[string]string{}, map[string]*varDecl{}, map[string]bool{}, map[int]*site{}
	b.ranged = map[string]*varDecl{}
	b.fences = map[int]*fenceSite{}
	for _, pd := range m.procs {
		for k := 0; k < pd.count; k++ {
			b.owner = append(b.owner, pd)
		}
	}
	b.nprocs = len(b.owner)
	if b.nprocs > maxCount {
		panic(errAt(m.procs[len(m.procs)-1].kw.Pos, "too many processes (more than %d)", maxCount))
	}
	for _, d := range m.globals {
		if _, dup := b.global[d.name.Text]; dup {
			panic(errAt(d.name.Pos, "%s declared twice", d.name.Text))
		}
		b.global[d.name.Text] = ""
	}
	// Global names first, so that they keep their names.
	for _, d := range m.globals {
		name := csName(d.name.Text, b.taken)
		b.global[d.name.Text] = name
		b.declare(d, name)
	}
	b.local = make([]map[string]string, b.nprocs)
	for pid, pd := range b.owner {
		b.local[pid] = map[string]string{}
		for _, d := range pd.data {
			if _, dup := b.local[pid][d.name.Text]; dup {
				panic(errAt(d.name.Pos, "%s declared twice in this process", d.name.Text))
			}
			name := csName(fmt.Sprintf("%s_%d", d.name.Text, pid), b.taken)
			b.local[pid][d.name.Text] = name
			b.declare(d, name)
		}
	}
	prog := &cs.Program{}
	if len(b.specs) > 0 {
		prog.Decls = append(prog.Decls, &cs.VarsDecl{Keyword: cs.PosAt(0), Tok: cs.SHARED, Specs: b.specs, Semi: cs.PosAt(0)})
	}
	for pid, pd := range b.owner {
		prog.Decls = append(prog.Decls, b.process(pid, pd))
	}
	for i, list := range m.forbidden {
		if len(list) != b.nprocs {
			panic(errAt(m.forbidPos[i], "forbidden state has %d entries, the model has %d processes (one label or * per process)", len(list), b.nprocs))
		}
		fd := &cs.ForbiddenDecl{Forbidden: cs.PosAt(m.forbidPos[i]), Semi: cs.PosAt(m.forbidPos[i])}
		for pid, t := range list {
			if t.Is("*") {
				continue
			}
			fd.Items = append(fd.Items, &cs.ProcLabel{Proc: ident(procName(pid), t.Pos), At: cs.PosAt(t.Pos), Label: ident(labelName(t.Text), t.Pos)})
		}
		if len(fd.Items) == 0 {
			panic(errAt(m.forbidPos[i], "forbidden state of '*' only: every state would be bad"))
		}
		prog.Decls = append(prog.Decls, fd)
	}
	return prog
}

// labelName is the .cs name of a label: a label that is a .cs keyword
// ("skip", "for") gets a '_', so that the printed .cs program parses.
func labelName(l string) string {
	if cs.Lookup(l) != cs.IDENT || l == "true" || l == "false" {
		return l + "_"
	}
	return l
}

func procName(pid int) string { return "P" + strconv.Itoa(pid) }

// inst reads the text of one process instance.
type inst struct {
	*builder
	parser
	pid    int
	regs   map[string]string   // "$r" -> cs local name
	regDom map[string]*varDecl // cs local name -> register declaration with a domain
	atomic bool                // inside a locked block
	level  int                 // nesting depth of statements and expressions
	nwrite int                 // writes read so far
	// A pointer location [e] in a statement: the statement is read once to
	// find e (ptrSeen, ptrExpr), then once per global variable k with
	// ptrTarget = k.
	ptrSeen   bool
	ptrExpr   cs.Expr
	ptrTarget int
}

func (b *builder) process(pid int, pd *procDecl) *cs.ProcDecl {
	in := &inst{builder: b, parser: parser{readkit.Cursor{Toks: pd.text}}, pid: pid, regs: map[string]string{}, regDom: map[string]*varDecl{}}
	taken := map[string]bool{}
	for k := range b.taken {
		taken[k] = true
	}
	var specs []*cs.VarSpec
	for _, d := range pd.regs {
		if _, dup := in.regs[d.name.Text]; dup {
			panic(errAt(d.name.Pos, "register %s declared twice", d.name.Text))
		}
		name := csName(d.name.Text[1:], taken)
		in.regs[d.name.Text] = name
		sp := &cs.VarSpec{Name: ident(name, d.name.Pos)}
		if d.nondet {
			sp.Value = &cs.StarExpr{Star: cs.PosAt(d.name.Pos)}
		} else if d.value != 0 {
			sp.Value = intLit(d.value, d.name.Pos)
		}
		specs = append(specs, sp)
		if d.hasDomain && !b.opt.StrictDomains {
			in.regDom[name] = d
			if d.nondet {
				b.ranged[procName(pid)+"."+name] = d
			}
		}
	}
	body := &cs.BlockStmt{Lbrace: cs.PosAt(pd.kw.Pos)}
	if len(specs) > 0 {
		body.List = append(body.List, &cs.DeclStmt{Decl: &cs.VarsDecl{Keyword: cs.PosAt(pd.kw.Pos), Tok: cs.LOCAL, Specs: specs, Semi: cs.PosAt(pd.kw.Pos)}})
	}
	// A register "= *" starts at any value of its domain.
	for _, d := range pd.regs {
		if name := in.regs[d.name.Text]; d.nondet && in.regDom[name] != nil {
			at := cs.PosAt(d.name.Pos)
			body.List = append(body.List, &cs.AssumeStmt{Assume: at, X: inDomain(ident(name, d.name.Pos), d, d.name.Pos), Semi: at})
		}
	}
	body.List = append(body.List, in.stmtList()...)
	if t := in.Tok(); t.Kind != tEOF {
		panic(errAt(t.Pos, "expected ';' or the end of the process, found %s", t))
	}
	body.Rbrace = cs.PosAt(in.Tok().Pos)
	return &cs.ProcDecl{Process: cs.PosAt(pd.kw.Pos), Name: ident(procName(pid), pd.kw.Pos), Body: body}
}

// endsList reports whether t ends a statement list.
func endsList(t token) bool { return t.Kind == tEOF || t.Is("}") || t.Is("or") }

// stmtList reads "lstmt ; lstmt ; ..." up to '}', 'or' or the end (a
// ';' before them is accepted).
func (in *inst) stmtList() []cs.Stmt {
	var out []cs.Stmt
	for !endsList(in.Tok()) {
		out = append(out, in.lstmt(false))
		if !in.Tok().Is(";") {
			break
		}
		in.Next()
	}
	return out
}

var stmtWords = map[string]bool{"read": true, "write": true, "assume": true, "syncrd": true, "syncwr": true}

// lstmt reads a statement with an optional label; bare is set for the
// body of if, else and while.
func (in *inst) lstmt(bare bool) cs.Stmt {
	t := in.Tok()
	if t.Kind == tIdent && !stmtWords[t.Text] && in.Peek().Is(":") {
		if in.atomic {
			panic(errAt(t.Pos, "label %s inside a locked block", t.Text))
		}
		in.Next()
		colon := in.Next()
		s := in.stmt(bare, t.Pos)
		return &cs.LabeledStmt{Label: ident(labelName(t.Text), t.Pos), Colon: cs.PosAt(colon.Pos), Stmt: s}
	}
	return in.stmt(bare, t.Pos)
}

func (in *inst) last() token { return in.Toks[max(in.I-1, 0)] }

// semi returns the position of the last character of the statement that
// starts at token index first: the end of its last token written in the
// same text as its first token (tokens of a macro body keep the positions
// of the definition, which may come before the statement that calls it,
// and argument tokens those of the call), so that a statement's text is
// one piece of the source and never ends before it starts.
func (in *inst) semi(first int) cs.Pos {
	f := in.Toks[first]
	end := f.End
	for i := in.I - 1; i > first; i-- {
		if t := in.Toks[i]; t.Origin == f.Origin && t.Pos >= f.End {
			end = t.End
			break
		}
	}
	return cs.PosAt(max(end-1, 0))
}

func (in *inst) notInLocked(t token) {
	if in.atomic {
		panic(errAt(t.Pos, "%s is not allowed in a locked block", t.Text))
	}
}

// stmt reads one statement. A statement with a pointer location [e] is,
// as in Memorax, the choice between "assume: e = k; the statement on the
// k-th global variable" for every global variable k (declaration order).
func (in *inst) stmt(bare bool, start int) cs.Stmt {
	t := in.Tok()
	in.depth(t)
	seen, target := in.ptrSeen, in.ptrTarget
	defer func() { in.level--; in.ptrSeen, in.ptrTarget = seen, target }()
	in.ptrSeen, in.ptrTarget = false, -1
	i0 := in.I
	s := in.instr(bare, start)
	if !in.ptrSeen {
		return s
	}
	e := in.ptrExpr
	targets := make([]int, len(in.m.globals))
	for k := range targets {
		targets[k] = k
	}
	if v, ok := constValue(e); ok {
		if v < 0 || v >= int64(len(in.m.globals)) {
			panic(errAt(t.Pos, "pointer value %d: there are %d global variables", v, len(in.m.globals)))
		}
		targets = []int{int(v)}
	}
	var alts [][]cs.Stmt
	for _, k := range targets {
		in.I, in.ptrTarget = i0, k
		sk := in.instr(bare, start)
		at := cs.PosAt(t.Pos)
		guard := &cs.AssumeStmt{Assume: at, X: &cs.BinaryExpr{X: e, OpPos: at, Op: cs.EQL, Y: intLit(int64(k), t.Pos)}, Semi: at}
		alts = append(alts, []cs.Stmt{guard, sk})
	}
	return choice(alts, t.Pos)
}

// instr reads one statement (see stmt).
func (in *inst) instr(bare bool, start int) cs.Stmt {
	first := in.I
	t := in.Tok()
	pos := cs.PosAt(t.Pos)
	switch {
	case t.Kind == tReg:
		lhs := in.reg()
		op := in.Expect(":=", "':='")
		e := in.expr()
		as := &cs.AssignStmt{Lhs: lhs, TokPos: cs.PosAt(op.Pos), Rhs: e, Semi: in.semi(first)}
		// Enabled when the value is in the register's domain (Memorax).
		if g := in.guard(in.regDom[lhs.Name], e, t); g != nil {
			return &cs.BlockStmt{Lbrace: pos, List: []cs.Stmt{g, as}, Rbrace: in.semi(first)}
		}
		return as
	case t.Kind != tIdent && !t.Is("{"):
		panic(errAt(t.Pos, "expected a statement, found %s", t))
	}
	switch t.Text {
	case "nop":
		in.Next()
		return &cs.SkipStmt{Skip: pos, Semi: in.semi(first)}
	case "read":
		in.Next()
		in.Expect(":", "':' after read")
		if in.Tok().Kind == tReg {
			lhs := in.reg()
			op := in.Expect(":=", "':='")
			x := in.memloc()
			rd := &cs.AssignStmt{Lhs: lhs, TokPos: cs.PosAt(op.Pos), Rhs: x, Semi: in.semi(first)}
			return in.readInto(rd, lhs, x, t)
		}
		x := in.memloc()
		op := in.Expect("=", "'=' (read: x = e) or a register (read: $r := x)")
		e := in.expr()
		return &cs.AssumeStmt{Assume: pos, X: &cs.BinaryExpr{X: x, OpPos: cs.PosAt(op.Pos), Op: cs.EQL, Y: e}, Semi: in.semi(first)}
	case "write":
		return in.write(bare, start)
	case "locked":
		in.notInLocked(t)
		in.Next()
		if in.Tok().Is("write") {
			in.atomic = true
			w := in.write(false, start)
			in.atomic = false
			return &cs.AtomicStmt{Atomic: pos, Body: &cs.BlockStmt{Lbrace: pos, List: []cs.Stmt{w}, Rbrace: in.semi(first)}}
		}
		in.Expect("{", "'{' or write after locked")
		in.atomic = true
		before := in.nwrite
		alts := in.alternatives(t)
		in.atomic = false
		if in.nwrite == before {
			panic(errAt(t.Pos, "a locked block without a write is not supported: Memorax does not fence it, and fencer's atomic blocks always wait for an empty buffer"))
		}
		return &cs.AtomicStmt{Atomic: pos, Body: &cs.BlockStmt{Lbrace: pos, List: []cs.Stmt{choice(alts, t.Pos)}, Rbrace: in.semi(first)}}
	case "cas":
		in.notInLocked(t)
		in.Next()
		in.Expect("(", "'(' after cas")
		x := in.memloc()
		in.Expect(",", "','")
		e1 := in.expr()
		in.Expect(",", "','")
		e2 := in.expr()
		in.Expect(")", "')'")
		w := &cs.AssignStmt{Lhs: x, TokPos: pos, Rhs: e2, Semi: in.semi(first)}
		list := []cs.Stmt{&cs.AssumeStmt{Assume: pos, X: &cs.BinaryExpr{X: x, OpPos: pos, Op: cs.EQL, Y: e1}, Semi: in.semi(first)}}
		list = append(list, in.domainCheck(x, e2, t)...)
		list = append(list, w)
		return &cs.AtomicStmt{Atomic: pos, Body: &cs.BlockStmt{Lbrace: pos, List: list, Rbrace: in.semi(first)}}
	case "assume":
		in.Next()
		in.Expect(":", "':' after assume")
		c := in.bexpr()
		return &cs.AssumeStmt{Assume: pos, X: c, Semi: in.semi(first)}
	case "if":
		in.notInLocked(t)
		in.Next()
		c := in.bexpr()
		in.Expect("then", "'then'")
		s := &cs.IfStmt{If: pos, Cond: c, Then: in.lstmt(true)}
		if in.Tok().Is("else") {
			in.Next()
			s.Else = in.lstmt(true)
		}
		return s
	case "while":
		in.notInLocked(t)
		in.Next()
		c := in.bexpr()
		in.Expect("do", "'do'")
		return &cs.WhileStmt{While: pos, Cond: c, Body: in.lstmt(true)}
	case "goto":
		in.notInLocked(t)
		in.Next()
		l := in.ExpectIdent("a label after goto")
		return &cs.GotoStmt{Goto: pos, Label: ident(labelName(l.Text), l.Pos), Semi: in.semi(first)}
	case "either":
		in.notInLocked(t)
		in.Next()
		in.Expect("{", "'{' after either")
		return choice(in.alternatives(t), t.Pos)
	case "{":
		in.Next()
		list := in.stmtList()
		in.Expect("}", "'}'")
		return &cs.BlockStmt{Lbrace: pos, List: list, Rbrace: cs.PosAt(in.last().Pos)}
	case "fence":
		in.notInLocked(t)
		prev := token{Kind: tEOF}
		if in.I > 0 {
			prev = in.Toks[in.I-1]
		}
		in.Next()
		alone := (prev.Kind == tEOF || prev.Is("{") || prev.Is("or")) && endsList(in.Tok())
		in.fences[t.Pos] = &fenceSite{tok: t, prev: prev, next: in.Tok(), keep: bare || start != t.Pos || alone, inMacro: t.Origin != 0}
		return &cs.FenceStmt{Fence: pos, Semi: in.semi(first)}
	case "ssfence":
		in.notInLocked(t)
		in.Next()
		return &cs.FenceStmt{Fence: pos, Kind: cs.StoreFence, StorePos: pos, Semi: in.semi(first)}
	case "llfence":
		// Memorax's load-load fence: loads are never reordered with loads
		// under SC, TSO and PSO, so it orders nothing there.
		in.notInLocked(t)
		in.Next()
		return &cs.SkipStmt{Skip: pos, Semi: in.semi(first)}
	case "syncrd", "syncwr":
		panic(errAt(t.Pos, "%s is not read: it is a synchronising access of Memorax's VIPS-M model, with no rule under SC, TSO or PSO", t.Text))
	case "slocked":
		panic(errAt(t.Pos, "slocked is not read: Memorax's manual gives no rule for store-store locked writes under TSO or PSO"))
	}
	panic(errAt(t.Pos, "expected a statement, found %s", t))
}

// alternatives reads "list or list or ... }" after the '{' of either or
// locked.
func (in *inst) alternatives(kw token) [][]cs.Stmt {
	var alts [][]cs.Stmt
	for {
		list := in.stmtList()
		alts = append(alts, list)
		if in.Tok().Is("or") {
			in.Next()
			continue
		}
		in.Expect("}", "'or' or '}'")
		return alts
	}
}

// choice is a nondeterministic choice between alternatives: if (*) A else
// if (*) B else C.
func choice(alts [][]cs.Stmt, off int) cs.Stmt {
	block := &cs.BlockStmt{Lbrace: cs.PosAt(off), List: alts[0], Rbrace: cs.PosAt(off)}
	if len(alts) == 1 {
		return block
	}
	return &cs.IfStmt{If: cs.PosAt(off), Cond: &cs.StarExpr{Star: cs.PosAt(off)}, Then: block, Else: choice(alts[1:], off)}
}

// write reads "write: loc := e" (at "write").
func (in *inst) write(bare bool, start int) cs.Stmt {
	first := in.I
	w := in.Next()
	in.nwrite++
	in.Expect(":", "':' after write")
	x := in.memloc()
	op := in.Expect(":=", "':='")
	e := in.expr()
	// The statement starts at "write", so that its site reads
	// "write: x := 1".
	lhs := &cs.Ident{NamePos: cs.PosAt(w.Pos), Name: x.Name}
	semi := in.semi(first)
	as := &cs.AssignStmt{Lhs: lhs, TokPos: cs.PosAt(op.Pos), Rhs: e, Semi: semi}
	in.sites[w.Pos] = &site{write: w, lastEnd: in.last().End, next: in.Tok(), bare: bare, wrapStart: start,
		inMacro: w.Origin != 0, mixed: in.last().Origin != w.Origin}
	check := in.domainCheck(x, e, w)
	if len(check) == 0 {
		return as
	}
	return &cs.BlockStmt{Lbrace: cs.PosAt(w.Pos), List: append(check, as), Rbrace: semi}
}

// domainCheck is what comes before the write of e to x when x has a
// declared domain. As in Memorax, the write is enabled only when e is in
// the domain: an assume (none when e is a constant inside it). With
// Options.StrictDomains, a check instead: an error now when e is a
// constant outside, else an assert before the write (so a run that would
// leave the domain is a bad state, with a trace).
func (in *inst) domainCheck(x *cs.Ident, e cs.Expr, at token) []cs.Stmt {
	d := in.domains[x.Name]
	if d == nil {
		return nil
	}
	if !in.opt.StrictDomains {
		if g := in.guard(d, e, at); g != nil {
			return []cs.Stmt{g}
		}
		return nil
	}
	if v, ok := constValue(e); ok {
		if v < d.lo || v > d.hi {
			panic(errAt(at.Pos, "the write of %d to %s leaves its domain [%d:%d]", v, d.name.Text, d.lo, d.hi))
		}
		return nil
	}
	pos := cs.PosAt(at.Pos)
	c := &cs.BinaryExpr{X: &cs.BinaryExpr{X: intLit(d.lo, at.Pos), OpPos: pos, Op: cs.LEQ, Y: e}, OpPos: pos, Op: cs.LAND,
		Y: &cs.BinaryExpr{X: e, OpPos: pos, Op: cs.LEQ, Y: intLit(d.hi, at.Pos)}}
	return []cs.Stmt{&cs.AssertStmt{Assert: pos, X: c, Semi: pos}}
}

// inDomain is lo <= e && e <= hi for the domain of d.
func inDomain(e cs.Expr, d *varDecl, off int) cs.Expr {
	pos := cs.PosAt(off)
	return &cs.BinaryExpr{X: &cs.BinaryExpr{X: intLit(d.lo, off), OpPos: pos, Op: cs.LEQ, Y: e}, OpPos: pos, Op: cs.LAND,
		Y: &cs.BinaryExpr{X: e, OpPos: pos, Op: cs.LEQ, Y: intLit(d.hi, off)}}
}

// guard is the assume that enables a step storing e into a variable of
// domain d only when e is in it (Memorax's semantics): nil when d is nil or
// e a constant inside the domain, assume(false) for a constant outside.
func (in *inst) guard(d *varDecl, e cs.Expr, at token) cs.Stmt {
	if d == nil {
		return nil
	}
	pos := cs.PosAt(at.Pos)
	if v, ok := constValue(e); ok {
		if v >= d.lo && v <= d.hi {
			return nil
		}
		return &cs.AssumeStmt{Assume: pos, X: &cs.BoolLit{ValuePos: pos, Value: false}, Semi: pos}
	}
	return &cs.AssumeStmt{Assume: pos, X: inDomain(e, d, at.Pos), Semi: pos}
}

// readInto is rd, the read "read: $r := x", with Memorax's semantics when
// the register has a domain: the read is enabled only when the value in
// memory is in the register's domain, so the process waits until it is.
// When every value x can hold is in the domain (x has a constant initial
// value and a domain inside the register's, and writes to x never leave
// x's domain) there is nothing to do. Otherwise the read is retried while
// the value is outside: "r = x; while (!(lo <= r && r <= hi)) r = x;". A
// run that reads an outside value and reads again is a run that read
// later, so the states reached are Memorax's. In a locked block, where the
// whole sequence must be enabled, an assume follows the read.
func (in *inst) readInto(rd *cs.AssignStmt, r, x *cs.Ident, at token) cs.Stmt {
	d := in.regDom[r.Name]
	if d == nil {
		return rd
	}
	if xd := in.domains[x.Name]; xd != nil && !xd.nondet && xd.lo >= d.lo && xd.hi <= d.hi {
		return rd
	}
	pos := cs.PosAt(at.Pos)
	ok := inDomain(ident(r.Name, at.Pos), d, at.Pos)
	if in.atomic {
		return &cs.BlockStmt{Lbrace: pos, List: []cs.Stmt{rd, &cs.AssumeStmt{Assume: pos, X: ok, Semi: pos}}, Rbrace: rd.Semi}
	}
	again := &cs.AssignStmt{Lhs: ident(r.Name, at.Pos), TokPos: pos, Rhs: ident(x.Name, x.NamePos.Offset()), Semi: pos}
	loop := &cs.WhileStmt{While: pos, Cond: &cs.UnaryExpr{OpPos: pos, Op: cs.NOT, X: &cs.ParenExpr{Lparen: pos, X: ok, Rparen: pos}}, Body: again}
	return &cs.BlockStmt{Lbrace: pos, List: []cs.Stmt{rd, loop}, Rbrace: rd.Semi}
}

// constValue evaluates an expression without registers.
func constValue(e cs.Expr) (int64, bool) {
	switch e := e.(type) {
	case *cs.IntLit:
		return e.Value, true
	case *cs.ParenExpr:
		return constValue(e.X)
	case *cs.UnaryExpr:
		v, ok := constValue(e.X)
		return -v, ok && e.Op == cs.SUB
	case *cs.BinaryExpr:
		a, ok1 := constValue(e.X)
		b, ok2 := constValue(e.Y)
		if !ok1 || !ok2 {
			return 0, false
		}
		switch e.Op {
		case cs.ADD:
			return a + b, true
		case cs.SUB:
			return a - b, true
		}
	}
	return 0, false
}

// reg reads a register.
func (in *inst) reg() *cs.Ident {
	t := in.Next()
	name, ok := in.regs[t.Text]
	if !ok {
		panic(errAt(t.Pos, "register %s is not declared in this process", t.Text))
	}
	return ident(name, t.Pos)
}

// memloc reads a memory location: x (global), x[my] (this process's x),
// x[k] (the x of the k-th other process, Memorax's numbering), [e] (the
// global variable number e, in declaration order; see stmt).
func (in *inst) memloc() *cs.Ident {
	t := in.Tok()
	if t.Is("[") {
		in.Next()
		e := in.expr()
		in.Expect("]", "']'")
		if len(in.m.globals) == 0 {
			panic(errAt(t.Pos, "pointer location [e] without global variables (a pointer names a global variable by its index)"))
		}
		k := in.ptrTarget
		if k < 0 {
			if in.ptrSeen {
				panic(errAt(t.Pos, "two pointer locations in one statement"))
			}
			in.ptrSeen, in.ptrExpr, k = true, e, 0
		}
		d := in.m.globals[k]
		return ident(in.global[d.name.Text], t.Pos)
	}
	x := in.ExpectIdent("a memory location")
	if !in.Tok().Is("[") {
		name, ok := in.global[x.Text]
		if !ok {
			if _, mine := in.local[in.pid][x.Text]; mine {
				panic(errAt(x.Pos, "%s is data of the process: write %s[my]", x.Text, x.Text))
			}
			panic(errAt(x.Pos, "%s is not declared in data", x.Text))
		}
		return ident(name, x.Pos)
	}
	in.Next()
	owner := in.pid
	if in.Tok().Is("my") {
		in.Next()
	} else {
		it := in.Tok()
		k := in.IntLit()
		if k < 0 || k >= int64(in.nprocs-1) {
			panic(errAt(it.Pos, "%s[%d]: there is no other process %d (%d processes)", x.Text, k, k, in.nprocs))
		}
		owner = int(k)
		if owner >= in.pid {
			owner++
		}
	}
	in.Expect("]", "']'")
	name, ok := in.local[owner][x.Text]
	if !ok {
		panic(errAt(x.Pos, "process %d has no data %s", owner, x.Text))
	}
	return ident(name, x.Pos)
}

// expr reads an arithmetic expression: registers, integers, my, + and -,
// unary minus and parentheses.
func (in *inst) expr() cs.Expr {
	x := in.unit()
	for in.Tok().Is("+") || in.Tok().Is("-") {
		op := in.Next()
		tok := cs.ADD
		if op.Text == "-" {
			tok = cs.SUB
		}
		x = &cs.BinaryExpr{X: x, OpPos: cs.PosAt(op.Pos), Op: tok, Y: in.unit()}
	}
	return x
}

const maxDepth = 200

func (in *inst) unit() cs.Expr {
	t := in.Tok()
	switch {
	case t.Kind == tReg:
		return in.reg()
	case t.Kind == tInt:
		in.Next()
		v, _ := strconv.ParseInt(t.Text, 10, 64)
		return &cs.IntLit{ValuePos: cs.PosAt(t.Pos), Lit: t.Text, Value: v}
	case t.Is("my"):
		in.Next()
		return intLit(int64(in.pid), t.Pos)
	case t.Is("-"):
		in.Next()
		in.depth(t)
		x := in.unit()
		in.level--
		return &cs.UnaryExpr{OpPos: cs.PosAt(t.Pos), Op: cs.SUB, X: x}
	case t.Is("("):
		in.Next()
		in.depth(t)
		x := in.expr()
		in.level--
		r := in.Expect(")", "')'")
		return &cs.ParenExpr{Lparen: cs.PosAt(t.Pos), X: x, Rparen: cs.PosAt(r.Pos)}
	}
	panic(errAt(t.Pos, "expected an expression (a register, an integer, my), found %s", t))
}

func (in *inst) depth(t token) {
	in.level++
	if in.level > maxDepth {
		panic(errAt(t.Pos, "expression nested too deeply (more than %d levels)", maxDepth))
	}
}

// bexpr reads a condition: comparisons (= != < > <= >=) of expressions,
// true, false, not, && and ||, and [ ] for grouping.
func (in *inst) bexpr() cs.Expr {
	x := in.band()
	for in.Tok().Is("||") {
		op := in.Next()
		x = &cs.BinaryExpr{X: x, OpPos: cs.PosAt(op.Pos), Op: cs.LOR, Y: in.band()}
	}
	return x
}

func (in *inst) band() cs.Expr {
	x := in.bnot()
	for in.Tok().Is("&&") {
		op := in.Next()
		x = &cs.BinaryExpr{X: x, OpPos: cs.PosAt(op.Pos), Op: cs.LAND, Y: in.bnot()}
	}
	return x
}

func (in *inst) bnot() cs.Expr {
	if t := in.Tok(); t.Is("not") {
		in.Next()
		in.depth(t)
		x := in.bnot()
		in.level--
		return &cs.UnaryExpr{OpPos: cs.PosAt(t.Pos), Op: cs.NOT, X: &cs.ParenExpr{Lparen: cs.PosAt(t.Pos), X: x, Rparen: cs.PosAt(t.Pos)}}
	}
	return in.batom()
}

var cmpOps = map[string]cs.Token{"=": cs.EQL, "!=": cs.NEQ, "<": cs.LSS, ">": cs.GTR, "<=": cs.LEQ, ">=": cs.GEQ}

func (in *inst) batom() cs.Expr {
	t := in.Tok()
	switch {
	case t.Is("true"), t.Is("false"):
		in.Next()
		return &cs.BoolLit{ValuePos: cs.PosAt(t.Pos), Value: t.Text == "true"}
	case t.Is("["):
		in.Next()
		in.depth(t)
		x := in.bexpr()
		in.level--
		r := in.Expect("]", "']'")
		return &cs.ParenExpr{Lparen: cs.PosAt(t.Pos), X: x, Rparen: cs.PosAt(r.Pos)}
	}
	x := in.expr()
	op := in.Tok()
	tok, ok := cmpOps[op.Text]
	if op.Kind != tOp || !ok {
		panic(errAt(op.Pos, "expected a comparison (= != < > <= >=), found %s", op))
	}
	in.Next()
	return &cs.BinaryExpr{X: x, OpPos: cs.PosAt(op.Pos), Op: tok, Y: in.expr()}
}
