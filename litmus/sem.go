package litmus

import (
	"strconv"

	"fencer/cs"
)

// This file gives each instruction its statements, with herd's semantics
// of X86 and X86_64 (herd/X86Sem.ml, X86_64Sem.ml of herdtools7):
//
//   - a memory destination of MOV, SETNB, and of ADD, SUB, XOR, OR, INC,
//     DEC without LOCK, is a buffered write and a fence site (its text the
//     instruction); ADD, ... without LOCK read first, then write: two
//     steps another thread may come between. With LOCK (and XCHG, always
//     locked) the read and the write are one atomic step.
//   - the flags are locals ZF, SF and CF, kept only in threads that read
//     them (a jump, CMOVC, SETNB). As in herd, CMP a,b sets ZF to a = b, SF
//     to a > b and CF to 0; ADD, SUB, XOR, OR set them from the result r
//     (r = 0, r > 0, 0); INC and DEC set ZF and SF. JE jumps when ZF is
//     set, JNE when not, JMP always; X86_64's JS, JNS, JGT, JLE, JGE, JLT
//     test SF (and ZF) as herd does; LOCK CMPXCHG sets ZF when it
//     exchanged. CMOVC r,src moves when CF is set;
//     SETNB d writes 1 - CF.
//   - values are integers: operand sizes are not modelled (no
//     truncation). A negative immediate written to a register narrower
//     than 64 bits (where herd would zero- or sign-extend) is refused, as
//     is an immediate that does not fit the instruction's size. XOR, OR
//     and AND of two different values are computed bit by bit on 8 bits,
//     after an assert that both are in [0, 255] (a run that leaves the
//     range is reported, never answered wrongly). SHL (X86_64) shifts by a
//     constant count k in [0, 62] only: x * 2^k.
//   - X86_64's ENDBR64 is a NOP; RET ends the thread (a goto to the end of
//     its instructions, before the outcome's statements), as herd's
//     telechat variant, which reads RIP and exits when it holds no label.

// tmp returns a fencer-made local of thread th (not a register of the
// test: the condition cannot name it).
func (b *builder) tmp(th int, name string) *cs.Ident {
	key := "\x00" + name
	if n, ok := b.regs[th][key]; ok {
		return ident(n, 0)
	}
	taken := map[string]bool{}
	for k := range b.taken {
		taken[k] = true
	}
	for _, v := range b.regs[th] {
		taken[v] = true
	}
	n := fresh(name, taken)
	b.regs[th][key] = n
	return ident(n, 0)
}

// flag returns the local of flag f (ZF, SF, CF) of thread th.
func (b *builder) flag(th int, f string, off int) *cs.Ident {
	id := b.tmp(th, f)
	id.NamePos = cs.PosAt(off)
	return id
}

// setBool is "if (cond) x = 1; else x = 0;".
func setBool(x *cs.Ident, cond cs.Expr, off int) cs.Stmt {
	at := cs.PosAt(off)
	x.NamePos = at
	return &cs.IfStmt{If: at, Cond: cond,
		Then: &cs.AssignStmt{Lhs: x, TokPos: at, Rhs: intLit(1, off), Semi: at},
		Else: &cs.AssignStmt{Lhs: ident(x.Name, off), TokPos: at, Rhs: intLit(0, off), Semi: at}}
}

// flagsOf sets ZF, SF (and CF to 0 when cf) of thread th from a compared
// with c, when the thread reads its flags.
func (b *builder) flagsOf(th int, a, c cs.Expr, cf bool, off int) []cs.Stmt {
	if !b.flagsRead[th] {
		return nil
	}
	out := []cs.Stmt{
		setBool(b.flag(th, "ZF", off), bin(a, cs.EQL, c, off), off),
		setBool(b.flag(th, "SF", off), bin(a, cs.GTR, c, off), off),
	}
	if cf {
		at := cs.PosAt(off)
		out = append(out, &cs.AssignStmt{Lhs: b.flag(th, "CF", off), TokPos: at, Rhs: intLit(0, off), Semi: at})
	}
	return out
}

// value is the value of an immediate or register operand.
func (b *builder) value(th int, in *insn, o operand) cs.Expr {
	switch o.kind {
	case opImm:
		if in.size > 0 && in.size < 64 && (o.value < -(1<<(in.size-1)) || o.value >= 1<<in.size) {
			panic(errAt(o.tok.Pos, "$%d does not fit the %d bits of %s", o.value, in.size, in.mn.Text))
		}
		return intLit(o.value, o.tok.Pos)
	case opReg:
		return b.regUse(th, o)
	}
	panic(errAt(o.tok.Pos, "%s: at most one memory operand", in.mn.Text))
}

