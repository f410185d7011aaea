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
	taken  map[string]bool   // shared names
	mem    map[string]string // location -> cs name
	regs   []map[string]string
	shared []*cs.VarSpec
	inits  map[string]int64 // "x" or "0:EAX" -> initial value
	sites  map[int][2]int   // instruction start -> (thread, row)
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
	for _, e := range t.init {
		key := e.name.Text
		if e.thread >= 0 {
			if e.thread >= t.threads {
				panic(errAt(e.name.Pos, "thread %d does not exist (%d threads)", e.thread, t.threads))
			}
			key = strconv.Itoa(e.thread) + ":" + strings.ToUpper(key)
		}
		b.inits[key] = e.value
	}
	// Memory locations: those of the initial state first, then in order of
	// appearance; the names the observer needs are made after them.
	for _, e := range t.init {
		if e.thread < 0 {
			b.location(e.name)
		}
	}
	for _, row := range t.rows {
		for _, c := range row {
			for i := 0; i+2 < len(c.toks); i++ {
				if c.toks[i].Is("[") && c.toks[i+1].Kind == tIdent && c.toks[i+2].Is("]") {
					b.location(c.toks[i+1])
				}
			}
		}
	}
	memAtoms(t.cond, func(x token) { b.location(x) })
	procs := make([]*cs.ProcDecl, t.threads)
	bodies := make([][]cs.Stmt, t.threads)
	for th := 0; th < t.threads; th++ {
		for r, row := range t.rows {
			if c := row[th]; len(c.toks) > 0 {
				bodies[th] = append(bodies[th], b.instr(th, r, c)...)
			}
		}
	}
	// Registers of the condition (and of the initial state) exist even when
	// no instruction names them.
	for _, e := range t.init {
		if e.thread >= 0 {
			b.register(e.thread, e.name)
		}
	}
	bad := t.cond
	if t.quant.Is("forall") {
		bad = propNot{bad}
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

func procName(th int) string { return "P" + strconv.Itoa(th) }

type regName struct{ orig, cs string }

// sortedValues lists the registers of a thread by their .cs name.
func sortedValues(m map[string]string) []regName {
	var out []regName
	for k, v := range m {
		out = append(out, regName{k, v})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].cs < out[j].cs })
	return out
}

// register returns the local of register r of thread th.
// Register names are not case-sensitive (EAX, eax).
func (b *builder) register(th int, r token) string {
	key := strings.ToUpper(r.Text)
	if name, ok := b.regs[th][key]; ok {
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
	name := fresh(key, taken)
	b.regs[th][key] = name
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
	for th := 0; th < t.threads; th++ {
		var list []cs.Stmt
		for _, r := range sortedValues(b.regs[th]) {
			pub := fresh(fmt.Sprintf("%s_%s", procName(th), r.orig), b.taken)
			published[th][r.orig] = pub
			b.shared = append(b.shared, &cs.VarSpec{Name: ident(pub, t.quant.Pos)})
			list = append(list, &cs.AssignStmt{Lhs: ident(pub, t.quant.Pos), TokPos: at, Rhs: ident(r.cs, t.quant.Pos), Semi: at})
		}
		done := fresh(fmt.Sprintf("done%d", th), b.taken)
		b.shared = append(b.shared, &cs.VarSpec{Name: ident(done, t.quant.Pos)})
		list = append(list, &cs.AssignStmt{Lhs: ident(done, t.quant.Pos), TokPos: at, Rhs: intLit(1, t.quant.Pos), Semi: at})
		bodies[th] = append(bodies[th], &cs.AtomicStmt{Atomic: at, Body: &cs.BlockStmt{Lbrace: at, List: list, Rbrace: at}})
		w := bin(ident(done, t.quant.Pos), cs.EQL, intLit(1, t.quant.Pos), t.quant.Pos)
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
			return b.eq(p, ident(published[p.thread][strings.ToUpper(p.name.Text)], p.name.Pos))
		}
		panic(errAt(t.quant.Pos, "internal error: unknown proposition"))
	}
	obsName := "Obs"
	body := &cs.BlockStmt{Lbrace: at, Rbrace: at, List: []cs.Stmt{
		&cs.AssumeStmt{Assume: at, X: waits, Semi: at},
		&cs.AssumeStmt{Assume: at, X: cond(bad), Semi: at},
		&cs.LabeledStmt{Label: ident("outcome", t.quant.Pos), Colon: at, Stmt: &cs.SkipStmt{Skip: at, Semi: at}},
	}}
	return []cs.Decl{
		&cs.ProcDecl{Process: at, Name: ident(obsName, t.quant.Pos), Body: body},
		&cs.ForbiddenDecl{Forbidden: at, Items: []*cs.ProcLabel{{Proc: ident(obsName, t.quant.Pos), At: at, Label: ident("outcome", t.quant.Pos)}}, Semi: at},
	}
}

