package litmus

import (
	"fmt"
	"sync"

	"fencer/cs"
)

// This file reads the weak dialects, AArch64 (arm.go) and RISCV
// (riscv.go), for the axiomatic models: both are parsed into one small
// instruction set, winsn, and this file gives each its statement (see
// doc.go for what each instruction means). Every instruction is one
// statement that spans its cell, and so do the statements inside it (the
// blocks of a branch; cs merges the points of statements with one span),
// so that every point of the program is the point before or after a row
// of the table, which EditChanges writes back; the statements inside an
// atomic step have no points. An exclusive pair is one atomic statement
// from the load's cell to the store's.

// wkind is what a winsn does.
type wkind uint8

const (
	wEmpty   wkind = iota // an empty cell
	wNop                  // NOP, nop
	wLabel                // a label cell alone
	wMove                 // dst = a
	wALU                  // dst = a alu b<<shift
	wAddr                 // dst, an address register, = address a + b<<shift (or &sym)
	wLoad                 // dst = mem
	wStore                // mem = a
	wLoadEx               // dst = mem, exclusive
	wStoreEx              // mem = a if paired, dst = status
	wRMW                  // dst = old mem; mem = rmw(old, a)
	wCAS                  // old = mem; if old == a: mem = b; a = old
	wFence                // a barrier of kind fence
	wCmp                  // the flags of a - b
	wBranch               // if cond, goto target
	wJump                 // goto target
	wCSel                 // dst = cond ? a : b (csinc: b + 1), on the flags
)

// wopnd is a register or immediate operand.
type wopnd struct {
	kind  byte // 0 (none), opReg, opImm
	tok   token
	value int64  // opImm
	reg   string // opReg: the register (X0, x5, the zero register XZR or x0)
	width int    // opReg: 32 for a W register
}

// wmem is a memory operand: the address in base, plus disp, plus index <<
// shift.
type wmem struct {
	tok         token // its first token
	base, index string
	bTok, iTok  token
	disp, shift int64
}

// winsn is one cell of a weak dialect.
type winsn struct {
	kind   wkind
	row    int
	cell   cell
	label  *token // the label the cell defines ("L0:", "L0: LDR ...")
	istart int    // the instruction's offset (after the label)
	mn     token
	name   string // the mnemonic, upper case (AArch64) or lower case (RISCV)
	base   string // wRMW, wCAS: the mnemonic without its order suffix (LDADD, amoadd.w)
	dst    wopnd
	a, b   wopnd
	shift  int64  // wALU, wAddr: b is shifted left by it
	alu    string // wALU: ADD, SUB, EOR, ORR, AND
	rmw    string // wRMW: SWP, ADD, EOR, SET, CLR, AND, SMAX, SMIN
	mem    wmem
	sym    *token // wAddr: la of a location
	ann    cs.Ann
	fence  cs.FenceKind
	cond   string // wBranch, wCSel: EQ, NE, LT, GE, GT, LE
	inc    bool   // wCSel: CSINC (the else value is b + 1)
	// move: a wCSel whose two operands are one register, read as a move
	// (checkCSel says when).
	move bool
	// post: a post-indexed access ([Xn],#imm): its base register is
	// written back after it, which nothing reads (checkPost).
	post   *token
	flags  bool // wBranch: on the flags of the last CMP (a and b unused); wALU: sets them (ADDS, SUBS)
	target token
	// rsBoth: a CAS that swaps leaves its compare register its value or
	// gives it the value read, both (checkCAS).
	rsBoth bool
}

// parseWeak reads cell c of dialect d.
func parseWeak(d dialect, c cell) winsn {
	in := winsn{cell: c, istart: c.start}
	toks := c.toks
	if len(toks) >= 2 && toks[0].Kind == tIdent && toks[1].Is(":") {
		l := toks[0]
		in.label = &l
		toks = toks[2:]
		if len(toks) == 0 {
			in.kind = wLabel
			return in
		}
		in.istart = toks[0].Pos
	}
	if d == arm64 {
		parseARM(&in, toks)
	} else {
		parseRISCV(&in, toks)
	}
	return in
}

// writes lists the registers in writes (not the zero register).
func (in *winsn) writes() []string {
	var out []string
	add := func(o wopnd) {
		if o.kind == opReg && !isZeroReg(o.reg) {
			out = append(out, o.reg)
		}
	}
	switch in.kind {
	case wMove, wALU, wAddr, wLoad, wLoadEx, wStoreEx, wRMW, wCSel:
		add(in.dst)
	case wCAS:
		add(in.a)
	}
	return out
}

// isAccess reports whether in reads or writes memory.
func (in *winsn) isAccess() bool {
	switch in.kind {
	case wLoad, wStore, wLoadEx, wStoreEx, wRMW, wCAS:
		return true
	}
	return false
}

