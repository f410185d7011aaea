package litmus

import (
	"strconv"
	"strings"
)

// This file reads one cell of the program table into an insn: the
// mnemonic without its size suffix, the LOCK prefix and the operands in
// Intel order (destination first), for both dialects. What an operand
// names is checked here (a register is one of the architecture's, a
// memory operand has one of the forms herd reads); where a memory operand
// points is resolved when the statements are built (sem.go).

// dialect is the syntax of a test: herd's X86 (Intel syntax: MOV [x],$1,
// MOV EAX,[x]), X86_64 (AT&T syntax: movl $1,(x), movl (x),%eax),
// AArch64 (LDR W0,[X1]) or RISCV (lw x5,0(x6)). The last two are the weak
// dialects (weak.go, arm.go, riscv.go).
type dialect uint8

const (
	intel dialect = iota // X86
	att                  // X86_64
	arm64                // AArch64
	riscv                // RISCV
)

// weak reports whether d is a dialect of the axiomatic models (AArch64,
// RISC-V), read by weak.go.
func (d dialect) weak() bool { return d == arm64 || d == riscv }

// sizeSuffix is the operand width a mnemonic's size suffix gives (MOVL,
// addq).
var sizeSuffix = map[byte]int{'B': 8, 'W': 16, 'L': 32, 'Q': 64}

func (d dialect) String() string {
	switch d {
	case att:
		return "X86_64"
	case arm64:
		return "AArch64"
	case riscv:
		return "RISCV"
	}
	return "X86"
}

// fence is the full fence instruction as the dialect writes it.
func (d dialect) fence() string {
	switch d {
	case att:
		return "mfence"
	case arm64:
		return "DMB ISH"
	case riscv:
		return "fence rw,rw"
	}
	return "MFENCE"
}

// x86Regs are the registers of herd's X86 (32 bits).
var x86Regs = map[string]bool{"EAX": true, "EBX": true, "ECX": true, "EDX": true, "ESI": true, "EDI": true, "EBP": true, "ESP": true}

// x64Regs maps each register name of X86_64 (lower case) to its 64-bit
// register and its width in bits.
var x64Regs = func() map[string]x64Reg {
	m := map[string]x64Reg{"rip": {"RIP", 64}}
	for _, r := range []string{"a", "b", "c", "d"} {
		full := "R" + strings.ToUpper(r) + "X"
		m["r"+r+"x"] = x64Reg{full, 64}
		m["e"+r+"x"] = x64Reg{full, 32}
		m[r+"x"] = x64Reg{full, 16}
		m[r+"l"] = x64Reg{full, 8}
		m[r+"h"] = x64Reg{full, 8}
	}
	for _, r := range []string{"si", "di", "bp", "sp"} {
		full := "R" + strings.ToUpper(r)
		m["r"+r] = x64Reg{full, 64}
		m["e"+r] = x64Reg{full, 32}
		m[r] = x64Reg{full, 16}
		m[r+"l"] = x64Reg{full, 8}
	}
	for i := 8; i <= 15; i++ {
		full := "R" + strconv.Itoa(i)
		m[strings.ToLower(full)] = x64Reg{full, 64}
		m[strings.ToLower(full)+"d"] = x64Reg{full, 32}
		m[strings.ToLower(full)+"w"] = x64Reg{full, 16}
		m[strings.ToLower(full)+"b"] = x64Reg{full, 8}
	}
	return m
}()

type x64Reg struct {
	name  string // the 64-bit register: RAX
	width int
}

// regName returns the register a name denotes in dialect d (the 32-bit
// register of X86, the 64-bit one of X86_64: eax, ax and al are RAX) and
// its width, or ok false when the name is no register of d.
func regName(d dialect, name string) (string, int, bool) {
	switch d {
	case arm64:
		return armReg(name)
	case riscv:
		return riscvReg(name)
	}
	if d == intel {
		up := strings.ToUpper(name)
		return up, 32, x86Regs[up]
	}
	r, ok := x64Regs[strings.ToLower(name)]
	return r.name, r.width, ok
}

// operand kinds.
const (
	opImm   = 'i' // $n (or n)
	opReg   = 'r' // a register
	opMem   = 'm' // a memory location: [x], (x), [EBX], 8(%rax,%rbx,8)
	opLabel = 'l' // a jump target
)

// operand is one operand of an instruction.
type operand struct {
	kind  byte
	tok   token // where it is written
	value int64 // opImm
	reg   string
	width int // opReg: the register's width in bits
	// opMem: the location named (sym, a token of kind tIdent) or the
	// address base + index*scale + disp (base, index registers, "" when
	// absent).
	sym          *token
	base, index  string
	bTok, iTok   token
	scale, disp  int64
	hasRegMemory bool // the address is computed from registers
}

// insn is one instruction in Intel order (destination first).
type insn struct {
	mn     token  // the mnemonic (after LOCK)
	op     string // upper case, size suffix removed: MOV, ADD, JE
	size   int    // the suffix's width in bits (b 8, w 16, l 32, q 64), 0 none
	locked bool
	ops    []operand
	cell   cell
	label  *token // a label cell "L0:" (no instruction)
}

