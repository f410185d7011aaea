package litmus

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"fencer/cs"
)

// This file turns a test into the .cs syntax tree: one process per thread
// (P0, P1, ...), the memory locations as shared variables, the registers
// as locals, and the final condition as a bad state:
//
//   - when the condition to reach (exists c, ~exists c: c; forall c: not c)
//     is a conjunction of register equalities, each thread ends with
//     assume(its conjuncts); outcome: skip; and the bad state is every such
//     thread at its "outcome" label;
//   - otherwise every thread ends with a locked step that publishes the
//     registers the condition reads and sets a flag of its own, and an
//     observer process Obs waits for all flags, evaluates the condition on
//     the final memory and the published registers, and reaches its
//     "outcome" label when it holds. The locked steps come after each
//     thread's last instruction and are not fence sites, so they change
//     neither the outcomes nor the fence counts.

type builder struct {
	t      *test
	src    []byte
	taken  map[string]bool   // shared names
	mem    map[string]string // location -> cs name
	regs   []map[string]string
	shared []*cs.VarSpec
	inits  map[string]int64 // "x" or "0:EAX" -> initial value
	sites  map[int][2]int   // instruction start -> (thread, row)
	// addr[th][REG] is the location whose address register REG of thread
	// th holds (0:EBX=x); written[th] the registers th's instructions
	// write; arrays the arrays of the initial state.
	addr    []map[string]token
	written []map[string]bool
	// ptr[th][REG] is the row of the one instruction of thread th that
	// makes register REG hold an address (weak dialects: weak.go).
	ptr    []map[string]int
	arrays map[string]*array
	// flagsRead[th]: thread th reads its flags (a jump, CMOVC, SETNB).
	flagsRead []bool
	// labels[th] maps the labels of thread th to their .cs names.
	labels    []map[string]string
	labelDone []map[string]bool
	// retLabel[th] is the label at the end of thread th's instructions,
	// where its RETs go (X86_64), "" when it has none.
	retLabel []string
}

// array is an array of the initial state: its elements are shared
// variables of their own.
type array struct {
	name  token
	size  int64 // bytes per element
	elems []string
}

func ident(name string, off int) *cs.Ident { return &cs.Ident{NamePos: cs.PosAt(off), Name: name} }

func intLit(v int64, off int) cs.Expr {
	if v < 0 {
		return &cs.UnaryExpr{OpPos: cs.PosAt(off), Op: cs.SUB, X: &cs.IntLit{ValuePos: cs.PosAt(off), Lit: strconv.FormatInt(-v, 10), Value: -v}}
	}
	return &cs.IntLit{ValuePos: cs.PosAt(off), Lit: strconv.FormatInt(v, 10), Value: v}
}

func bin(x cs.Expr, op cs.Token, y cs.Expr, off int) cs.Expr {
	return &cs.BinaryExpr{X: x, OpPos: cs.PosAt(off), Op: op, Y: y}
}

// fresh returns a name for want that is no .cs keyword and not in taken.
func fresh(want string, taken map[string]bool) string {
	name := want
	for n := 2; taken[name] || cs.Lookup(name) != cs.IDENT || name == "true" || name == "false"; n++ {
		name = fmt.Sprintf("%s_%d", want, n)
	}
	taken[name] = true
	return name
}

// location returns the shared variable of memory location x, declaring it
// on first use.
func (b *builder) location(x token) string {
	if name, ok := b.mem[x.Text]; ok {
		return name
	}
	if _, ok := b.arrays[x.Text]; ok {
		panic(errAt(x.Pos, "%s is an array: only its elements are read, through a register holding its address", x.Text))
	}
	name := fresh(x.Text, b.taken)
	b.mem[x.Text] = name
	sp := &cs.VarSpec{Name: ident(name, x.Pos)}
	if v := b.inits[x.Text]; v != 0 {
		sp.Value = intLit(v, x.Pos)
	}
	b.shared = append(b.shared, sp)
	return name
}

