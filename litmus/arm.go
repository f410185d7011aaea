package litmus

import (
	"strconv"
	"strings"

	"fencer/cs"
)

// This file reads the cells of herd's AArch64 dialect (lib/AArch64Parser.mly
// and herd/AArch64Sem.ml of herdtools7) into winsns (weak.go). Mnemonics
// and registers are read in any case.

// armReg returns the register a name of AArch64 denotes: W0 ... W30 and
// X0 ... X30 are X0 ... X30 (a W register is the low half of its X
// register), WZR and XZR the zero register XZR; the width is 32 or 64.
func armReg(name string) (string, int, bool) {
	up := strings.ToUpper(name)
	switch up {
	case "WZR":
		return zeroARM, 32, true
	case "XZR":
		return zeroARM, 64, true
	}
	if len(up) < 2 || up[0] != 'W' && up[0] != 'X' {
		return "", 0, false
	}
	n, err := strconv.Atoi(up[1:])
	if err != nil || n < 0 || n > 30 || strconv.Itoa(n) != up[1:] {
		return "", 0, false
	}
	w := 64
	if up[0] == 'W' {
		w = 32
	}
	return "X" + up[1:], w, true
}

// The zero registers: reading one gives 0, writing one writes nothing.
const (
	zeroARM   = "XZR"
	zeroRISCV = "x0"
)

func isZeroReg(r string) bool { return r == zeroARM || r == zeroRISCV }

// armRMWOps are the LD<op> and ST<op> operations read, and what they write
// to memory (weak.go, rmwValue).
var armRMWOps = []string{"ADD", "EOR", "SET", "CLR", "SMAX", "SMIN"}

// armAnnSuffix is the order of an atomic instruction's suffix: A acquire, L
// release, AL both, none relaxed.
func armAnnSuffix(s string) (cs.Ann, bool) {
	switch s {
	case "":
		return cs.Relaxed, true
	case "A":
		return cs.Acquire, true
	case "L":
		return cs.Release, true
	case "AL":
		return cs.Acquire | cs.Release, true
	}
	return 0, false
}

// armFences maps the option of DMB and DSB to the kind of barrier: full
// (SY, ISH, OSH, NSH), load (LD, ISHLD, ...: reads before it with every
// access after it) and store (ST, ISHST, ...: writes with writes).
var armFences = func() map[string]cs.FenceKind {
	m := map[string]cs.FenceKind{}
	for _, dom := range []string{"", "ISH", "OSH", "NSH"} {
		full := dom
		if full == "" {
			full = "SY"
		}
		m[full] = cs.FullFence
		m[dom+"LD"] = cs.LoadFence
		m[dom+"ST"] = cs.StoreFence
	}
	return m
}()

const armKnown = "NOP, MOV, ADD, SUB, ADDS, SUBS, EOR, ORR, AND, CMP, CSEL, CSINC, CSET, CINC, B, B.EQ, B.NE, B.GE, B.GT, B.LE, B.LT, CBZ, CBNZ, LDR, LDAR, LDAPR, STR, STLR, LDXR, LDAXR, STXR, STLXR, SWP, CAS, LDADD, LDEOR, LDSET, LDCLR, LDSMAX, LDSMIN, their ST forms and A/L/AL forms, DMB, DSB"