// weakBodies reads the instructions of every thread of a weak dialect and
// returns the statements of each thread.
func (b *builder) weakBodies() [][]cs.Stmt {
	t := b.t
	t.w = make([][]winsn, t.threads)
	t.pairs = make([][][2]int, t.threads)
	b.ptr = make([]map[string]int, t.threads)
	for th := 0; th < t.threads; th++ {
		taken := map[string]bool{"outcome": true}
		b.ptr[th] = map[string]int{}
		for r, row := range t.rows {
			c := row[th]
			in := winsn{row: r}
			if len(c.toks) > 0 {
				in = parseWeak(t.arch, c)
				in.row = r
			}
			if in.label != nil {
				if _, dup := b.labels[th][in.label.Text]; !dup {
					b.labels[th][in.label.Text] = fresh(in.label.Text, taken)
				}
			}
			for _, reg := range in.writes() {
				b.written[th][reg] = true
			}
			t.w[th] = append(t.w[th], in)
		}
		b.addresses(th)
		b.exclusives(th)
	}
	// What fencer's statements would order otherwise than herd is refused
	// (flow.go); checkCAS looks at the other threads' writes.
	for th := 0; th < t.threads; th++ {
		b.checkCSel(th)
		b.checkPost(th)
		b.checkCAS(th)
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
		ins := t.w[th]
		pair := map[int]int{}
		for _, p := range t.pairs[th] {
			pair[p[0]] = p[1]
		}
		for r := 0; r < len(ins); r++ {
			in := &ins[r]
			if in.kind == wEmpty {
				continue
			}
			var s cs.Stmt
			if j, ok := pair[r]; ok {
				s = b.exclusivePair(th, ins[r:j+1])
				r = j
			} else {
				s = b.weakInstr(th, in)
			}
			if in.label != nil {
				s = &cs.LabeledStmt{Label: ident(b.labelName(th, *in.label, true), in.label.Pos), Colon: cs.PosAt(in.label.End), Stmt: s}
			}
			bodies[th] = append(bodies[th], s)
		}
	}
	return bodies
}

// addresses finds the address registers of thread th: those of the
// initial state, and those computed from one (ADD, MOV, add, addi, mv
// with an address operand; la). A computed one is written by exactly one
// instruction, which comes before each use with no label between; a
// register of the initial state that holds an address is never written.
func (b *builder) addresses(th int) {
	ins := b.t.w[th]
	isAddr := func(o wopnd) bool {
		if o.kind != opReg {
			return false
		}
		_, init := b.addr[th][o.reg]
		_, comp := b.ptr[th][o.reg]
		return init || comp
	}
	for changed := true; changed; {
		changed = false
		for r := range ins {
			in := &ins[r]
			switch {
			case in.kind == wAddr && in.sym != nil:
			case in.kind == wMove && isAddr(in.a):
			case in.kind == wALU && in.alu == "ADD" && (isAddr(in.a) || isAddr(in.b)):
				if isAddr(in.a) && isAddr(in.b) {
					panic(errAt(in.mn.Pos, "%s adds two addresses", in.mn.Text))
				}
				if isAddr(in.b) {
					if in.shift != 0 {
						panic(errAt(in.b.tok.Pos, "a shifted address is not read"))
					}
					in.a, in.b = in.b, in.a
				}
			default:
				continue
			}
			in.kind = wAddr
			if _, done := b.ptr[th][in.dst.reg]; !done && !isZeroReg(in.dst.reg) {
				b.ptr[th][in.dst.reg] = r
				changed = true
			}
		}
	}
	for reg, def := range b.ptr[th] {
		if x, ok := b.addr[th][reg]; ok {
			panic(errAt(x.Pos, "%d:%s holds the address of %s and P%d writes %s: only addresses known statically are read", th, reg, x.Text, th, reg))
		}
		for r := range ins {
			for _, w := range ins[r].writes() {
				if w == reg && r != def {
					panic(errAt(ins[r].mn.Pos, "%s holds an address computed at line %d and is written again: only addresses known statically are read", ins[r].dst.tok.Text, b.line(ins[def].mn.Pos)))
				}
			}
		}
	}
	for r := range ins {
		in := &ins[r]
		for _, w := range in.writes() {
			if x, ok := b.addr[th][w]; ok {
				panic(errAt(in.mn.Pos, "%d:%s holds the address of %s and P%d writes %s: only addresses known statically are read", th, w, x.Text, th, w))
			}
		}
		var uses []wopnd
		if in.isAccess() {
			uses = append(uses, wopnd{kind: opReg, reg: in.mem.base, tok: in.mem.bTok})
		}
		if in.kind == wAddr && in.sym == nil {
			uses = append(uses, in.a)
		}
		for _, u := range uses {
			def, ok := b.ptr[th][u.reg]
			if !ok {
				continue
			}
			if !b.reaches(th, def, r) {
				panic(errAt(u.tok.Pos, "%s holds an address computed at line %d, which does not come before this use on every path (a label between them, or the use first): only addresses known statically are read", u.tok.Text, b.line(ins[def].mn.Pos)))
			}
		}
	}
}

// reaches reports whether the instruction of row def runs before row use
// on every path of thread th: def comes first and no label lies after def
// up to use.
func (b *builder) reaches(th, def, use int) bool {
	if def >= use {
		return false
	}
	for r := def + 1; r <= use; r++ {
		if b.t.w[th][r].label != nil {
			return false
		}
	}
	return true
}

// line is the line of offset off (for messages).
func (b *builder) line(off int) int {
	n := 1
	for i := 0; i < off && i < len(b.src); i++ {
		if b.src[i] == '\n' {
			n++
		}
	}
	return n
}

// exclusives pairs the load-exclusives of thread th with their
// store-exclusives (t.pairs).
func (b *builder) exclusives(th int) {
	ins := b.t.w[th]
	paired := map[int]bool{}
	anyLoad := -1
	for r := range ins {
		if ins[r].kind != wLoadEx {
			continue
		}
		if anyLoad < 0 {
			anyLoad = r
		}
	scan:
		for k := r + 1; k < len(ins); k++ {
			in := &ins[k]
			if in.label != nil {
				break
			}
			switch in.kind {
			case wEmpty, wNop, wMove, wALU, wAddr, wCmp:
			case wStoreEx:
				b.t.pairs[th] = append(b.t.pairs[th], [2]int{r, k})
				paired[k] = true
				break scan
			default:
				break scan
			}
		}
	}
	for r := range ins {
		if ins[r].kind == wStoreEx && !paired[r] && anyLoad >= 0 {
			panic(errAt(ins[r].mn.Pos, "%s is not paired with a load-exclusive: only a load-exclusive followed by its store-exclusive with register instructions between them (no label, branch, barrier or memory access) is read", ins[r].mn.Text))
		}
	}
}