func (b *builder) program() *cs.Program {
	t := b.t
	b.taken, b.mem, b.inits, b.sites = map[string]bool{}, map[string]string{}, map[string]int64{}, map[int][2]int{}
	b.regs = make([]map[string]string, t.threads)
	for i := range b.regs {
		b.regs[i] = map[string]string{}
	}
	b.addr = make([]map[string]token, t.threads)
	b.written = make([]map[string]bool, t.threads)
	b.flagsRead = make([]bool, t.threads)
	b.labels = make([]map[string]string, t.threads)
	b.labelDone = make([]map[string]bool, t.threads)
	for th := range b.addr {
		b.addr[th], b.written[th] = map[string]token{}, map[string]bool{}
		b.labels[th], b.labelDone[th] = map[string]string{}, map[string]bool{}
	}
	b.arrays = map[string]*array{}
	for _, e := range t.init {
		if e.thread >= 0 {
			if e.thread >= t.threads {
				panic(errAt(e.name.Pos, "thread %d does not exist (%d threads)", e.thread, t.threads))
			}
			reg := b.regOf(e.name)
			if e.addr != nil {
				b.addr[e.thread][reg] = *e.addr
				continue
			}
			b.inits[strconv.Itoa(e.thread)+":"+reg] = e.value
			continue
		}
		if e.n > 0 {
			b.declareArray(e)
			continue
		}
		if e.typ != "" {
			typeSize(e.typ, e.name)
		}
		b.inits[e.name.Text] = e.value
	}
	// Memory locations: those of the initial state first, then in order of
	// appearance; the names the observer needs are made after them.
	for _, e := range t.init {
		if e.thread < 0 && e.n == 0 {
			b.location(e.name)
		}
	}
	var bodies [][]cs.Stmt
	if t.arch.weak() {
		bodies = b.weakBodies()
	} else {
		bodies = b.x86Bodies()
	}
	procs := make([]*cs.ProcDecl, t.threads)
	// Registers of the condition (and of the initial state) exist even when
	// no instruction names them.
	for _, e := range t.init {
		if e.thread >= 0 && e.addr == nil {
			b.register(e.thread, e.name)
		}
	}
	bad := t.cond
	if t.quant.Is("forall") {
		bad = propNot{bad}
	}
	if t.filter != nil {
		// herd answers for the executions the filter keeps.
		bad = propAnd{t.filter, bad}
	}
	var extra []cs.Decl
	if lits, ok := registerConj(bad); ok {
		at := cs.PosAt(t.quant.Pos)
		fd := &cs.ForbiddenDecl{Forbidden: at, Semi: at}
		for _, l := range lits {
			if l.thread >= t.threads {
				panic(errAt(l.name.Pos, "thread %d does not exist (%d threads)", l.thread, t.threads))
			}
		}
		for th := 0; th < t.threads; th++ {
			var c cs.Expr
			for _, l := range lits {
				if l.thread != th {
					continue
				}
				e := b.eq(l, ident(b.register(th, l.name), l.name.Pos))
				if c == nil {
					c = e
				} else {
					c = bin(c, cs.LAND, e, l.name.Pos)
				}
			}
			if c == nil {
				continue
			}
			bodies[th] = append(bodies[th], &cs.AssumeStmt{Assume: at, X: c, Semi: at},
				&cs.LabeledStmt{Label: ident("outcome", t.quant.Pos), Colon: at, Stmt: &cs.SkipStmt{Skip: at, Semi: at}})
			fd.Items = append(fd.Items, &cs.ProcLabel{Proc: ident(procName(th), t.quant.Pos), At: at, Label: ident("outcome", t.quant.Pos)})
		}
		extra = []cs.Decl{fd}
	} else {
		extra = b.observer(bad, bodies)
	}
	for th := 0; th < t.threads; th++ {
		body := &cs.BlockStmt{Lbrace: cs.PosAt(t.header[th].Pos), Rbrace: cs.PosAt(t.header[th].Pos)}
		var specs []*cs.VarSpec
		for _, name := range sortedValues(b.regs[th]) {
			sp := &cs.VarSpec{Name: ident(name.cs, t.header[th].Pos)}
			if v := b.inits[strconv.Itoa(th)+":"+name.orig]; v != 0 {
				sp.Value = intLit(v, t.header[th].Pos)
			}
			specs = append(specs, sp)
		}
		if len(specs) > 0 {
			body.List = append(body.List, &cs.DeclStmt{Decl: &cs.VarsDecl{Keyword: body.Lbrace, Tok: cs.LOCAL, Specs: specs, Semi: body.Lbrace}})
		}
		body.List = append(body.List, bodies[th]...)
		procs[th] = &cs.ProcDecl{Process: cs.PosAt(t.header[th].Pos), Name: ident(procName(th), t.header[th].Pos), Body: body}
	}
	prog := &cs.Program{}
	if len(b.shared) > 0 {
		prog.Decls = append(prog.Decls, &cs.VarsDecl{Keyword: cs.PosAt(0), Tok: cs.SHARED, Specs: b.shared, Semi: cs.PosAt(0)})
	}
	for _, p := range procs {
		prog.Decls = append(prog.Decls, p)
	}
	return &cs.Program{Decls: append(prog.Decls, extra...)}
}