// operand is one operand of an instruction.
type operand struct {
	kind  byte // 'm' memory [x], 'r' register, 'i' immediate $n
	tok   token
	value int64
}

// operands splits the tokens after the mnemonic at top-level commas.
func operands(toks []token) []operand {
	var out []operand
	for i := 0; i < len(toks); {
		t := toks[i]
		switch {
		case t.Is("["):
			if i+2 >= len(toks) || toks[i+1].Kind != tIdent || !toks[i+2].Is("]") {
				panic(errAt(t.Pos, "expected [location]"))
			}
			out = append(out, operand{kind: 'm', tok: toks[i+1]})
			i += 3
		case t.Is("$"):
			j := i + 1
			neg := false
			if j < len(toks) && toks[j].Is("-") {
				neg = true
				j++
			}
			if j >= len(toks) || toks[j].Kind != tInt {
				panic(errAt(t.Pos, "expected an integer after '$'"))
			}
			v, _ := strconv.ParseInt(toks[j].Text, 10, 64)
			if neg {
				v = -v
			}
			out = append(out, operand{kind: 'i', tok: t, value: v})
			i = j + 1
		case t.Kind == tIdent:
			out = append(out, operand{kind: 'r', tok: t})
			i++
		default:
			panic(errAt(t.Pos, "expected an operand ([x], $n or a register), found %s", t))
		}
		if i < len(toks) {
			if !toks[i].Is(",") {
				panic(errAt(toks[i].Pos, "expected ',' between operands, found %s", toks[i]))
			}
			i++
			if i == len(toks) {
				panic(errAt(toks[i-1].Pos, "operand missing after ','"))
			}
		}
	}
	return out
}