// regUse is the local of register operand o, refusing a register that
// holds an address (fencer has no addresses as values).
func (b *builder) regUse(th int, o operand) *cs.Ident {
	if x, ok := b.addr[th][o.reg]; ok {
		panic(errAt(o.tok.Pos, "%s holds the address of %s: an address is only read as a memory operand ([%s]), not as a value", o.reg, x.Text, o.reg))
	}
	return ident(b.regLocal(th, o.reg), o.tok.Pos)
}

// regDef is the register operand o as a destination.
func (b *builder) regDef(th int, in *insn, o operand) *cs.Ident {
	if o.kind != opReg {
		panic(errAt(o.tok.Pos, "%s: expected a register operand", in.mn.Text))
	}
	return b.regUse(th, o)
}

// checkRegWrite refuses a negative value written to a register narrower
// than 64 bits (herd extends it; fencer has no sizes).
func checkRegWrite(d dialect, dst, src operand) {
	if d == att && dst.kind == opReg && dst.width < 64 && src.kind == opImm && src.value < 0 {
		panic(errAt(src.tok.Pos, "a negative value in a %d-bit register is not read (herd extends it to 64 bits; fencer does not model sizes)", dst.width))
	}
}

// instr gives the statements of instruction in of thread th (row row).
func (b *builder) instr(th, row int, in *insn) []cs.Stmt {
	c := in.cell
	off := c.start
	pos := cs.PosAt(off)
	semi := cs.PosAt(c.end - 1)
	if in.label != nil {
		return []cs.Stmt{&cs.LabeledStmt{Label: ident(b.labelName(th, *in.label, true), in.label.Pos), Colon: pos, Stmt: &cs.SkipStmt{Skip: pos, Semi: semi}}}
	}
	mn := in.mn
	op := in.op
	ops := in.ops
	want := func(n int) {
		if len(ops) != n {
			panic(errAt(mn.Pos, "%s takes %d operands, not %d", mn.Text, n, len(ops)))
		}
	}
	if in.locked {
		switch op {
		case "XCHG", "XADD", "CMPXCHG", "INC", "DEC", "ADD", "SUB", "XOR", "OR", "AND":
		default:
			panic(errAt(mn.Pos, "LOCK %s is not read (LOCK XCHG, XADD, CMPXCHG, INC, DEC, ADD, SUB, XOR, OR and AND are)", mn.Text))
		}
		if len(ops) == 0 || ops[0].kind != opMem {
			panic(errAt(mn.Pos, "LOCK %s needs a memory destination", mn.Text))
		}
	}
	// assign is a statement of the instruction that is not its write: it
	// spans the instruction's first character only, so that its points are
	// not those of the write (cs keys a point by the statement's span).
	assign := func(lhs cs.Expr, rhs cs.Expr) *cs.AssignStmt {
		if id, ok := lhs.(*cs.Ident); ok {
			id.NamePos = pos
		}
		return &cs.AssignStmt{Lhs: lhs, TokPos: pos, Rhs: rhs, Semi: pos}
	}
	// full is the one statement of an instruction without a write.
	full := func(lhs *cs.Ident, rhs cs.Expr) cs.Stmt {
		return &cs.AssignStmt{Lhs: lhs, TokPos: pos, Rhs: rhs, Semi: semi}
	}
	// write is the buffered write of in: its statement spans the
	// instruction, so that its fence site reads as the instruction.
	write := func(x string, rhs cs.Expr) cs.Stmt {
		b.sites[c.start] = [2]int{th, row}
		return &cs.AssignStmt{Lhs: ident(x, off), TokPos: pos, Rhs: rhs, Semi: semi}
	}
	switch op {
	case "NOP", "LFENCE", "ENDBR64":
		// LFENCE: loads are never reordered with loads in TSO and PSO.
		// ENDBR64 (a branch target mark) is a NOP for herd.
		return []cs.Stmt{&cs.SkipStmt{Skip: pos, Semi: semi}}
	case "RET":
		// herd (telechat variant): a return with no caller ends the
		// thread; the code after it runs only when a jump reaches it.
		want(0)
		return []cs.Stmt{&cs.GotoStmt{Goto: pos, Label: ident(b.retLabel[th], off), Semi: semi}}
	case "MFENCE":
		want(0)
		return []cs.Stmt{&cs.FenceStmt{Fence: pos, Semi: semi}}
	case "SFENCE":
		// A store-store fence (nothing under TSO).
		want(0)
		return []cs.Stmt{&cs.FenceStmt{Fence: pos, Kind: cs.StoreFence, StorePos: pos, Semi: semi}}
	case "JMP":
		return []cs.Stmt{&cs.GotoStmt{Goto: pos, Label: b.target(th, ops[0]), Semi: semi}}
	case "JE", "JNE", "JS", "JNS", "JGT", "JLE", "JGE", "JLT":
		zf := func() cs.Expr { return b.flag(th, "ZF", off) }
		sf := func() cs.Expr { return b.flag(th, "SF", off) }
		set := func(f cs.Expr) cs.Expr { return bin(f, cs.NEQ, intLit(0, off), off) }
		clear := func(f cs.Expr) cs.Expr { return bin(f, cs.EQL, intLit(0, off), off) }
		cond := map[string]func() cs.Expr{
			"JE":  func() cs.Expr { return set(zf()) },
			"JNE": func() cs.Expr { return clear(zf()) },
			"JS":  func() cs.Expr { return set(sf()) },
			"JGT": func() cs.Expr { return set(sf()) },
			"JNS": func() cs.Expr { return clear(sf()) },
			"JLE": func() cs.Expr { return clear(sf()) },
			"JGE": func() cs.Expr { return bin(set(zf()), cs.LOR, set(sf()), off) },
			"JLT": func() cs.Expr { return bin(set(zf()), cs.LOR, clear(sf()), off) },
		}[op]()
		return []cs.Stmt{&cs.IfStmt{If: pos, Cond: cond, Then: &cs.GotoStmt{Goto: pos, Label: b.target(th, ops[0]), Semi: semi}}}
	case "MOV":
		want(2)
		d, s := ops[0], ops[1]
		checkRegWrite(b.t.arch, d, s)
		if d.kind == opMem {
			x := b.memOperand(th, d)
			return []cs.Stmt{write(x, b.value(th, in, s))}
		}
		r := b.regDef(th, in, d)
		if s.kind == opMem {
			return []cs.Stmt{full(r, ident(b.memOperand(th, s), s.tok.Pos))}
		}
		return []cs.Stmt{full(r, b.value(th, in, s))}
	case "CMP":
		want(2)
		var out []cs.Stmt
		a := b.readOperand(th, in, ops[0], &out)
		v := b.readOperand(th, in, ops[1], &out)
		return append(out, b.flagsOf(th, a, v, true, off)...)
	case "CMOVC":
		want(2)
		r := b.regDef(th, in, ops[0])
		var then []cs.Stmt
		v := b.readOperand(th, in, ops[1], &then)
		then = append(then, assign(r, v))
		return []cs.Stmt{&cs.IfStmt{If: pos, Cond: bin(b.flag(th, "CF", off), cs.NEQ, intLit(0, off), off),
			Then: &cs.BlockStmt{Lbrace: pos, List: then, Rbrace: semi}}}
	case "SETNB":
		want(1)
		v := bin(intLit(1, off), cs.SUB, b.flag(th, "CF", off), off)
		if ops[0].kind == opMem {
			return []cs.Stmt{write(b.memOperand(th, ops[0]), v)}
		}
		return []cs.Stmt{full(b.regDef(th, in, ops[0]), v)}
	case "INC", "DEC", "ADD", "SUB", "XOR", "OR", "AND", "SHL":
		var src operand
		if op == "INC" || op == "DEC" {
			want(1)
			src = operand{kind: opImm, tok: mn, value: 1}
		} else {
			want(2)
			src = ops[1]
		}
		d := ops[0]
		checkRegWrite(b.t.arch, d, src)
		if op == "SHL" {
			checkShift(in, src)
		}
		cf := op != "INC" && op != "DEC"
		if d.kind == opReg {
			r := b.regDef(th, in, d)
			var out []cs.Stmt
			switch {
			case op == "XOR" && src.kind == opReg && src.reg == d.reg:
				// XOR r,r: zero, whatever r holds.
				out = append(out, assign(r, intLit(0, off)))
			case (op == "AND" || op == "OR") && src.kind == opReg && src.reg == d.reg:
				// AND r,r and OR r,r: r, whatever it holds (only the
				// flags change).
			default:
				v := b.readOperand(th, in, src, &out)
				out = append(out, b.arith(th, op, ident(r.Name, off), v, off)...)
				out = append(out, assign(r, b.result(th, op, ident(r.Name, off), v, off)))
			}
			return append(out, b.flagsOf(th, ident(r.Name, off), intLit(0, off), cf, off)...)
		}
		x := b.memOperand(th, d)
		v := b.value(th, in, src)
		old := b.tmp(th, "rmw_old")
		old.NamePos = pos
		res := b.tmp(th, "rmw_new")
		body := []cs.Stmt{assign(old, ident(x, d.tok.Pos))}
		body = append(body, b.arith(th, op, ident(old.Name, off), v, off)...)
		body = append(body, assign(res, b.result(th, op, ident(old.Name, off), v, off)))
		var out []cs.Stmt
		if in.locked {
			body = append(body, assign(ident(x, d.tok.Pos), ident(res.Name, off)))
			out = []cs.Stmt{&cs.AtomicStmt{Atomic: pos, Body: &cs.BlockStmt{Lbrace: pos, List: body, Rbrace: semi}}}
		} else {
			// A read, then a write: not atomic.
			out = append(body, write(x, ident(res.Name, off)))
		}
		return append(out, b.flagsOf(th, ident(res.Name, off), intLit(0, off), cf, off)...)
	case "XCHG", "XADD":
		want(2)
		m, r := ops[0], ops[1]
		if op == "XCHG" && m.kind != opMem {
			m, r = r, m
		}
		if op == "XCHG" && m.kind == opReg {
			// Two registers: a local exchange.
			x, y := b.regDef(th, in, m), b.regDef(th, in, r)
			t := b.tmp(th, "xchg_tmp")
			return []cs.Stmt{assign(t, x), assign(ident(x.Name, off), y), assign(ident(y.Name, off), ident(t.Name, off))}
		}
		if op == "XADD" && !in.locked {
			panic(errAt(mn.Pos, "XADD without LOCK is not read; write LOCK XADD"))
		}
		if m.kind != opMem {
			panic(errAt(m.tok.Pos, "%s: expected a memory operand", mn.Text))
		}
		x, rr := b.memOperand(th, m), b.regDef(th, in, r)
		fn := "swap"
		if op == "XADD" {
			fn = "fetch_add"
		}
		call := &cs.CallExpr{Fun: ident(fn, mn.Pos), Lparen: pos, Args: []cs.Expr{ident(x, m.tok.Pos), ident(rr.Name, r.tok.Pos)}, Rparen: semi}
		return []cs.Stmt{full(rr, call)}
	case "CMPXCHG":
		want(2)
		if !in.locked {
			panic(errAt(mn.Pos, "CMPXCHG without LOCK is not read; write LOCK CMPXCHG"))
		}
		if ops[0].kind != opMem {
			panic(errAt(ops[0].tok.Pos, "%s: expected a memory operand", mn.Text))
		}
		x, r := b.memOperand(th, ops[0]), b.regDef(th, in, ops[1])
		acc := ident(b.regLocal(th, accumulator(b.t.arch)), mn.Pos)
		old := b.tmp(th, "cmpxchg_old")
		old.NamePos = pos
		body := []cs.Stmt{assign(old, ident(x, ops[0].tok.Pos))}
		if b.flagsRead[th] {
			// As herd: ZF says whether the exchange happens (compared
			// before EAX takes the value read).
			body = append(body, setBool(b.flag(th, "ZF", off), bin(ident(old.Name, off), cs.EQL, ident(acc.Name, off), off), off))
		}
		body = append(body, &cs.IfStmt{If: pos, Cond: bin(ident(old.Name, off), cs.EQL, acc, mn.Pos),
			Then: assign(ident(x, ops[0].tok.Pos), r),
			Else: assign(ident(acc.Name, mn.Pos), ident(old.Name, mn.Pos))})
		return []cs.Stmt{&cs.AtomicStmt{Atomic: pos, Body: &cs.BlockStmt{Lbrace: pos, List: body, Rbrace: semi}}}
	}
	panic(errAt(mn.Pos, "instruction %s is not read", mn.Text))
}