// wval is the value of a register or immediate operand of thread th.
func (b *builder) wval(th int, o wopnd) cs.Expr {
	switch o.kind {
	case opImm:
		return intLit(o.value, o.tok.Pos)
	case opReg:
		if isZeroReg(o.reg) {
			return intLit(0, o.tok.Pos)
		}
		if x, ok := b.addr[th][o.reg]; ok {
			panic(errAt(o.tok.Pos, "%s holds the address of %s: an address is only read as a memory operand, not as a value", o.tok.Text, x.Text))
		}
		if _, ok := b.ptr[th][o.reg]; ok {
			panic(errAt(o.tok.Pos, "%s holds an address: an address is only read as a memory operand, not as a value", o.tok.Text))
		}
		return ident(b.regLocal(th, o.reg), o.tok.Pos)
	}
	panic(errAt(o.tok.Pos, "internal error: no operand"))
}

// wdst is the local that destination o of thread th writes, at offset at
// (a local of fencer's for the zero register).
func (b *builder) wdst(th int, o wopnd, at int) *cs.Ident {
	if o.kind != opReg {
		panic(errAt(o.tok.Pos, "expected a register"))
	}
	if isZeroReg(o.reg) {
		return ident(b.tmp(th, "zero").Name, at)
	}
	return ident(b.regLocal(th, o.reg), at)
}

// staticValue returns the value register reg of thread th holds when row
// runs, when it is known statically: the zero register; a register the
// thread never writes before row on any path (its initial value); or one
// whose last write before row is the only one that reaches it (reachingDef)
// and gives a value known statically.
func (b *builder) staticValue(th int, reg string, row, depth int) (int64, bool) {
	if isZeroReg(reg) {
		return 0, true
	}
	if depth > 32 {
		return 0, false
	}
	def, ok := b.reachingDef(th, reg, row)
	if !ok {
		return 0, false
	}
	if def < 0 {
		return b.inits[fmt.Sprintf("%d:%s", th, reg)], true
	}
	in := &b.t.w[th][def]
	val := func(o wopnd) (int64, bool) {
		if o.kind == opImm {
			return o.value, true
		}
		return b.staticValue(th, o.reg, def, depth+1)
	}
	switch in.kind {
	case wMove:
		return val(in.a)
	case wCSel:
		// the same value whatever the flags
		x, ok1 := val(in.a)
		y, ok2 := val(in.b)
		if in.inc {
			y++
		}
		if ok1 && ok2 && x == y {
			return x, true
		}
		return 0, false
	case wALU:
		same := in.a.kind == opReg && in.b.kind == opReg && in.a.reg == in.b.reg && in.shift == 0
		if same && (in.alu == "EOR" || in.alu == "SUB") {
			return 0, true
		}
		x, ok1 := val(in.a)
		y, ok2 := val(in.b)
		if in.alu == "AND" && (ok1 && x == 0 || ok2 && y == 0) {
			return 0, true
		}
		if !ok1 || !ok2 {
			return 0, false
		}
		y <<= in.shift
		switch in.alu {
		case "ADD":
			return x + y, true
		case "SUB":
			return x - y, true
		case "EOR":
			return x ^ y, true
		case "ORR":
			return x | y, true
		case "AND":
			return x & y, true
		}
	}
	return 0, false
}

// reachingDef returns the one instruction of thread th that gives register
// reg its value when row runs: the last one before row that writes it,
// when no label lies after it up to row (every path to row passes it, and
// no other write of reg between); -1 when no instruction before row
// writes it and no label lies before row up to it (reg still holds its
// initial value, unless the thread never writes it at all: then -1
// whatever the labels). ok is false when neither holds.
func (b *builder) reachingDef(th int, reg string, row int) (def int, ok bool) {
	ins := b.t.w[th]
	if !b.written[th][reg] {
		return -1, true
	}
	for r := row; r >= 0; r-- {
		if r < row {
			for _, w := range ins[r].writes() {
				if w == reg {
					return r, true
				}
			}
		}
		if ins[r].label != nil {
			return 0, false
		}
	}
	return -1, true
}

// addrOf returns the location and offset the address register reg of
// thread th holds at row (an address of the initial state, or computed:
// addresses).
func (b *builder) addrOf(th int, reg string, tok token, row, depth int) (token, int64) {
	if x, ok := b.addr[th][reg]; ok {
		return x, 0
	}
	def, ok := b.ptr[th][reg]
	if !ok || depth > 32 {
		panic(errAt(tok.Pos, "%s does not hold an address known statically (give it one in the initial state: %d:%s=x)", tok.Text, th, tok.Text))
	}
	in := &b.t.w[th][def]
	if in.sym != nil {
		return *in.sym, 0
	}
	x, off := b.addrOf(th, in.a.reg, in.a.tok, def, depth+1)
	switch in.b.kind {
	case opImm:
		off += in.b.value
	case opReg:
		v, ok := b.staticValue(th, in.b.reg, def, 0)
		if !ok {
			panic(errAt(in.b.tok.Pos, "%s: its value is not known statically, so neither is the address %s computes", in.b.tok.Text, in.mn.Text))
		}
		off += v << in.shift
	}
	return x, off
}

// ptrDeps reports whether the computed address register reg of thread th
// depends on a register the thread writes (its local then carries the
// dependency: weakInstr of wAddr).
func (b *builder) ptrDeps(th int, reg string, depth int) bool {
	def, ok := b.ptr[th][reg]
	if !ok || depth > 32 {
		return false
	}
	in := &b.t.w[th][def]
	if in.sym != nil {
		return false
	}
	return b.ptrDeps(th, in.a.reg, depth+1) || in.b.kind == opReg && !isZeroReg(in.b.reg) && b.written[th][in.b.reg]
}