// x86Bodies reads the instructions of every thread of an x86 dialect and
// returns the statements of each thread.
func (b *builder) x86Bodies() [][]cs.Stmt {
	t := b.t
	// The instructions of each thread, read first: which registers each
	// thread writes (an address register must keep its address), whether
	// it reads its flags, and its labels.
	insns := make([][]insn, t.threads)
	b.retLabel = make([]string, t.threads)
	for th := 0; th < t.threads; th++ {
		taken := map[string]bool{"outcome": true}
		for _, row := range t.rows {
			c := row[th]
			if len(c.toks) == 0 {
				insns[th] = append(insns[th], insn{})
				continue
			}
			in := parseInsn(t.arch, c)
			if in.label != nil {
				if _, dup := b.labels[th][in.label.Text]; !dup {
					b.labels[th][in.label.Text] = fresh(in.label.Text, taken)
				}
			}
			for _, r := range in.writes(t.arch) {
				b.written[th][r] = true
			}
			switch in.op {
			case "JE", "JNE", "JS", "JNS", "JGT", "JLE", "JGE", "JLT", "CMOVC", "SETNB":
				b.flagsRead[th] = true
			}
			insns[th] = append(insns[th], in)
		}
		for _, in := range insns[th] {
			if in.op == "RET" && b.retLabel[th] == "" {
				b.retLabel[th] = fresh("ret", taken) // taken holds the thread's labels
			}
		}
		for reg, x := range b.addr[th] {
			if b.written[th][reg] {
				panic(errAt(x.Pos, "%d:%s holds the address of %s and P%d writes %s: only addresses known statically are read", th, reg, x.Text, th, reg))
			}
		}
	}
	for _, e := range t.init {
		if e.addr != nil {
			if _, isArr := b.arrays[e.addr.Text]; !isArr {
				b.location(*e.addr)
			}
		}
	}
	memAtoms(t.cond, func(x token) { b.location(x) })
	if t.filter != nil {
		memAtoms(t.filter, func(x token) { b.location(x) })
	}
	bodies := make([][]cs.Stmt, t.threads)
	for th := 0; th < t.threads; th++ {
		last := 0
		for r := range t.rows {
			if in := &insns[th][r]; in.cell.end > 0 {
				bodies[th] = append(bodies[th], b.instr(th, r, in)...)
				last = in.cell.end
			}
		}
		if l := b.retLabel[th]; l != "" {
			// The end of the thread's instructions: a point of its own
			// (the last character of its last cell), where RET goes.
			at := cs.PosAt(last - 1)
			bodies[th] = append(bodies[th], &cs.LabeledStmt{Label: ident(l, last-1), Colon: at, Stmt: &cs.SkipStmt{Skip: at, Semi: at}})
		}
	}
	return bodies
}

func procName(th int) string { return "P" + strconv.Itoa(th) }

type regEntry struct{ orig, cs string }

// sortedValues lists the registers of a thread by their .cs name.
func sortedValues(m map[string]string) []regEntry {
	var out []regEntry
	for k, v := range m {
		out = append(out, regEntry{k, v})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].cs < out[j].cs })
	return out
}

// regOf returns the register a name of the initial state or the
// condition denotes (EAX, eax; rax, eax and al are RAX in X86_64), refusing
// a name that is no register of the test's architecture.
func (b *builder) regOf(r token) string {
	name, _, ok := regName(b.t.arch, r.Text)
	if !ok {
		panic(errAt(r.Pos, "%s is not a register of %s", r.Text, b.t.arch))
	}
	return name
}

