package litmus

import (
	"strconv"
	"strings"

	"fencer/cs"
)

// This file reads the cells of herd's RISCV dialect (lib/RISCVParser.mly,
// lib/RISCVLexer.mll and herd/RISCVSem.ml of herdtools7) into winsns
// (weak.go). Mnemonics and registers are read in any case.

// riscvRegs maps the names of the integer registers, x0 ... x31 and their
// ABI names, to x0 ... x31.
var riscvRegs = func() map[string]string {
	m := map[string]string{}
	abi := [][]string{{"zero"}, {"ra"}, {"sp"}, {"gp"}, {"tp"}, {"t0"}, {"t1"}, {"t2"}, {"s0", "fp"}, {"s1"},
		{"a0"}, {"a1"}, {"a2"}, {"a3"}, {"a4"}, {"a5"}, {"a6"}, {"a7"},
		{"s2"}, {"s3"}, {"s4"}, {"s5"}, {"s6"}, {"s7"}, {"s8"}, {"s9"}, {"s10"}, {"s11"},
		{"t3"}, {"t4"}, {"t5"}, {"t6"}}
	for i, names := range abi {
		x := "x" + strconv.Itoa(i)
		m[x] = x
		for _, n := range names {
			m[n] = x
		}
	}
	return m
}()

// riscvReg returns the register a name of RISC-V denotes (x0 is the zero
// register); the width is 64.
func riscvReg(name string) (string, int, bool) {
	r, ok := riscvRegs[strings.ToLower(name)]
	return r, 64, ok
}

// riscvOrder reads the .aq, .rl, .aqrl (.aq.rl) suffix of a load, a store,
// an AMO, lr or sc as herd's lexer does (lr.rl is relaxed, sc.aq too); ok is
// false for a suffix herd does not read.
func riscvOrder(sfx string, what string) (cs.Ann, bool) {
	var a cs.Ann
	switch sfx {
	case "":
		return 0, true
	case ".aq":
		a = cs.Acquire
	case ".rl":
		a = cs.Release
	case ".aqrl", ".aq.rl":
		a = cs.Acquire | cs.Release
	default:
		return 0, false
	}
	switch what {
	case "load":
		if a == cs.Release {
			return 0, false
		}
	case "store":
		if a == cs.Acquire {
			return 0, false
		}
	case "lr":
		a &^= cs.Release
		if sfx == ".aqrl" || sfx == ".aq.rl" {
			a = cs.Acquire | cs.Release
		}
	case "sc":
		a &^= cs.Acquire
		if sfx == ".aqrl" || sfx == ".aq.rl" {
			a = cs.Acquire | cs.Release
		}
	}
	return a, true
}

// riscvALU maps the register-register and register-immediate operations
// read to the ALU operations of weak.go.
var riscvALU = map[string]string{
	"add": "ADD", "addw": "ADD", "sub": "SUB", "subw": "SUB", "xor": "EOR", "or": "ORR", "and": "AND",
	"addi": "ADD", "addiw": "ADD", "xori": "EOR", "ori": "ORR", "andi": "AND",
}

// riscvAMO maps the AMO operations read to the RMW operations of weak.go.
var riscvAMO = map[string]string{"amoswap": "SWP", "amoadd": "ADD", "amoxor": "EOR", "amoor": "SET", "amoand": "AND", "amomax": "SMAX", "amomin": "SMIN"}

const riscvKnown = "nop, li, mv, la, add, addi, sub, xor, xori, or, ori, and, andi (and their w forms), lw, ld, lwu, sw, sd (with .aq, .rl), lr, sc, amoswap, amoadd, amoxor, amoor, amoand, amomax, amomin (.w, .d, with .aq, .rl, .aqrl), fence, fence PRED,SUCC, fence.tso, j, beq, bne, blt, bge"