// readOperand is the value of o; a memory operand is read first into a
// local (one statement appended to out).
func (b *builder) readOperand(th int, in *insn, o operand, out *[]cs.Stmt) cs.Expr {
	if o.kind != opMem {
		return b.value(th, in, o)
	}
	t := b.tmp(th, "mem_"+strconv.Itoa(len(*out)))
	t.NamePos = cs.PosAt(in.cell.start)
	*out = append(*out, &cs.AssignStmt{Lhs: t, TokPos: cs.PosAt(in.cell.start), Rhs: ident(b.memOperand(th, o), o.tok.Pos), Semi: cs.PosAt(in.cell.start)})
	return ident(t.Name, in.cell.start)
}

// arith gives the statements that must come before the result of XOR, OR
// and AND: the assert that both operands are in [0, 255].
func (b *builder) arith(th int, op string, x, y cs.Expr, off int) []cs.Stmt {
	if op != "XOR" && op != "OR" && op != "AND" {
		return nil
	}
	in := func(e cs.Expr) cs.Expr {
		return bin(bin(intLit(0, off), cs.LEQ, e, off), cs.LAND, bin(e, cs.LEQ, intLit(255, off), off), off)
	}
	at := cs.PosAt(off)
	return []cs.Stmt{&cs.AssertStmt{Assert: at, X: bin(in(x), cs.LAND, in(y), off), Semi: at}}
}