// weakMem returns the shared variable that the memory operand of in
// (thread th) denotes, and the locals its address was computed from.
func (b *builder) weakMem(th int, in *winsn) (string, []*cs.Ident) {
	return b.weakMemAt(th, in, nil)
}

// weakMemAt is weakMem with the index register holding *idx (nil: its
// value known statically).
func (b *builder) weakMemAt(th int, in *winsn, idx *int64) (string, []*cs.Ident) {
	m := in.mem
	x, off := b.addrOf(th, m.base, m.bTok, in.row, 0)
	off += m.disp
	var deps []*cs.Ident
	if b.ptrDeps(th, m.base, 0) {
		deps = append(deps, ident(b.regLocal(th, m.base), m.bTok.Pos))
	}
	if m.index != "" {
		if _, ok := b.addr[th][m.index]; ok {
			panic(errAt(m.iTok.Pos, "index register %s holds an address", m.iTok.Text))
		}
		if _, ok := b.ptr[th][m.index]; ok {
			panic(errAt(m.iTok.Pos, "index register %s holds an address", m.iTok.Text))
		}
		v, ok := b.staticValue(th, m.index, in.row, 0)
		if idx != nil {
			v, ok = *idx, true
		}
		if !ok {
			panic(errAt(m.iTok.Pos, "index register %s: its value is not known statically (an immediate, an initial value, or a value computed from those with no label between)", m.iTok.Text))
		}
		off += v << m.shift
		if b.written[th][m.index] {
			deps = append(deps, ident(b.regLocal(th, m.index), m.iTok.Pos))
		}
	}
	name := b.at(x, off, m.tok)
	w32 := in.dst.kind == opReg && in.dst.width == 32 || in.a.kind == opReg && in.a.width == 32
	if v := b.inits[x.Text]; w32 && (v < -(1<<31) || v >= 1<<32) {
		panic(errAt(in.mn.Pos, "%s: a 32-bit access to %s, whose initial value does not fit 32 bits, is not read (fencer does not model sizes)", in.mn.Text, x.Text))
	}
	if len(deps) > 0 && (in.kind == wRMW || in.kind == wCAS || in.kind == wLoadEx || in.kind == wStoreEx) {
		panic(errAt(m.tok.Pos, "an address dependency into %s is not read (the syntax tree has no address dependencies on atomic steps)", in.mn.Text))
	}
	return name, deps
}

// indexValues returns the values of the index register of the plain load
// or store in of thread th that address the location of its base or an
// element of its array, when the index's value is not known statically
// (dyn). weakInstr then reads the access as one branch per value (and an
// assert that fails for any other): each branch is the access with its
// address dependency on the index, and the branch is a control dependency
// on the index, which orders what the index depends on before the writes
// after the access, as herd's address dependency does (aarch64.cat's
// addr; [Exp]; po; [W], RVWMO's rule 13).
func (b *builder) indexValues(th int, in *winsn) (vals []int64, dyn bool) {
	m := in.mem
	if m.index == "" || isZeroReg(m.index) || in.kind != wLoad && in.kind != wStore {
		return nil, false
	}
	if _, ok := b.addr[th][m.index]; ok {
		return nil, false // weakMem says why not
	}
	if _, ok := b.ptr[th][m.index]; ok {
		return nil, false
	}
	if _, ok := b.staticValue(th, m.index, in.row, 0); ok {
		return nil, false
	}
	x, off := b.addrOf(th, m.base, m.bTok, in.row, 0)
	off += m.disp
	targets := []int64{0}
	if a, ok := b.arrays[x.Text]; ok {
		targets = targets[:0]
		for k := range a.elems {
			targets = append(targets, int64(k)*a.size)
		}
	}
	for _, t := range targets {
		if d := t - off; d%(int64(1)<<m.shift) == 0 {
			vals = append(vals, d>>m.shift)
		}
	}
	return vals, true
}

// indexSwitch is the statement of the access in of thread th whose index
// takes one of vals (indexValues): if (idx == v0) { access(v0) } else if
// ... else { assert(false); }.
func (b *builder) indexSwitch(th int, in *winsn, vals []int64, access func(idx *int64) cs.Stmt) cs.Stmt {
	off := in.istart
	at, last := in.at(), in.last()
	idx := b.regLocal(th, in.mem.index)
	var rest cs.Stmt = &cs.BlockStmt{Lbrace: at, List: []cs.Stmt{&cs.AssertStmt{Assert: at, X: &cs.BoolLit{ValuePos: at, Value: false}, Semi: last}}, Rbrace: last}
	for i := len(vals) - 1; i >= 0; i-- {
		v := vals[i]
		rest = &cs.IfStmt{If: at, Cond: bin(ident(idx, in.mem.iTok.Pos), cs.EQL, intLit(v, off), off),
			Then: &cs.BlockStmt{Lbrace: at, List: []cs.Stmt{access(&v)}, Rbrace: last},
			Else: &cs.BlockStmt{Lbrace: at, List: []cs.Stmt{rest}, Rbrace: last}}
	}
	if blk, ok := rest.(*cs.BlockStmt); ok {
		return blk
	}
	return rest
}

// Positions of an instruction's statement: it spans [istart, end), from
// at to last; inner ones (in atomic steps) span its first character.
func (in *winsn) at() cs.Pos   { return cs.PosAt(in.istart) }
func (in *winsn) last() cs.Pos { return cs.PosAt(in.cell.end - 1) }

// inner is an assignment inside the atomic step of instruction in.
func inner(in *winsn, lhs *cs.Ident, rhs cs.Expr) *cs.AssignStmt {
	lhs.NamePos = in.at()
	return &cs.AssignStmt{Lhs: lhs, TokPos: in.at(), Rhs: rhs, Semi: in.at()}
}