// parseRISCV reads the instruction of toks (a cell of a RISCV test, after
// its label if any) into in.
func parseRISCV(in *winsn, toks []token) {
	mn := toks[0]
	if mn.Kind != tIdent {
		panic(errAt(mn.Pos, "expected an instruction, found %s", mn))
	}
	in.mn = mn
	op := strings.ToLower(mn.Text)
	in.name = op
	ops := splitTop(toks[1:], mn)
	want := func(n int) {
		if len(ops) != n {
			panic(errAt(mn.Pos, "%s takes %d operands, not %d", mn.Text, n, len(ops)))
		}
	}
	switch op {
	case "nop":
		want(0)
		in.kind = wNop
		return
	case "fence.tso":
		want(0)
		in.kind, in.fence = wFence, cs.TSOFence
		return
	case "fence.i":
		panic(errAt(mn.Pos, "fence.i is not read (it orders instruction fetches)"))
	case "fence":
		in.kind, in.fence = wFence, cs.FullFence
		if len(ops) == 0 {
			return
		}
		want(2)
		pred, succ := riscvSet(ops[0]), riscvSet(ops[1])
		var o cs.Ordering
		for _, p := range []struct {
			before, after byte
			o             cs.Ordering
		}{{'r', 'r', cs.LoadLoad}, {'r', 'w', cs.LoadStore}, {'w', 'r', cs.StoreLoad}, {'w', 'w', cs.StoreStore}} {
			if strings.IndexByte(pred, p.before) >= 0 && strings.IndexByte(succ, p.after) >= 0 {
				o |= p.o
			}
		}
		in.fence = cs.MaskFence(o)
		return
	case "li", "mv":
		want(2)
		in.kind = wMove
		in.dst = riscvRegOp(ops[0])
		if op == "li" {
			in.a = riscvImm(ops[1])
		} else {
			in.a = riscvRegOp(ops[1])
		}
		return
	case "la":
		want(2)
		in.kind = wAddr
		in.dst = riscvRegOp(ops[0])
		if len(ops[1]) != 1 || ops[1][0].Kind != tIdent {
			panic(errAt(ops[1][0].Pos, "la takes a location"))
		}
		s := ops[1][0]
		in.sym = &s
		return
	case "j":
		want(1)
		in.kind, in.target = wJump, label(ops[0], mn)
		return
	case "beq", "bne", "blt", "bge":
		want(3)
		in.kind = wBranch
		in.a, in.b = riscvRegOp(ops[0]), riscvRegOp(ops[1])
		in.cond = map[string]string{"beq": "EQ", "bne": "NE", "blt": "LT", "bge": "GE"}[op]
		in.target = label(ops[2], mn)
		return
	case "bltu", "bgeu":
		panic(errAt(mn.Pos, "%s is not read: fencer's values are integers, not unsigned words", mn.Text))
	}
	if alu, ok := riscvALU[op]; ok {
		want(3)
		in.kind, in.alu = wALU, alu
		in.dst, in.a = riscvRegOp(ops[0]), riscvRegOp(ops[1])
		if strings.HasSuffix(op, "i") || strings.HasSuffix(op, "iw") {
			in.b = riscvImm(ops[2])
		} else {
			in.b = riscvRegOp(ops[2])
		}
		return
	}
	base, sfx := op, ""
	if i := strings.IndexByte(op, '.'); i >= 0 {
		base, sfx = op[:i], op[i:]
	}
	in.base = base
	switch base {
	case "lw", "ld", "lwu":
		ann, ok := riscvOrder(sfx, "load")
		if !ok {
			break
		}
		want(2)
		in.kind, in.ann = wLoad, ann
		in.dst = riscvRegOp(ops[0])
		in.mem = riscvMem(ops[1], false)
		return
	case "sw", "sd":
		ann, ok := riscvOrder(sfx, "store")
		if !ok {
			break
		}
		want(2)
		in.kind, in.ann = wStore, ann
		in.a = riscvRegOp(ops[0])
		in.mem = riscvMem(ops[1], false)
		return
	case "lb", "lh", "lbu", "lhu", "sb", "sh":
		panic(errAt(mn.Pos, "%s is not read: fencer does not model sizes (lw, ld, sw and sd are read)", mn.Text))
	}
	if base == "lr" || base == "sc" || riscvAMO[base] != "" || strings.HasPrefix(base, "amo") {
		width, rest, _ := strings.Cut(sfx[min(1, len(sfx)):], ".")
		if rest != "" {
			rest = "." + rest
		}
		if width != "w" && width != "d" {
			panic(errAt(mn.Pos, "instruction %s is not read (%s.w or %s.d)", mn.Text, base, base))
		}
		what := base
		if base != "lr" && base != "sc" {
			what = "amo"
		}
		ann, ok := riscvOrder(rest, what)
		if !ok {
			panic(errAt(mn.Pos, "instruction %s is not read (suffixes .aq, .rl, .aqrl)", mn.Text))
		}
		in.base = base + "." + width
		switch base {
		case "lr":
			want(2)
			in.kind, in.ann = wLoadEx, ann
			in.dst = riscvRegOp(ops[0])
			in.mem = riscvMem(ops[1], true)
			return
		case "sc":
			want(3)
			in.kind, in.ann = wStoreEx, ann
			in.dst, in.a = riscvRegOp(ops[0]), riscvRegOp(ops[1])
			in.mem = riscvMem(ops[2], true)
			return
		}
		rmw, ok := riscvAMO[base]
		if !ok {
			panic(errAt(mn.Pos, "%s is not read (amoswap, amoadd, amoxor, amoor, amoand, amomax, amomin are; not the unsigned ones)", mn.Text))
		}
		want(3)
		if ann == 0 {
			ann = cs.Relaxed
		}
		in.kind, in.rmw, in.ann = wRMW, rmw, ann
		in.dst, in.a = riscvRegOp(ops[0]), riscvRegOp(ops[1])
		in.mem = riscvMem(ops[2], true)
		return
	}
	panic(errAt(mn.Pos, "instruction %s is not read (RISCV: %s)", mn.Text, riscvKnown))
}