// register returns the local of register r (as the initial state or the
// condition writes it) of thread th.
func (b *builder) register(th int, r token) string {
	reg := b.regOf(r)
	if x, ok := b.addr[th][reg]; ok {
		panic(errAt(r.Pos, "%d:%s holds the address of %s: fencer compares integers only", th, reg, x.Text))
	}
	if b.ptr != nil {
		if _, ok := b.ptr[th][reg]; ok {
			panic(errAt(r.Pos, "%d:%s holds an address: fencer compares integers only", th, reg))
		}
	}
	if isZeroReg(reg) && b.t.arch.weak() {
		panic(errAt(r.Pos, "%s is the zero register", r.Text))
	}
	return b.regLocal(th, reg)
}

// regLocal returns the local of register reg (a register name as regName
// returns it) of thread th.
func (b *builder) regLocal(th int, reg string) string {
	if name, ok := b.regs[th][reg]; ok {
		return name
	}
	taken := map[string]bool{}
	for k := range b.taken {
		taken[k] = true
	}
	for _, v := range b.regs[th] {
		taken[v] = true
	}
	for _, x := range b.t.init {
		if x.thread < 0 {
			taken[x.name.Text] = true
		}
	}
	name := fresh(reg, taken)
	b.regs[th][reg] = name
	return name
}

// registerConj returns the literals of p when p is a conjunction of
// register equalities.
func registerConj(p prop) ([]propEq, bool) {
	switch p := p.(type) {
	case propAnd:
		a, ok1 := registerConj(p.x)
		c, ok2 := registerConj(p.y)
		return append(a, c...), ok1 && ok2
	case propEq:
		return []propEq{p}, p.thread >= 0 && !p.neq
	}
	return nil, false
}

func (b *builder) eq(l propEq, x cs.Expr) cs.Expr {
	op := cs.EQL
	if l.neq {
		op = cs.NEQ
	}
	return bin(x, op, intLit(l.value, l.name.Pos), l.name.Pos)
}