// weakInstr gives the statement of instruction in of thread th. It spans
// the instruction, and so do the statements inside it (the bodies of an
// if), so that every point of the instruction is the point before or
// after its row (cs merges the sites of statements with one span); the
// statements inside an atomic step have no points.
func (b *builder) weakInstr(th int, in *winsn) cs.Stmt {
	off := in.istart
	at, last := in.at(), in.last()
	// full is the one assignment of the instruction.
	full := func(lhs *cs.Ident, rhs cs.Expr) *cs.AssignStmt {
		lhs.NamePos = at
		return &cs.AssignStmt{Lhs: lhs, TokPos: at, Rhs: rhs, Semi: last}
	}
	switch in.kind {
	case wLabel, wNop:
		return &cs.SkipStmt{Skip: at, Semi: last}
	case wFence:
		s := &cs.FenceStmt{Fence: at, Kind: in.fence, Semi: last}
		if in.fence != cs.FullFence {
			s.StorePos = at
		}
		return s
	case wJump:
		return &cs.GotoStmt{Goto: at, Label: b.target(th, operand{tok: in.target}), Semi: last}
	case wBranch:
		var c cs.Expr
		var x, y cs.Expr
		if in.flags {
			x, y = ident(b.cmpLocal(th, in), off), intLit(0, off)
		} else {
			x, y = b.wval(th, in.a), b.wval(th, in.b)
		}
		op := map[string]cs.Token{"EQ": cs.EQL, "NE": cs.NEQ, "LT": cs.LSS, "GE": cs.GEQ, "GT": cs.GTR, "LE": cs.LEQ}[in.cond]
		c = bin(x, op, y, off)
		// if (c) { goto L; } else { }: both blocks end where the
		// instruction does.
		jump := &cs.GotoStmt{Goto: at, Label: b.target(th, operand{tok: in.target}), Semi: last}
		return &cs.IfStmt{If: at, Cond: c, Then: &cs.BlockStmt{Lbrace: at, List: []cs.Stmt{jump}, Rbrace: last},
			Else: &cs.BlockStmt{Lbrace: at, Rbrace: last}}
	case wCmp:
		return full(ident(b.cmpLocal(th, in), off), bin(b.wval(th, in.a), cs.SUB, b.wval(th, in.b), off))
	case wCSel:
		if in.move {
			return full(b.wdst(th, in.dst, off), b.wval(th, in.a))
		}
		// if (flags hold) { dst = a; } else { dst = b (+ 1); } (checkCSel
		// says why this says what herd says)
		els := b.wval(th, in.b)
		if in.inc {
			els = bin(els, cs.ADD, intLit(1, off), off)
		}
		op := map[string]cs.Token{"EQ": cs.EQL, "NE": cs.NEQ, "LT": cs.LSS, "GE": cs.GEQ, "GT": cs.GTR, "LE": cs.LEQ}[in.cond]
		return &cs.IfStmt{If: at, Cond: bin(ident(b.cmpLocal(th, in), off), op, intLit(0, off), off),
			Then: &cs.BlockStmt{Lbrace: at, List: []cs.Stmt{full(b.wdst(th, in.dst, off), b.wval(th, in.a))}, Rbrace: last},
			Else: &cs.BlockStmt{Lbrace: at, List: []cs.Stmt{full(b.wdst(th, in.dst, off), els)}, Rbrace: last}}
	case wMove:
		return full(b.wdst(th, in.dst, off), b.wval(th, in.a))
	case wAddr:
		// The address is static (addrOf); the register's local carries
		// the registers it was computed from, for address dependencies.
		var e cs.Expr = intLit(0, off)
		if in.sym == nil {
			if b.ptrDeps(th, in.a.reg, 0) {
				e = ident(b.regLocal(th, in.a.reg), in.a.tok.Pos)
			}
			if in.b.kind == opReg && !isZeroReg(in.b.reg) && b.written[th][in.b.reg] {
				y := b.wval(th, in.b)
				if _, isLit := e.(*cs.IntLit); isLit {
					e = y
				} else {
					e = bin(e, cs.ADD, y, off)
				}
			}
		}
		return full(ident(b.regLocal(th, in.dst.reg), off), e)
	case wALU:
		s := b.alu(th, in)
		if !in.flags || isZeroReg(in.dst.reg) && in.dst.kind == opReg {
			if in.flags {
				// SUBS XZR, ... is CMP.
				return full(ident(b.cmpLocal(th, in), off), bin(b.wval(th, in.a), map[string]cs.Token{"ADD": cs.ADD, "SUB": cs.SUB}[in.alu], b.wval(th, in.b), off))
			}
			return s
		}
		// ADDS, SUBS: the flags compare the result with 0.
		set := full(ident(b.cmpLocal(th, in), off), ident(b.regLocal(th, in.dst.reg), off))
		return &cs.BlockStmt{Lbrace: at, List: []cs.Stmt{s, set}, Rbrace: last}
	case wLoad, wLoadEx, wStore:
		access := func(idx *int64) cs.Stmt {
			x, deps := b.weakMemAt(th, in, idx)
			var s *cs.AssignStmt
			if in.kind == wStore {
				s = full(ident(x, off), b.wval(th, in.a))
				b.checkAnn(in, cs.OpWrite)
			} else {
				s = full(b.wdst(th, in.dst, off), ident(x, in.mem.tok.Pos))
				b.checkAnn(in, cs.OpRead)
			}
			s.Ann, s.AnnPos, s.AddrDeps = in.ann, at, deps
			return s
		}
		if vals, dyn := b.indexValues(th, in); dyn {
			return b.indexSwitch(th, in, vals, access)
		}
		return access(nil)
	case wStoreEx:
		// Not paired: it fails (status 1) and writes nothing.
		b.weakMem(th, in)
		return full(b.wdst(th, in.dst, off), intLit(1, off))
	case wRMW:
		x, _ := b.weakMem(th, in)
		switch in.rmw {
		case "SWP", "ADD":
			fn := map[string]string{"SWP": "swap", "ADD": "fetch_add"}[in.rmw]
			var dst *cs.Ident
			if in.dst.kind == 0 {
				dst = ident(b.tmp(th, "zero").Name, off)
			} else {
				dst = b.wdst(th, in.dst, off)
			}
			call := &cs.CallExpr{Fun: ident(fn, in.mn.Pos), Lparen: at, Args: []cs.Expr{ident(x, in.mem.tok.Pos), b.wval(th, in.a)}, Rparen: last}
			s := full(dst, call)
			s.Ann = in.ann
			return s
		}
		old := ident(b.tmp(th, "rmw_old").Name, off)
		body := []cs.Stmt{inner(in, old, ident(x, in.mem.tok.Pos))}
		body = append(body, b.rmwWrite(th, in, x, ident(old.Name, off), b.wval(th, in.a))...)
		if in.dst.kind == opReg && !isZeroReg(in.dst.reg) {
			body = append(body, inner(in, b.wdst(th, in.dst, off), ident(old.Name, off)))
		}
		return &cs.AtomicStmt{Atomic: at, Ann: in.ann, Body: &cs.BlockStmt{Lbrace: at, List: body, Rbrace: last}}
	case wCAS:
		x, _ := b.weakMem(th, in)
		old := ident(b.tmp(th, "cas_old").Name, off)
		var then cs.Stmt = inner(in, ident(x, off), b.wval(th, in.b))
		cas := &cs.IfStmt{If: at, Cond: bin(ident(old.Name, off), cs.EQL, b.wval(th, in.a), off)}
		if !isZeroReg(in.a.reg) {
			// Rs takes the value read on both paths, or when the CAS
			// swaps also keeps its value (checkCAS says why)
			var rs cs.Stmt = inner(in, b.wdst(th, in.a, off), ident(old.Name, off))
			if in.rsBoth {
				rs = &cs.IfStmt{If: at, Cond: &cs.StarExpr{Star: at}, Then: &cs.BlockStmt{Lbrace: at, List: []cs.Stmt{rs}, Rbrace: at}, Else: &cs.BlockStmt{Lbrace: at, Rbrace: at}}
			}
			then = &cs.BlockStmt{Lbrace: at, List: []cs.Stmt{then, rs}, Rbrace: last}
			cas.Else = inner(in, b.wdst(th, in.a, off), ident(old.Name, off))
		}
		cas.Then = then
		read := inner(in, old, ident(x, in.mem.tok.Pos))
		if in.ann&cs.Release != 0 {
			// A CAS that fails writes nothing, so its release orders
			// nothing in herd: its own step, without the release.
			var fail cs.Stmt = &cs.BlockStmt{Lbrace: at, Rbrace: at}
			if cas.Else != nil {
				fail = cas.Else
			}
			eq := func() cs.Expr { return bin(ident(old.Name, off), cs.EQL, b.wval(th, in.a), off) }
			swaps := []cs.Stmt{inner(in, ident(old.Name, off), ident(x, in.mem.tok.Pos)), &cs.AssumeStmt{Assume: at, X: eq(), Semi: at}, then}
			fails := []cs.Stmt{read, &cs.AssumeStmt{Assume: at, X: &cs.UnaryExpr{OpPos: at, Op: cs.NOT, X: &cs.ParenExpr{Lparen: at, X: eq(), Rparen: at}}, Semi: at}, fail}
			return splitRelease(at, last, in.ann, in.ann&^cs.Release, swaps, fails)
		}
		body := []cs.Stmt{read, cas}
		return &cs.AtomicStmt{Atomic: at, Ann: in.ann, Body: &cs.BlockStmt{Lbrace: at, List: body, Rbrace: last}}
	}
	panic(errAt(in.mn.Pos, "internal error: instruction %s", in.mn.Text))
}