// parseARM reads the instruction of toks (a cell of an AArch64 test, after
// its label if any) into in.
func parseARM(in *winsn, toks []token) {
	mn := toks[0]
	if mn.Kind != tIdent {
		panic(errAt(mn.Pos, "expected an instruction, found %s", mn))
	}
	in.mn = mn
	op := strings.ToUpper(mn.Text)
	in.name = op
	ops := splitTop(toks[1:], mn)
	want := func(n int) {
		if len(ops) != n {
			panic(errAt(mn.Pos, "%s takes %d operands, not %d", mn.Text, n, len(ops)))
		}
	}
	switch op {
	case "NOP":
		want(0)
		in.kind = wNop
		return
	case "ISB":
		panic(errAt(mn.Pos, "ISB is not read: it orders only with a control dependency before it (ctrl+isb), which fencer's models do not express; a DMB would order more than the test says"))
	case "DMB", "DSB":
		want(1)
		if len(ops[0]) != 1 || ops[0][0].Kind != tIdent {
			panic(errAt(ops[0][0].Pos, "expected the option of %s (SY, ISH, ISHLD, ISHST, LD, ST, ...)", mn.Text))
		}
		k, ok := armFences[strings.ToUpper(ops[0][0].Text)]
		if !ok {
			panic(errAt(ops[0][0].Pos, "%s %s is not read (SY, ST, LD and their ISH, OSH, NSH forms are)", mn.Text, ops[0][0].Text))
		}
		if op == "DSB" && k == cs.StoreFence {
			// aarch64.cat's DSB-ob: [W]; po; [dsb.st]; po; [M] (it waits
			// for the writes before it, so reads after it wait too).
			k = cs.MaskFence(cs.StoreLoad | cs.StoreStore)
		}
		in.kind, in.fence = wFence, k
		return
	case "MOV":
		want(2)
		in.kind = wMove
		in.dst = armRegOp(ops[0])
		in.a = armValue(ops[1])
		checkW(in.dst, in.a)
		return
	case "ADD", "SUB", "EOR", "ORR", "AND", "ADDS", "SUBS":
		if len(ops) != 3 && len(ops) != 4 {
			panic(errAt(mn.Pos, "%s takes 3 operands (and an extension or shift), not %d", mn.Text, len(ops)))
		}
		in.kind, in.alu = wALU, strings.TrimSuffix(op, "S")
		in.flags = op == "ADDS" || op == "SUBS"
		in.dst = armRegOp(ops[0])
		in.a = armRegOp(ops[1])
		in.b = armValue(ops[2])
		if len(ops) == 4 {
			if in.b.kind != opReg {
				panic(errAt(ops[3][0].Pos, "an extension or shift applies to a register operand"))
			}
			in.shift = armExtend(ops[3])
			if in.shift != 0 && op != "ADD" && op != "SUB" {
				panic(errAt(ops[3][0].Pos, "a shifted operand of %s is not read (only of ADD and SUB)", mn.Text))
			}
		}
		checkW(in.dst, in.b)
		return
	case "CMP":
		want(2)
		in.kind = wCmp
		in.a = armRegOp(ops[0])
		in.b = armValue(ops[1])
		return
	case "CSEL", "CSINC", "CINC", "CSET":
		in.kind, in.inc = wCSel, op != "CSEL"
		switch op {
		case "CSEL", "CSINC":
			want(4)
			in.dst, in.a, in.b = armRegOp(ops[0]), armRegOp(ops[1]), armRegOp(ops[2])
			in.cond = armCond(ops[3], mn, false)
		case "CINC": // CSINC Wd,Wn,Wn,invert(cond)
			want(3)
			in.dst, in.a = armRegOp(ops[0]), armRegOp(ops[1])
			in.b = in.a
			in.cond = armCond(ops[2], mn, true)
		case "CSET": // CSINC Wd,WZR,WZR,invert(cond)
			want(2)
			in.dst = armRegOp(ops[0])
			in.a = wopnd{kind: opReg, tok: ops[0][0], reg: zeroARM, width: in.dst.width}
			in.b = in.a
			in.cond = armCond(ops[1], mn, true)
		}
		if in.a.width != in.dst.width || in.b.width != in.dst.width {
			panic(errAt(mn.Pos, "%s takes registers of one width (all W or all X)", mn.Text))
		}
		return
	case "CSINV", "CSNEG", "CSETM":
		panic(errAt(mn.Pos, "%s is not read: its value is a complement or a negation, which depends on the register's size (fencer does not model sizes)", mn.Text))
	case "B":
		want(1)
		in.kind, in.target = wJump, label(ops[0], mn)
		return
	case "CBZ", "CBNZ":
		want(2)
		in.kind = wBranch
		in.a = armRegOp(ops[0])
		in.b = wopnd{kind: opImm, tok: mn}
		in.cond = "NE"
		if op == "CBZ" {
			in.cond = "EQ"
		}
		in.target = label(ops[1], mn)
		return
	case "B.EQ", "B.NE", "B.GE", "B.GT", "B.LE", "B.LT":
		want(1)
		in.kind, in.flags, in.cond = wBranch, true, op[2:]
		in.target = label(ops[0], mn)
		return
	case "LDR", "LDAR", "LDAPR", "LDXR", "LDAXR":
		ops = postIndex(in, ops, op == "LDR")
		want(2)
		in.kind = wLoad
		in.dst = armRegOp(ops[0])
		in.mem = armMem(ops[1], op == "LDR" && in.post == nil, in.post != nil)
		switch op {
		case "LDAR":
			in.ann = cs.Acquire
		case "LDAPR":
			in.ann = cs.AcquirePC
		case "LDXR":
			in.kind = wLoadEx
		case "LDAXR":
			in.kind, in.ann = wLoadEx, cs.Acquire
		}
		return
	case "STR", "STLR":
		ops = postIndex(in, ops, op == "STR")
		want(2)
		in.kind = wStore
		in.a = armRegOp(ops[0])
		in.mem = armMem(ops[1], op == "STR" && in.post == nil, in.post != nil)
		if op == "STLR" {
			in.ann = cs.Release
		}
		return
	case "STXR", "STLXR":
		want(3)
		in.kind = wStoreEx
		in.dst = armRegOp(ops[0])
		in.a = armRegOp(ops[1])
		in.mem = armMem(ops[2], false, false)
		if op == "STLXR" {
			in.ann = cs.Release
		}
		return
	}
	if sfx, ok := strings.CutPrefix(op, "CAS"); ok {
		if ann, ok := armAnnSuffix(sfx); ok {
			want(3)
			in.kind, in.ann, in.base = wCAS, ann, "CAS"
			in.a, in.b = armRegOp(ops[0]), armRegOp(ops[1])
			in.mem = armMem(ops[2], false, true)
			in.ann = noRet(in.ann, in.a)
			return
		}
	}
	if sfx, ok := strings.CutPrefix(op, "SWP"); ok {
		if ann, ok := armAnnSuffix(sfx); ok {
			want(3)
			in.kind, in.rmw, in.ann, in.base = wRMW, "SWP", ann, "SWP"
			in.a, in.dst = armRegOp(ops[0]), armRegOp(ops[1])
			in.mem = armMem(ops[2], false, true)
			in.ann = noRet(in.ann, in.dst)
			return
		}
	}
	for _, prefix := range []string{"LD", "ST"} {
		rest, ok := strings.CutPrefix(op, prefix)
		if !ok {
			continue
		}
		for _, o := range append(armRMWOps, "UMAX", "UMIN") {
			sfx, ok := strings.CutPrefix(rest, o)
			if !ok {
				continue
			}
			ann, ok := armAnnSuffix(sfx)
			if !ok || prefix == "ST" && ann&cs.Acquire != 0 {
				continue
			}
			if o == "UMAX" || o == "UMIN" {
				panic(errAt(mn.Pos, "%s is not read: fencer's values are integers, not unsigned words", mn.Text))
			}
			in.kind, in.rmw, in.ann, in.base = wRMW, o, ann, prefix+o
			if prefix == "ST" {
				want(2)
				in.a = armRegOp(ops[0])
				in.mem = armMem(ops[1], false, true)
				in.ann = noRet(in.ann, in.dst)
				return
			}
			want(3)
			in.a, in.dst = armRegOp(ops[0]), armRegOp(ops[1])
			in.mem = armMem(ops[2], false, true)
			in.ann = noRet(in.ann, in.dst)
			return
		}
	}
	panic(errAt(mn.Pos, "instruction %s is not read (AArch64: %s)", mn.Text, armKnown))
}