// mnemonics of each dialect (upper case). Sized: the X86_64 mnemonics
// that take a b/w/l/q suffix.
var (
	intelOps = set("MOV", "MOVB", "MOVW", "MOVL", "MOVQ", "ADD", "SUB", "XOR", "OR", "INC", "DEC", "CMP", "CMOVC", "SETNB",
		"JMP", "JE", "JNE", "XCHG", "XADD", "CMPXCHG", "MFENCE", "LFENCE", "SFENCE", "NOP")
	attOps = set("MOV", "ADD", "SUB", "XOR", "OR", "AND", "SHL", "INC", "DEC", "CMP", "CMOVC", "SETNB", "JMP", "JE", "JNE", "JLE", "JLT",
		"JGT", "JGE", "JS", "JNS", "XCHG", "XADD", "CMPXCHG", "MFENCE", "LFENCE", "SFENCE", "NOP", "ENDBR64", "RET")
	attSized = set("MOV", "ADD", "SUB", "XOR", "OR", "INC", "DEC", "CMP", "CMOVC", "XCHG", "XADD", "CMPXCHG", "NOP")
)

// Beyond herd's lexers, fencer reads LOCK XADD and LOCK SUB (and OR in
// X86, SFENCE and LFENCE in X86_64), as it did before X86_64: their
// semantics are the usual ones (fetch-and-add, subtraction, fences).
// X86_64's AND, SHL, ENDBR64 and RET are herd's (X86_64Sem.ml: AND and
// SHL are operations like ADD, without a size suffix as in herd's lexer;
// endbr64 is a NOP; RET, under herd's telechat variant, ends the thread).

func set(xs ...string) map[string]bool {
	m := map[string]bool{}
	for _, x := range xs {
		m[x] = true
	}
	return m
}

// parseInsn reads the cell c of dialect d.
func parseInsn(d dialect, c cell) insn {
	toks := c.toks
	if len(toks) == 2 && toks[0].Kind == tIdent && toks[1].Is(":") {
		l := toks[0]
		return insn{cell: c, label: &l}
	}
	mn := toks[0]
	if mn.Kind != tIdent {
		panic(errAt(mn.Pos, "expected an instruction, found %s", mn))
	}
	in := insn{cell: c}
	rest := toks[1:]
	if strings.EqualFold(mn.Text, "LOCK") {
		if len(rest) == 0 || rest[0].Kind != tIdent {
			panic(errAt(mn.Pos, "expected an instruction after LOCK"))
		}
		in.locked = true
		mn, rest = rest[0], rest[1:]
	}
	in.mn = mn
	op := strings.ToUpper(mn.Text)
	known := intelOps
	if d == att {
		known = attOps
		if !known[op] && len(op) > 1 && attSized[op[:len(op)-1]] {
			if w, ok := sizeSuffix[op[len(op)-1]]; ok {
				op, in.size = op[:len(op)-1], w
			}
		}
	}
	switch op {
	case "MOVB", "MOVW", "MOVL", "MOVQ": // X86: sized moves
		in.size = sizeSuffix[op[3]]
		op = "MOV"
	}
	if !known[op] {
		if d == att {
			panic(errAt(mn.Pos, "instruction %s is not read (X86_64: MOV, ADD, SUB, XOR, OR, AND, SHL, INC, DEC, CMP, CMOVC, SETNB, JMP, JE, JNE, JLE, JLT, JGT, JGE, JS, JNS, XCHG, LOCK XADD, LOCK CMPXCHG, MFENCE, LFENCE, SFENCE, NOP, ENDBR64, RET)", mn.Text))
		}
		panic(errAt(mn.Pos, "instruction %s is not read (X86: MOV, ADD, SUB, XOR, OR, INC, DEC, CMP, CMOVC, SETNB, JMP, JE, JNE, XCHG, LOCK XADD, LOCK CMPXCHG, MFENCE, LFENCE, SFENCE, NOP)", mn.Text))
	}
	in.op = op
	if strings.HasPrefix(op, "J") {
		if len(rest) != 1 || rest[0].Kind != tIdent {
			panic(errAt(mn.Pos, "%s takes one label", mn.Text))
		}
		in.ops = []operand{{kind: opLabel, tok: rest[0]}}
		return in
	}
	in.ops = splitOperands(d, rest, mn)
	if d == att && len(in.ops) == 2 {
		in.ops[0], in.ops[1] = in.ops[1], in.ops[0]
	}
	return in
}