// cmpLocal is the local that holds a - b of the last CMP of thread th
// (AArch64's flags, read by B.cond and CSEL). It starts at 1: herd's
// NZCV starts at 0, where NE, GE and GT hold and EQ, LT and LE do not, as
// for a - b = 1.
func (b *builder) cmpLocal(th int, in *winsn) string {
	b.inits[fmt.Sprintf("%d:\x00cmp", th)] = 1
	return b.tmp(th, "cmp").Name
}

// alu is the statement of a register operation: dst = a op b<<shift. EOR
// and SUB of a register with itself are r - r (0, and a dependency on r);
// AND with 0 is r * 0; EOR, ORR and AND of other values are computed on 8
// bits when both are in [0, 255] (checked: an assert fails otherwise).
func (b *builder) alu(th int, in *winsn) cs.Stmt {
	off := in.istart
	at, last := in.at(), in.last()
	x := b.wval(th, in.a)
	y := b.wval(th, in.b)
	if in.shift != 0 {
		y = bin(y, cs.MUL, intLit(int64(1)<<in.shift, off), off)
	}
	dst := b.wdst(th, in.dst, off)
	dst.NamePos = at
	assign := func(rhs cs.Expr) cs.Stmt { return &cs.AssignStmt{Lhs: dst, TokPos: at, Rhs: rhs, Semi: last} }
	same := in.a.kind == opReg && in.b.kind == opReg && in.a.reg == in.b.reg && in.shift == 0
	switch in.alu {
	case "ADD":
		return assign(bin(x, cs.ADD, y, off))
	case "SUB":
		return assign(bin(x, cs.SUB, y, off))
	}
	switch {
	case same && in.alu == "EOR":
		return assign(bin(x, cs.SUB, y, off))
	case same:
		return assign(x)
	case in.alu == "AND" && in.b.kind == opImm && in.b.value == 0:
		return assign(bin(x, cs.MUL, intLit(0, off), off))
	case in.alu != "AND" && in.b.kind == opImm && in.b.value == 0:
		return assign(bin(x, cs.ADD, intLit(0, off), off))
	}
	if in.b.kind == opImm && (in.b.value < 0 || in.b.value > 255) {
		panic(errAt(in.b.tok.Pos, "%s with an immediate outside [0, 255] is not read (bitwise operations are computed on 8 bits)", in.mn.Text))
	}
	// atomic { assert(in range); } dst = x op y;: the check inside an
	// atomic step with no access is no branch of the thread, so it is no
	// control dependency on x and y (herd's EOR, ORR, AND give none; an if
	// would order their reads before every later write).
	check := &cs.AtomicStmt{Atomic: at, Ann: cs.Relaxed, Body: &cs.BlockStmt{Lbrace: at,
		List: []cs.Stmt{&cs.AssertStmt{Assert: at, X: inByte(b.wval(th, in.a), b.wval(th, in.b), off), Semi: last}}, Rbrace: last}}
	return &cs.BlockStmt{Lbrace: at, List: []cs.Stmt{check, assign(bitwise(in.alu, x, y, off))}, Rbrace: last}
}