// observer ends every thread with a locked step that publishes the
// registers of the condition and raises its flag, and returns the
// observer process and the forbidden declaration.
func (b *builder) observer(bad prop, bodies [][]cs.Stmt) []cs.Decl {
	t := b.t
	at := cs.PosAt(t.quant.Pos)
	var memRefs []token
	published := make([]map[string]string, t.threads)
	for i := range published {
		published[i] = map[string]string{}
	}
	var walk func(p prop)
	walk = func(p prop) {
		switch p := p.(type) {
		case propAnd:
			walk(p.x)
			walk(p.y)
		case propOr:
			walk(p.x)
			walk(p.y)
		case propNot:
			walk(p.x)
		case propEq:
			if p.thread < 0 {
				memRefs = append(memRefs, p.name)
				return
			}
			if p.thread >= t.threads {
				panic(errAt(p.name.Pos, "thread %d does not exist (%d threads)", p.thread, t.threads))
			}
			b.register(p.thread, p.name)
		}
	}
	walk(bad)
	for _, x := range memRefs {
		b.location(x)
	}
	var waits cs.Expr
	var obsSpecs []*cs.VarSpec
	var obsReads []cs.Stmt
	obsLocals := map[string]bool{}
	for k := range b.taken {
		obsLocals[k] = true
	}
	for th := 0; th < t.threads; th++ {
		var list []cs.Stmt
		for _, r := range sortedValues(b.regs[th]) {
			if strings.HasPrefix(r.orig, "\x00") {
				continue // a local of fencer's, not a register
			}
			pub := fresh(fmt.Sprintf("%s_%s", procName(th), r.orig), b.taken)
			published[th][r.orig] = pub
			b.shared = append(b.shared, &cs.VarSpec{Name: ident(pub, t.quant.Pos)})
			list = append(list, &cs.AssignStmt{Lhs: ident(pub, t.quant.Pos), TokPos: at, Rhs: ident(r.cs, t.quant.Pos), Semi: at})
		}
		done := fresh(fmt.Sprintf("done%d", th), b.taken)
		b.shared = append(b.shared, &cs.VarSpec{Name: ident(done, t.quant.Pos)})
		list = append(list, &cs.AssignStmt{Lhs: ident(done, t.quant.Pos), TokPos: at, Rhs: intLit(1, t.quant.Pos), Semi: at})
		flag := ident(done, t.quant.Pos)
		if t.arch.weak() {
			// Under the axiomatic models: the copies, then a release
			// write of the flag, which Obs reads with acquire reads; so
			// every access of the thread is ordered before Obs's reads,
			// and Obs reads the coherence-last value of each location.
			// The statements span the thread's header (P0): the points
			// after them are the point after the thread's last
			// instruction for EditChanges (slot).
			hp, he := cs.PosAt(t.header[th].Pos), cs.PosAt(t.header[th].End-1)
			for _, st := range list {
				a := st.(*cs.AssignStmt)
				a.Lhs.(*cs.Ident).NamePos, a.TokPos, a.Semi = hp, hp, he
			}
			last := list[len(list)-1].(*cs.AssignStmt)
			last.Ann, last.AnnPos = cs.Release, hp
			bodies[th] = append(bodies[th], list...)
			seen := fresh(fmt.Sprintf("seen%d", th), obsLocals)
			obsSpecs = append(obsSpecs, &cs.VarSpec{Name: ident(seen, t.quant.Pos)})
			obsReads = append(obsReads, &cs.AssignStmt{Lhs: ident(seen, t.quant.Pos), TokPos: at, Rhs: ident(done, t.quant.Pos), Semi: at, Ann: cs.Acquire, AnnPos: at})
			flag = ident(seen, t.quant.Pos)
		} else {
			bodies[th] = append(bodies[th], &cs.AtomicStmt{Atomic: at, Body: &cs.BlockStmt{Lbrace: at, List: list, Rbrace: at}})
		}
		w := bin(flag, cs.EQL, intLit(1, t.quant.Pos), t.quant.Pos)
		if waits == nil {
			waits = w
		} else {
			waits = bin(waits, cs.LAND, w, t.quant.Pos)
		}
	}
	var cond func(p prop) cs.Expr
	cond = func(p prop) cs.Expr {
		switch p := p.(type) {
		case propAnd:
			return &cs.ParenExpr{Lparen: at, X: bin(cond(p.x), cs.LAND, cond(p.y), t.quant.Pos), Rparen: at}
		case propOr:
			return &cs.ParenExpr{Lparen: at, X: bin(cond(p.x), cs.LOR, cond(p.y), t.quant.Pos), Rparen: at}
		case propNot:
			return &cs.UnaryExpr{OpPos: at, Op: cs.NOT, X: &cs.ParenExpr{Lparen: at, X: cond(p.x), Rparen: at}}
		case propBool:
			return &cs.BoolLit{ValuePos: cs.PosAt(p.pos), Value: p.v}
		case propEq:
			if p.thread < 0 {
				return b.eq(p, ident(b.mem[p.name.Text], p.name.Pos))
			}
			return b.eq(p, ident(published[p.thread][b.regOf(p.name)], p.name.Pos))
		}
		panic(errAt(t.quant.Pos, "internal error: unknown proposition"))
	}
	obsName := "Obs"
	var list []cs.Stmt
	if len(obsSpecs) > 0 {
		list = append(list, &cs.DeclStmt{Decl: &cs.VarsDecl{Keyword: at, Tok: cs.LOCAL, Specs: obsSpecs, Semi: at}})
	}
	list = append(list, obsReads...)
	body := &cs.BlockStmt{Lbrace: at, Rbrace: at, List: append(list,
		&cs.AssumeStmt{Assume: at, X: waits, Semi: at},
		&cs.AssumeStmt{Assume: at, X: cond(bad), Semi: at},
		&cs.LabeledStmt{Label: ident("outcome", t.quant.Pos), Colon: at, Stmt: &cs.SkipStmt{Skip: at, Semi: at}},
	)}
	return []cs.Decl{
		&cs.ProcDecl{Process: at, Name: ident(obsName, t.quant.Pos), Body: body},
		&cs.ForbiddenDecl{Forbidden: at, Items: []*cs.ProcLabel{{Proc: ident(obsName, t.quant.Pos), At: at, Label: ident("outcome", t.quant.Pos)}}, Semi: at},
	}
}

// memAtoms calls f on the memory locations of p.
func memAtoms(p prop, f func(token)) {
	switch p := p.(type) {
	case propAnd:
		memAtoms(p.x, f)
		memAtoms(p.y, f)
	case propOr:
		memAtoms(p.x, f)
		memAtoms(p.y, f)
	case propNot:
		memAtoms(p.x, f)
	case propEq:
		if p.thread < 0 {
			f(p.name)
		}
	}
}