// postIndex reads the post-index immediate of LDR and STR (ok): LDR
// Wt,[Xn],#imm accesses [Xn] and then adds imm to Xn. It sets in.post and
// returns the two other operands; checkPost refuses a base register read
// after the access (fencer's addresses are static).
func postIndex(in *winsn, ops [][]token, ok bool) [][]token {
	if !ok || len(ops) != 3 || !ops[1][len(ops[1])-1].Is("]") {
		return ops
	}
	g := ops[2]
	if _, i := armImm(g, 0); i != len(g) {
		panic(errAt(g[i].Pos, "unexpected %s after the post-index immediate", g[i]))
	}
	t := g[0]
	in.post = &t
	return ops[:2]
}

// armCond reads the condition of a conditional select: EQ, NE, GE, GT, LE
// or LT (the flags of a CMP as a signed comparison; the others, unsigned
// or on overflow, are not read). invert is for the aliases CSET and CINC,
// which herd reads with the inverse condition: herd7 inverts GE to GT, not
// LT (lib/AArch64Base.ml, inverse_cond), so GE is refused there.
func armCond(g []token, mn token, invert bool) string {
	t := g[0]
	c := strings.ToUpper(t.Text)
	if len(g) != 1 || t.Kind != tIdent {
		panic(errAt(t.Pos, "expected a condition (EQ, NE, GE, GT, LE, LT), found %s", t))
	}
	inv := map[string]string{"EQ": "NE", "NE": "EQ", "GE": "LT", "LT": "GE", "GT": "LE", "LE": "GT"}
	if _, ok := inv[c]; !ok {
		panic(errAt(t.Pos, "condition %s is not read (EQ, NE, GE, GT, LE, LT are: fencer's values are integers, with no unsigned comparison or overflow)", t.Text))
	}
	if !invert {
		return c
	}
	if c == "GE" {
		panic(errAt(t.Pos, "%s with GE is not read: herd7 reads it as the inverse of GT, not of LT (lib/AArch64Base.ml, inverse_cond), unlike the Arm ARM", mn.Text))
	}
	return inv[c]
}