// inByte is 0 <= x <= 255 && 0 <= y <= 255.
func inByte(x, y cs.Expr, off int) cs.Expr {
	in := func(e cs.Expr) cs.Expr {
		return bin(bin(intLit(0, off), cs.LEQ, e, off), cs.LAND, bin(e, cs.LEQ, intLit(255, off), off), off)
	}
	return bin(in(x), cs.LAND, in(y), off)
}

// bitwise is x op y on 8 bits, op EOR, ORR or AND (and CLR: x and not y),
// for x and y in [0, 255].
func bitwise(op string, x, y cs.Expr, off int) cs.Expr {
	var sum cs.Expr
	for i := 0; i < 8; i++ {
		p := int64(1) << i
		bit := func(e cs.Expr) cs.Expr {
			return &cs.ParenExpr{Lparen: cs.PosAt(off), X: bin(bin(e, cs.QUO, intLit(p, off), off), cs.REM, intLit(2, off), off), Rparen: cs.PosAt(off)}
		}
		var r cs.Expr
		switch op {
		case "EOR":
			r = bin(bin(bit(x), cs.ADD, bit(y), off), cs.REM, intLit(2, off), off)
		case "ORR":
			r = bin(bin(bin(bit(x), cs.ADD, bit(y), off), cs.ADD, intLit(1, off), off), cs.QUO, intLit(2, off), off)
		case "AND":
			r = bin(bit(x), cs.MUL, bit(y), off)
		case "CLR":
			r = bin(bit(x), cs.MUL, &cs.ParenExpr{Lparen: cs.PosAt(off), X: bin(intLit(1, off), cs.SUB, bit(y), off), Rparen: cs.PosAt(off)}, off)
		}
		term := bin(intLit(p, off), cs.MUL, &cs.ParenExpr{Lparen: cs.PosAt(off), X: r, Rparen: cs.PosAt(off)}, off)
		if sum == nil {
			sum = term
		} else {
			sum = bin(sum, cs.ADD, term, off)
		}
	}
	return sum
}

// rmwWrite is the write of a read-modify-write other than SWP and ADD
// (inside its atomic step): x = op(old, v).
func (b *builder) rmwWrite(th int, in *winsn, x string, old, v cs.Expr) []cs.Stmt {
	off := in.istart
	at := in.at()
	write := func(rhs cs.Expr) cs.Stmt { return inner(in, ident(x, off), rhs) }
	switch in.rmw {
	case "SMAX", "SMIN":
		op := cs.GTR
		if in.rmw == "SMIN" {
			op = cs.LSS
		}
		return []cs.Stmt{&cs.IfStmt{If: at, Cond: bin(v, op, old, off), Then: write(v), Else: write(old)}}
	}
	op := map[string]string{"EOR": "EOR", "SET": "ORR", "AND": "AND", "CLR": "CLR"}[in.rmw]
	return []cs.Stmt{&cs.IfStmt{If: at, Cond: inByte(old, v, off), Then: write(bitwise(op, old, v, off)),
		Else: &cs.AssertStmt{Assert: at, X: &cs.BoolLit{ValuePos: at, Value: false}, Semi: at}}}
}