// checkShift refuses a shift count that is not an immediate in [0, 62]:
// a shift by a register is no linear term, and herd masks larger counts
// to the operand's size, which fencer does not model.
func checkShift(in *insn, count operand) {
	if count.kind != opImm {
		panic(errAt(count.tok.Pos, "%s by a register or memory operand is not read: only a constant count (a shift by a variable amount is no linear term)", in.mn.Text))
	}
	if count.value < 0 || count.value > 62 {
		panic(errAt(count.tok.Pos, "%s by %d is not read: only counts 0 to 62 (herd masks larger counts to the operand's size, fencer does not model sizes)", in.mn.Text, count.value))
	}
}

// result is x op y: bit by bit on 8 bits for XOR, OR and AND (after
// arith's assert); SHL by a constant k (checkShift) is x * 2^k, on
// integers as ADD (no truncation to the operand's size).
func (b *builder) result(th int, op string, x, y cs.Expr, off int) cs.Expr {
	switch op {
	case "ADD", "INC":
		return bin(x, cs.ADD, y, off)
	case "SUB", "DEC":
		return bin(x, cs.SUB, y, off)
	case "SHL":
		k, ok := y.(*cs.IntLit)
		if !ok || k.Value < 0 || k.Value > 62 {
			panic(errAt(off, "SHL: the count is not a constant in [0, 62]"))
		}
		return bin(x, cs.MUL, intLit(int64(1)<<k.Value, off), off)
	}
	var sum cs.Expr
	for i := 0; i < 8; i++ {
		p := int64(1) << i
		bit := func(e cs.Expr) cs.Expr {
			return &cs.ParenExpr{Lparen: cs.PosAt(off), X: bin(bin(e, cs.QUO, intLit(p, off), off), cs.REM, intLit(2, off), off), Rparen: cs.PosAt(off)}
		}
		var r cs.Expr
		switch op {
		case "XOR":
			r = bin(bin(bit(x), cs.ADD, bit(y), off), cs.REM, intLit(2, off), off)
		case "AND":
			r = bin(bin(bit(x), cs.ADD, bit(y), off), cs.QUO, intLit(2, off), off)
		default:
			r = bin(bin(bin(bit(x), cs.ADD, bit(y), off), cs.ADD, intLit(1, off), off), cs.QUO, intLit(2, off), off)
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

// target is the label operand of a jump.
func (b *builder) target(th int, o operand) *cs.Ident {
	return ident(b.labelName(th, o.tok, false), o.tok.Pos)
}

// labelName is the .cs label of label l of thread th; def is set for the
// label's definition (a second definition is an error), else l must be
// defined in the thread.
func (b *builder) labelName(th int, l token, def bool) string {
	name, ok := b.labels[th][l.Text]
	if !ok {
		panic(errAt(l.Pos, "label %s is not defined in P%d", l.Text, th))
	}
	if def {
		if b.labelDone[th][l.Text] {
			panic(errAt(l.Pos, "label %s defined twice in P%d", l.Text, th))
		}
		b.labelDone[th][l.Text] = true
	}
	return name
}