// noRet is the order of an atomic instruction whose loaded value goes to
// register dst (no register: ST<op>): when dst is the zero register, the
// read returns nothing, and it is without the acquire (the Arm ARM: "if
// the destination register is not one of WZR or XZR, ... load from memory
// with acquire semantics") and marked cs.NoRet: herd's NoRet reads, which
// DMB LD does not order ([R \ NoRet]; po; [dmb.ld] in aarch64.cat), a full
// barrier does.
func noRet(ann cs.Ann, dst wopnd) cs.Ann {
	if dst.kind == opReg && !isZeroReg(dst.reg) {
		return ann
	}
	ann &^= cs.Acquire
	if ann&^cs.Relaxed == 0 {
		ann = cs.Relaxed
	}
	return ann | cs.NoRet
}

// checkW refuses a negative immediate written to a W register (herd
// zero-extends it to 64 bits; fencer does not model sizes).
func checkW(dst, src wopnd) {
	if dst.kind == opReg && dst.width == 32 && src.kind == opImm && src.value < 0 {
		panic(errAt(src.tok.Pos, "a negative value in a W register is not read (herd zero-extends it to 64 bits; fencer does not model sizes)"))
	}
}

// splitTop splits the operand tokens of instruction mn at the commas that
// are not inside brackets or parentheses.
func splitTop(toks []token, mn token) [][]token {
	var out [][]token
	depth, start := 0, 0
	for i, t := range toks {
		switch {
		case t.Is("[") || t.Is("("):
			depth++
		case t.Is("]") || t.Is(")"):
			depth--
		case t.Is(",") && depth == 0:
			if i == start {
				panic(errAt(t.Pos, "operand missing before ','"))
			}
			out = append(out, toks[start:i])
			start = i + 1
		}
	}
	if start < len(toks) {
		out = append(out, toks[start:])
	} else if len(toks) > 0 {
		panic(errAt(toks[len(toks)-1].Pos, "operand missing after ','"))
	}
	return out
}

// label reads a label operand.
func label(g []token, mn token) token {
	if len(g) != 1 || g[0].Kind != tIdent {
		panic(errAt(g[0].Pos, "%s takes a label", mn.Text))
	}
	return g[0]
}

// armRegOp reads a register operand.
func armRegOp(g []token) wopnd {
	t := g[0]
	if len(g) != 1 || t.Kind != tIdent {
		panic(errAt(t.Pos, "expected a register, found %s", t))
	}
	r, w, ok := armReg(t.Text)
	if !ok {
		if strings.EqualFold(t.Text, "SP") || strings.EqualFold(t.Text, "WSP") {
			panic(errAt(t.Pos, "the stack pointer is not read"))
		}
		panic(errAt(t.Pos, "%s is not a register of AArch64 (W0 ... W30, X0 ... X30, WZR, XZR)", t.Text))
	}
	return wopnd{kind: opReg, tok: t, reg: r, width: w}
}