// exclusivePair is the statement of a load-exclusive ins[0], the register
// instructions between, and its store-exclusive ins[len-1]: one atomic
// step that reads, runs those instructions, and then either writes (the
// store succeeds: status 0) or not (it fails: status 1), as herd has
// both. It spans the rows of the pair: its points are before the load
// and after the store.
func (b *builder) exclusivePair(th int, ins []winsn) cs.Stmt {
	ld, st := &ins[0], &ins[len(ins)-1]
	xl, _ := b.weakMem(th, ld)
	xs, _ := b.weakMem(th, st)
	if xl != xs {
		panic(errAt(st.mem.tok.Pos, "%s writes %s, not %s, which its load-exclusive reads: not read", st.mn.Text, xs, xl))
	}
	off := ld.istart
	at := ld.at()
	// Two instructions, each with its order (cs.Pair: a RISC-V lr.aq and
	// sc.rl do not share their orders as an AMO's one event does); an
	// .aqrl on either orders the pair both ways, as one event.
	ann := ld.ann&cs.Acquire | st.ann&cs.Release | cs.Pair
	if ld.ann&cs.Release != 0 || st.ann&cs.Acquire != 0 {
		ann = cs.Acquire | cs.Release // RISC-V's .aqrl
	}
	if ann == cs.Pair {
		ann = cs.Relaxed | cs.Pair
	}
	// body is the load, the instructions between, then path.
	body := func(path []cs.Stmt) []cs.Stmt {
		list := []cs.Stmt{inner(ld, b.wdst(th, ld.dst, off), ident(xl, ld.mem.tok.Pos))}
		for i := 1; i < len(ins)-1; i++ {
			if ins[i].kind != wEmpty {
				list = append(list, b.weakInstr(th, &ins[i]))
			}
		}
		return append(list, path...)
	}
	sat := st.at()
	ok := func() []cs.Stmt {
		return []cs.Stmt{inner(st, ident(xs, st.istart), b.wval(th, st.a)), inner(st, b.wdst(th, st.dst, st.istart), intLit(0, st.istart))}
	}
	fail := func() []cs.Stmt { return []cs.Stmt{inner(st, b.wdst(th, st.dst, st.istart), intLit(1, st.istart))} }
	if st.ann&cs.Release != 0 && ld.ann&cs.Release == 0 && st.ann&cs.Acquire == 0 {
		// The release is the store's: a failed store writes nothing, so
		// it orders nothing in herd (splitRelease).
		return splitRelease(at, st.last(), ann, ld.ann&cs.Acquire, body(ok()), body(fail()))
	}
	list := body([]cs.Stmt{&cs.IfStmt{If: sat, Cond: &cs.StarExpr{Star: sat},
		Then: &cs.BlockStmt{Lbrace: sat, List: ok(), Rbrace: sat},
		Else: &cs.BlockStmt{Lbrace: sat, List: fail(), Rbrace: sat}}})
	return &cs.AtomicStmt{Atomic: at, Ann: ann, Body: &cs.BlockStmt{Lbrace: at, List: list, Rbrace: st.last()}}
}

// splitRelease is the statement of an atomic instruction in with order
// ann whose write may not happen (a CAS that fails, a store-exclusive that
// fails): if (*) atomic(ann) { writes... } else atomic(ann without its
// release) { fails... }. The release of a step orders what comes before
// it with its write only; a path without write has none in herd.
func splitRelease(at, last cs.Pos, ann, failAnn cs.Ann, writes, fails []cs.Stmt) cs.Stmt {
	if failAnn&^(cs.Relaxed|cs.NoRet) == 0 {
		failAnn = cs.Relaxed | failAnn&cs.NoRet
	}
	step := func(a cs.Ann, list []cs.Stmt) *cs.BlockStmt {
		return &cs.BlockStmt{Lbrace: at, List: []cs.Stmt{&cs.AtomicStmt{Atomic: at, Ann: a, Body: &cs.BlockStmt{Lbrace: at, List: list, Rbrace: last}}}, Rbrace: last}
	}
	return &cs.IfStmt{If: at, Cond: &cs.StarExpr{Star: at}, Then: step(ann, writes), Else: step(failAnn, fails)}
}

// checkAnn refuses an annotation that package cs cannot lower on an access
// of kind k (annotatable).
func (b *builder) checkAnn(in *winsn, k cs.OpKind) {
	if in.ann == 0 || annotatable(k, in.ann) {
		return
	}
	panic(errAt(in.mn.Pos, "%s is not read yet: package cs does not lower a %s annotated %s (cs.AssignStmt.Ann)", in.mn.Text, map[cs.OpKind]string{cs.OpRead: "read", cs.OpWrite: "write"}[k], in.ann))
}

var (
	annMu sync.Mutex
	annOK = map[[2]int]bool{}
)

// annotatable reports whether package cs lowers a read (k OpRead) or a
// write annotated ann: it lowers a tiny program with one and looks.
func annotatable(k cs.OpKind, ann cs.Ann) bool {
	annMu.Lock()
	defer annMu.Unlock()
	key := [2]int{int(k), int(ann)}
	if ok, done := annOK[key]; done {
		return ok
	}
	src := []byte("shared x; process P { local r; r = x; }")
	file := cs.NewFile("probe.cs", src)
	var s *cs.AssignStmt
	if k == cs.OpRead {
		s = &cs.AssignStmt{Lhs: ident("r", 31), TokPos: cs.PosAt(33), Rhs: ident("x", 35), Semi: cs.PosAt(36), Ann: ann, AnnPos: cs.PosAt(31)}
	} else {
		s = &cs.AssignStmt{Lhs: ident("x", 31), TokPos: cs.PosAt(33), Rhs: intLit(1, 35), Semi: cs.PosAt(36), Ann: ann, AnnPos: cs.PosAt(31)}
	}
	prog := &cs.Program{Decls: []cs.Decl{
		&cs.VarsDecl{Keyword: cs.PosAt(0), Tok: cs.SHARED, Specs: []*cs.VarSpec{{Name: ident("x", 7)}}, Semi: cs.PosAt(8)},
		&cs.ProcDecl{Process: cs.PosAt(10), Name: ident("P", 18), Body: &cs.BlockStmt{Lbrace: cs.PosAt(20), Rbrace: cs.PosAt(38), List: []cs.Stmt{
			&cs.DeclStmt{Decl: &cs.VarsDecl{Keyword: cs.PosAt(22), Tok: cs.LOCAL, Specs: []*cs.VarSpec{{Name: ident("r", 28)}}, Semi: cs.PosAt(29)}},
			s,
		}}},
	}}
	sys, err := cs.Lower(file, prog)
	ok := false
	if err == nil {
		for _, e := range sys.Procs[0].Edges {
			if e.Op.Kind == k && e.Op.Ann == ann {
				ok = true
			}
		}
	}
	annOK[key] = ok
	return ok
}