// riscvSet reads the predecessor or successor set of a fence: r, w, rw
// (i and o, which herd reads as r and w, too).
func riscvSet(g []token) string {
	t := g[0]
	s := strings.ToLower(t.Text)
	if len(g) != 1 || t.Kind != tIdent {
		panic(errAt(t.Pos, "expected r, w or rw, found %s", t))
	}
	switch s {
	case "r", "w", "rw":
		return s
	case "ir":
		return "r"
	case "ow":
		return "w"
	case "iorw":
		return "rw"
	}
	panic(errAt(t.Pos, "fence set %s is not read (r, w, rw)", t.Text))
}

// riscvRegOp reads a register operand.
func riscvRegOp(g []token) wopnd {
	t := g[0]
	if len(g) != 1 || t.Kind != tIdent {
		panic(errAt(t.Pos, "expected a register, found %s", t))
	}
	r, w, ok := riscvReg(t.Text)
	if !ok {
		panic(errAt(t.Pos, "%s is not a register of RISCV (x0 ... x31 or an ABI name: zero, ra, sp, gp, tp, t0-t6, s0-s11, a0-a7)", t.Text))
	}
	return wopnd{kind: opReg, tok: t, reg: r, width: w}
}

// riscvImm reads an immediate n or -n.
func riscvImm(g []token) wopnd {
	t := g[0]
	v, i := armImm(g, 0)
	if i != len(g) || t.Is("#") {
		panic(errAt(t.Pos, "expected an immediate, found %s", t))
	}
	return wopnd{kind: opImm, tok: t, value: v}
}

// riscvMem reads off(reg) or (reg); zero requires the offset 0 (lr, sc,
// AMOs).
func riscvMem(g []token, zero bool) wmem {
	m := wmem{tok: g[0]}
	i := 0
	if !g[0].Is("(") {
		v, j := armImm(g, 0)
		if g[0].Is("#") {
			panic(errAt(g[0].Pos, "expected an offset, found #"))
		}
		m.disp, i = v, j
	}
	if i+2 >= len(g) || !g[i].Is("(") || !g[i+2].Is(")") || i+3 != len(g) {
		panic(errAt(g[0].Pos, "expected a memory operand off(reg)"))
	}
	base := riscvRegOp(g[i+1 : i+2])
	if isZeroReg(base.reg) {
		panic(errAt(base.tok.Pos, "the base of a memory operand holds an address; x0 does not"))
	}
	m.base, m.bTok = base.reg, base.tok
	if zero && m.disp != 0 {
		panic(errAt(g[0].Pos, "this instruction takes (reg) only, without an offset"))
	}
	return m
}