// armImm reads #n (or n) in g from index i; it returns the value and the
// index after it.
func armImm(g []token, i int) (int64, int) {
	if i < len(g) && g[i].Is("#") {
		i++
	}
	neg := false
	if i < len(g) && g[i].Is("-") {
		neg = true
		i++
	}
	if i >= len(g) || g[i].Kind != tInt {
		at := g[len(g)-1]
		if i < len(g) {
			at = g[i]
		}
		panic(errAt(at.Pos, "expected an immediate (#n), found %s", at))
	}
	v, _ := strconv.ParseInt(g[i].Text, 10, 64)
	if neg {
		v = -v
	}
	return v, i + 1
}

// armValue reads a register or an immediate.
func armValue(g []token) wopnd {
	t := g[0]
	if t.Kind == tIdent && len(g) == 1 {
		return armRegOp(g)
	}
	v, i := armImm(g, 0)
	if i != len(g) {
		panic(errAt(g[i].Pos, "unexpected %s after the immediate", g[i]))
	}
	return wopnd{kind: opImm, tok: t, value: v}
}

// armExtend reads the extension or shift of an index or operand register
// (SXTW, UXTW, SXTX, LSL #k, with an optional amount) and returns the
// shift amount: SXTW and UXTW are read as no change of value (fencer's
// values are integers).
func armExtend(g []token) int64 {
	t := g[0]
	if t.Kind != tIdent {
		panic(errAt(t.Pos, "expected an extension (SXTW, UXTW, SXTX) or LSL, found %s", t))
	}
	switch strings.ToUpper(t.Text) {
	case "SXTW", "UXTW", "SXTX", "UXTX", "LSL":
	default:
		panic(errAt(t.Pos, "%s is not read (SXTW, UXTW, SXTX, UXTX or LSL are)", t.Text))
	}
	if len(g) == 1 {
		if strings.EqualFold(t.Text, "LSL") {
			panic(errAt(t.Pos, "LSL needs an amount (LSL #n)"))
		}
		return 0
	}
	v, i := armImm(g, 1)
	if i != len(g) {
		panic(errAt(g[i].Pos, "unexpected %s", g[i]))
	}
	if v < 0 || v > 4 {
		panic(errAt(g[1].Pos, "shift amount %d is not read (0 to 4)", v))
	}
	return v
}

// armMem reads a memory operand: [Xn], [Xn,#imm], [Xn,Xm], [Xn,Wm,SXTW],
// [Xn,Xm,LSL #k] when full (LDR, STR), else [Xn] (and [Xn,#0] when zero).
func armMem(g []token, full, zero bool) wmem {
	open := g[0]
	if !open.Is("[") {
		panic(errAt(open.Pos, "expected a memory operand [Xn], found %s", open))
	}
	if !g[len(g)-1].Is("]") {
		panic(errAt(g[len(g)-1].Pos, "expected ']' closing the memory operand (pre- and post-indexed forms are not read)"))
	}
	parts := splitTop(g[1:len(g)-1], open)
	if len(parts) == 0 {
		panic(errAt(open.Pos, "expected a base register in the memory operand"))
	}
	base := armRegOp(parts[0])
	if base.width != 64 || isZeroReg(base.reg) {
		panic(errAt(base.tok.Pos, "the base of a memory operand is an X register"))
	}
	m := wmem{tok: open, base: base.reg, bTok: base.tok}
	if len(parts) == 1 {
		return m
	}
	if parts[1][0].Is("#") || parts[1][0].Kind == tInt || parts[1][0].Is("-") {
		v, i := armImm(parts[1], 0)
		if i != len(parts[1]) || len(parts) > 2 {
			panic(errAt(parts[1][0].Pos, "unexpected operand after the offset"))
		}
		if !full && !(zero && v == 0) {
			panic(errAt(parts[1][0].Pos, "this instruction takes [Xn] only"))
		}
		m.disp = v
		return m
	}
	if !full {
		panic(errAt(parts[1][0].Pos, "this instruction takes [Xn] only"))
	}
	idx := armRegOp(parts[1])
	m.index, m.iTok = idx.reg, idx.tok
	if len(parts) == 3 {
		m.shift = armExtend(parts[2])
	} else if len(parts) > 3 {
		panic(errAt(parts[3][0].Pos, "unexpected operand in the memory operand"))
	}
	return m
}