// splitOperands reads the operands after the mnemonic mn.
func splitOperands(d dialect, toks []token, mn token) []operand {
	var out []operand
	for i := 0; i < len(toks); {
		var o operand
		if d == intel {
			o, i = intelOperand(toks, i)
		} else {
			o, i = attOperand(toks, i)
		}
		out = append(out, o)
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

// immediate reads [-]n at toks[i] (after a '$' if any).
func immediate(toks []token, i int, at token) (operand, int) {
	neg := false
	if i < len(toks) && toks[i].Is("-") {
		neg = true
		i++
	}
	if i >= len(toks) || toks[i].Kind != tInt {
		panic(errAt(at.Pos, "expected an integer"))
	}
	v, _ := strconv.ParseInt(toks[i].Text, 10, 64)
	if neg {
		v = -v
	}
	return operand{kind: opImm, tok: at, value: v}, i + 1
}

// intelOperand reads [x], [REG], $n, n or a register.
func intelOperand(toks []token, i int) (operand, int) {
	t := toks[i]
	switch {
	case t.Is("["):
		if i+2 >= len(toks) || toks[i+1].Kind != tIdent || !toks[i+2].Is("]") {
			panic(errAt(t.Pos, "expected [location] or [register]"))
		}
		x := toks[i+1]
		if r, _, ok := regName(intel, x.Text); ok {
			return operand{kind: opMem, tok: t, base: r, bTok: x, hasRegMemory: true}, i + 3
		}
		return operand{kind: opMem, tok: t, sym: &x}, i + 3
	case t.Is("$"):
		return immediate(toks, i+1, t)
	case t.Kind == tInt || t.Is("-"):
		return immediate(toks, i, t)
	case t.Kind == tIdent:
		r, w, ok := regName(intel, t.Text)
		if !ok {
			panic(errAt(t.Pos, "%s is not a register of X86 (EAX, EBX, ECX, EDX, ESI, EDI, EBP, ESP); a memory location is written [%s]", t.Text, t.Text))
		}
		return operand{kind: opReg, tok: t, reg: r, width: w}, i + 1
	}
	panic(errAt(t.Pos, "expected an operand ([x], [REG], $n or a register), found %s", t))
}

// attReg reads %name at toks[i].
func attReg(toks []token, i int) (string, int, token) {
	if i+1 >= len(toks) || toks[i+1].Kind != tIdent {
		panic(errAt(toks[i].Pos, "expected a register name after '%%'"))
	}
	x := toks[i+1]
	r, w, ok := regName(att, x.Text)
	if !ok {
		panic(errAt(x.Pos, "%%%s is not a general-purpose register of X86_64", x.Text))
	}
	return r, w, x
}

// attOperand reads $n, %reg, (x), (%reg), disp(%base), disp(%base,%index,scale).
func attOperand(toks []token, i int) (operand, int) {
	t := toks[i]
	switch {
	case t.Is("$"):
		return immediate(toks, i+1, t)
	case t.Is("%"):
		r, w, _ := attReg(toks, i)
		return operand{kind: opReg, tok: t, reg: r, width: w}, i + 2
	}
	o := operand{kind: opMem, tok: t}
	if t.Kind == tInt || t.Is("-") {
		imm, j := immediate(toks, i, t)
		if j >= len(toks) || !toks[j].Is("(") {
			return imm, j // a plain number: an immediate, as herd reads "shl 2,%eax"
		}
		o.disp, i = imm.value, j
	}
	if !toks[i].Is("(") {
		panic(errAt(toks[i].Pos, "expected an operand ($n, %%reg, (x) or disp(%%base,%%index,scale)), found %s", toks[i]))
	}
	i++
	switch {
	case i < len(toks) && toks[i].Kind == tIdent:
		x := toks[i]
		o.sym = &x
		i++
	case i < len(toks) && toks[i].Is("%"):
		o.base, _, o.bTok = attReg(toks, i)
		o.hasRegMemory = true
		i += 2
		if i < len(toks) && toks[i].Is(",") {
			if i+1 >= len(toks) || !toks[i+1].Is("%") {
				panic(errAt(toks[i].Pos, "expected an index register after ','"))
			}
			o.index, _, o.iTok = attReg(toks, i+1)
			o.scale = 1
			i += 3
			if i < len(toks) && toks[i].Is(",") {
				if i+1 >= len(toks) || toks[i+1].Kind != tInt {
					panic(errAt(toks[i].Pos, "expected a scale after ','"))
				}
				o.scale, _ = strconv.ParseInt(toks[i+1].Text, 10, 64)
				i += 2
			}
		}
	default:
		panic(errAt(t.Pos, "expected a location or a register in parentheses"))
	}
	if i >= len(toks) || !toks[i].Is(")") {
		panic(errAt(t.Pos, "expected ')' closing the memory operand"))
	}
	return o, i + 1
}

// writes lists the registers in writes (destinations of in).
func (in *insn) writes(d dialect) []string {
	var out []string
	dst := func(o operand) {
		if o.kind == opReg {
			out = append(out, o.reg)
		}
	}
	switch in.op {
	case "MOV", "ADD", "SUB", "XOR", "OR", "AND", "SHL", "INC", "DEC", "CMOVC", "SETNB":
		if len(in.ops) > 0 {
			dst(in.ops[0])
		}
	case "XCHG", "XADD":
		for _, o := range in.ops {
			dst(o)
		}
	case "CMPXCHG":
		out = append(out, accumulator(d))
	}
	return out
}

// accumulator is EAX (X86) or RAX (X86_64), which CMPXCHG compares.
func accumulator(d dialect) string {
	if d == att {
		return "RAX"
	}
	return "EAX"
}