// instr turns one instruction of thread th into statements.
func (b *builder) instr(th, row int, c cell) []cs.Stmt {
	toks := c.toks
	pos := cs.PosAt(c.start)
	semi := cs.PosAt(c.end - 1)
	mn := toks[0]
	if mn.Kind != tIdent {
		panic(errAt(mn.Pos, "expected an instruction, found %s", mn))
	}
	op := strings.ToUpper(mn.Text)
	rest := toks[1:]
	locked := false
	if op == "LOCK" {
		if len(rest) == 0 || rest[0].Kind != tIdent {
			panic(errAt(mn.Pos, "expected an instruction after LOCK"))
		}
		locked = true
		op = strings.ToUpper(rest[0].Text)
		rest = rest[1:]
	}
	ops := operands(rest)
	want := func(n int) {
		if len(ops) != n {
			panic(errAt(mn.Pos, "%s takes %d operands, not %d", op, n, len(ops)))
		}
	}
	value := func(o operand) cs.Expr {
		switch o.kind {
		case 'i':
			return intLit(o.value, o.tok.Pos)
		case 'r':
			return ident(b.register(th, o.tok), o.tok.Pos)
		}
		panic(errAt(o.tok.Pos, "%s: at most one memory operand", op))
	}
	reg := func(o operand) *cs.Ident {
		if o.kind != 'r' {
			panic(errAt(o.tok.Pos, "%s: expected a register operand", op))
		}
		return ident(b.register(th, o.tok), o.tok.Pos)
	}
	mem := func(o operand) string {
		if o.kind != 'm' {
			panic(errAt(o.tok.Pos, "%s: expected a memory operand [x]", op))
		}
		return b.location(o.tok)
	}
	if locked {
		switch op {
		case "XCHG", "XADD", "CMPXCHG", "INC", "DEC", "ADD", "SUB":
		default:
			panic(errAt(mn.Pos, "LOCK %s is not supported (LOCK XCHG, XADD, CMPXCHG, INC, DEC, ADD and SUB are)", op))
		}
	}
	switch op {
	case "MFENCE":
		want(0)
		return []cs.Stmt{&cs.FenceStmt{Fence: pos, Semi: semi}}
	case "LFENCE":
		// Loads are never reordered with loads in TSO and PSO.
		want(0)
		return []cs.Stmt{&cs.SkipStmt{Skip: pos, Semi: semi}}
	case "SFENCE":
		// A store-store fence: fence store; (nothing under TSO, where
		// stores already reach memory in order).
		want(0)
		return []cs.Stmt{&cs.FenceStmt{Fence: pos, Kind: cs.StoreFence, StorePos: pos, Semi: semi}}
	case "MOV":
		want(2)
		d, s := ops[0], ops[1]
		if d.kind == 'm' {
			x := mem(d)
			b.sites[c.start] = [2]int{th, row}
			// The statement starts at the instruction, so that its site reads
			// "MOV [x],$1".
			return []cs.Stmt{&cs.AssignStmt{Lhs: ident(x, c.start), TokPos: pos, Rhs: value(s), Semi: semi}}
		}
		r := reg(d)
		if s.kind == 'm' {
			return []cs.Stmt{&cs.AssignStmt{Lhs: r, TokPos: pos, Rhs: ident(mem(s), s.tok.Pos), Semi: semi}}
		}
		return []cs.Stmt{&cs.AssignStmt{Lhs: r, TokPos: pos, Rhs: value(s), Semi: semi}}
	case "XCHG", "XADD":
		want(2)
		m, r := ops[0], ops[1]
		if op == "XCHG" && m.kind != 'm' {
			m, r = r, m
		}
		if op == "XADD" && !locked {
			panic(errAt(mn.Pos, "XADD without LOCK is not atomic and not supported; write LOCK XADD"))
		}
		x, rr := mem(m), reg(r)
		fn := "swap"
		if op == "XADD" {
			fn = "fetch_add"
		}
		call := &cs.CallExpr{Fun: ident(fn, mn.Pos), Lparen: pos, Args: []cs.Expr{ident(x, m.tok.Pos), ident(rr.Name, r.tok.Pos)}, Rparen: semi}
		return []cs.Stmt{&cs.AssignStmt{Lhs: rr, TokPos: pos, Rhs: call, Semi: semi}}
	case "CMPXCHG":
		want(2)
		if !locked {
			panic(errAt(mn.Pos, "CMPXCHG without LOCK is not atomic and not supported; write LOCK CMPXCHG"))
		}
		x, r := mem(ops[0]), reg(ops[1])
		eax := ident(b.register(th, token{Kind: tIdent, Text: "EAX", Pos: mn.Pos}), mn.Pos)
		tmp := ident(b.register(th, token{Kind: tIdent, Text: "cmpxchg_old", Pos: mn.Pos}), mn.Pos)
		body := []cs.Stmt{
			&cs.AssignStmt{Lhs: tmp, TokPos: pos, Rhs: ident(x, ops[0].tok.Pos), Semi: semi},
			&cs.IfStmt{If: pos, Cond: bin(tmp, cs.EQL, eax, mn.Pos),
				Then: &cs.AssignStmt{Lhs: ident(x, ops[0].tok.Pos), TokPos: pos, Rhs: r, Semi: semi},
				Else: &cs.AssignStmt{Lhs: eax, TokPos: pos, Rhs: tmp, Semi: semi}},
		}
		return []cs.Stmt{&cs.AtomicStmt{Atomic: pos, Body: &cs.BlockStmt{Lbrace: pos, List: body, Rbrace: semi}}}
	case "INC", "DEC", "ADD", "SUB":
		if !locked {
			panic(errAt(mn.Pos, "%s without LOCK is not supported", op))
		}
		var delta cs.Expr
		switch op {
		case "INC", "DEC":
			want(1)
			delta = intLit(1, mn.Pos)
		default:
			want(2)
			delta = value(ops[1])
		}
		x := mem(ops[0])
		arith := cs.ADD
		if op == "DEC" || op == "SUB" {
			arith = cs.SUB
		}
		tmp := ident(b.register(th, token{Kind: tIdent, Text: "rmw_old", Pos: mn.Pos}), mn.Pos)
		body := []cs.Stmt{
			&cs.AssignStmt{Lhs: tmp, TokPos: pos, Rhs: ident(x, ops[0].tok.Pos), Semi: semi},
			&cs.AssignStmt{Lhs: ident(x, ops[0].tok.Pos), TokPos: pos, Rhs: bin(tmp, arith, delta, mn.Pos), Semi: semi},
		}
		return []cs.Stmt{&cs.AtomicStmt{Atomic: pos, Body: &cs.BlockStmt{Lbrace: pos, List: body, Rbrace: semi}}}
	}
	panic(errAt(mn.Pos, "instruction %s is not supported (MOV, XCHG, LOCK XADD, LOCK CMPXCHG, LOCK INC/DEC/ADD/SUB, MFENCE, LFENCE are)", mn.Text))
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
