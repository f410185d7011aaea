// Package litmus reads herd/litmus7 litmus tests of the X86, X86_64,
// AArch64 and RISCV architectures and builds the concurrent system that
// package cs builds for a .cs program: it builds the .cs syntax tree with
// positions in the .litmus file and lowers it with cs.Lower (one
// semantics, errors and traces at file:line:col of the test). The x86
// dialects are for the store-buffer models (sc, tso, pso); AArch64 and
// RISCV for the axiomatic ones (--model arm, riscv), with typed barriers,
// acquire/release accesses, atomic steps with their order and address
// dependencies (see "The weak dialects" below).
//
// # Format
//
// The first line is "X86 NAME" (Intel syntax: MOV [x],$1, MOV EAX,[x]),
// "X86_64 NAME" (AT&T syntax: movl $1,(x), movl (x),%eax), "AArch64 NAME"
// (LDR W0,[X1]) or "RISCV NAME" (lw x5,0(x6)); what follows
// up to the '{' (a quoted doc string, key=value lines, (* comments *)) is
// skipped. The initial state gives memory and register values, with or
// without a C type ({ x=0; int y=1; uint64_t z; [w]=2; 0:EAX=1; }; all
// others are 0), addresses held by registers (0:EBX=x) and arrays
// (int64_t t[2]={1,-1}). The program is a table "P0 | P1 | ... ;" with one
// row of instructions per line, columns separated by '|', rows ended by
// ';'; empty cells and label cells ("L0:") are allowed (in AArch64 and
// RISCV a label may also start a cell: "L0: LDR W0,[X1]"). Then an optional
// filter P and the final condition: exists P, ~exists P or forall P, where
// P combines P:REG=n, x=n and [x]=n (also !=) with /\, \/, ~ and
// parentheses. A locations [...] clause is skipped.
//
// # Instructions of X86 and X86_64 (instr.go, sem.go, mem.go)
//
// Each dialect reads herd's instruction set for it (herd/X86Sem.ml and
// X86_64Sem.ml of herdtools7), the X86_64 mnemonics with or without a
// size suffix (movb, movw, movl, movq):
//
//   - MOV: to memory a buffered write (a fence site, its text the
//     instruction), from memory a read, else local. Immediates are $n or n.
//   - ADD, SUB, XOR, OR, INC, DEC: on a register, local; on memory without
//     LOCK a read then a buffered write (not atomic: a fence site), with
//     LOCK one atomic step. XCHG with memory is always atomic (swap); of
//     two registers, local. LOCK XADD is fetch_add; LOCK CMPXCHG [x],R is
//     atomic { old = x; if (old == EAX) x = R; else EAX = old; }.
//   - CMP, the jumps JMP, JE, JNE (X86_64 also JS, JNS, JGT, JLE, JGE, JLT)
//     to a label of the thread, CMOVC and SETNB, with herd's flags: CMP
//     a,b sets ZF = (a = b), SF = (a > b), CF = 0; arithmetic sets them
//     from its result. The flags are locals of the threads that read them.
//   - MFENCE: fence;. LFENCE, NOP: nothing (loads are never reordered with
//     loads in TSO and PSO). SFENCE: fence store;.
//   - Memory operands: a location ([x], (x)), or a register holding an
//     address known statically ([EBX], (%rbx), 8(%rsi,%rdi,8)): the base
//     holds the address of a location from the initial state, the index
//     an integer of it, and the thread writes neither; the address must be
//     the location itself or an element of an array.
//   - Registers are those of the architecture (EAX ... ESP; X86_64's
//     rax ... r15 in every width, eax, ax and al all being RAX), case
//     insensitive. Values are integers: sizes are not modelled, so a
//     negative immediate into a register narrower than 64 bits, and an
//     immediate outside the instruction's size, are refused. XOR and OR of
//     two values are computed on 8 bits after an assert that both are in
//     [0, 255] (a run outside is reported as an assert failure).
//
// Anything else (another instruction, a name that is no register, an
// address register that is written or used as a value, an offset that is
// no location) is refused at its file:line:col.
//
// # The weak dialects: AArch64 and RISCV (arm.go, riscv.go, weak.go)
//
// Both are read with herd's semantics (herd/AArch64Sem.ml, RISCVSem.ml
// and the cat models aarch64.cat, riscv.cat of herdtools7) into one small
// instruction set; every instruction is one statement that spans its
// cell, so that the points before and after it are those of its row.
// Registers: AArch64's W0-W30 and X0-X30 (a W register is its X register;
// the condition names either), WZR and XZR (reads give 0, writes go
// nowhere); RISC-V's x0-x31 and their ABI names (zero, ra, sp, gp, tp,
// t0-t6, s0-s11, a0-a7). Mnemonics and registers are read in any case.
// AArch64 immediates are #n (or n).
//
//   - Loads and stores: AArch64 LDR, STR (W and X registers; [Xn],
//     [Xn,#imm], [Xn,Xm], [Xn,Wm,SXTW], [Xn,Xm,LSL #k], and post-indexed
//     [Xn],#imm when no instruction reads Xn after it: the write-back is
//     then invisible, checkPost), LDAR (acquire), LDAPR (acquire-pc), STLR
//     (release); RISC-V lw, ld, lwu, sw, sd with .aq on a load (acquire),
//     .rl on a store (release), .aqrl on a load.
//   - Addresses: a base register holds the address of a location, given
//     in the initial state (0:X1=x) or computed in the thread from one by
//     the single instruction that writes it (ADD X4,X1,W2,SXTW; MOV X4,X1;
//     RISC-V add, addi, mv, la x5,x), which comes before every use with no
//     label between. An offset register must have a value known
//     statically: an immediate, a register of the initial state, or one
//     whose last write before the access (no label between) gives a value
//     known statically, such as EOR W2,W0,W0 (0 whatever W0 holds) or a
//     CSEL of two equal values. The address is a location or an element
//     of an array (int64_t t[2]). The index register of LDR and STR may
//     also hold a value not known statically: the access is then one
//     branch per value that addresses the location or an element of its
//     array, each with its address dependency, and an assert that fails
//     for any other value; the branch is a control dependency of the
//     writes after the access, which is herd's addr; [Exp]; po; [W].
//   - Dependencies: an access whose address was computed from registers
//     the thread writes gets an address dependency on them
//     (cs.AssignStmt.AddrDeps, Op.Addr); values keep the registers they
//     were computed from (EOR W2,W0,W0 is W2 = W0 - W0, AND with 0 is
//     W0 * 0), so a data dependency is the written value's expression and
//     a control dependency a branch on a loaded value.
//   - Register operations: MOV, ADD, SUB (AArch64 with an extension or
//     LSL #k on the last operand), EOR, ORR, AND; RISC-V li, mv, add,
//     addi, sub, xor, xori, or, ori, and, andi (and the w forms). As in the
//     x86 dialects values are integers and sizes are not modelled: EOR,
//     ORR and AND of two values are computed on 8 bits after a check that
//     both are in [0, 255] (an assert, in an atomic step with no access:
//     no branch, so no control dependency); a negative immediate into a W
//     register, and a 32-bit access to a location whose initial value does
//     not fit 32 bits, are refused.
//   - Branches: AArch64 CMP, ADDS, SUBS (the flags are a local holding
//     the difference or result, 1 before any: herd's NZCV starts at 0,
//     where NE, GE and GT hold), B.EQ, B.NE, B.GE, B.GT, B.LE, B.LT, CBZ,
//     CBNZ, B; RISC-V beq, bne, blt, bge, j; to a label of the thread.
//   - Conditional selects: CSEL, CSINC, and the aliases CSET and CINC
//     (with herd's inverse condition) on EQ, NE, GE, GT, LE, LT: if
//     (flags) Wd = Wn; else Wd = Wm (+ 1);. herd gives Wd a data
//     dependency on the selected register only and the flags a pick
//     dependency (aarch64.cat): their reads are ordered before the writes
//     that depend on Wd only. The if orders them before every later write;
//     checkCSel reads a select when that is the same order (flags that
//     depend on no read, every later write depending on Wd, or CSEL
//     Wd,Wn,Wn on flags of Wn alone, then a move) and refuses it
//     otherwise.
//   - Barriers: DMB SY, ISH, OSH, NSH (fence;), DMB LD, ISHLD, ...
//     (fence load;: reads before it with every access after it), DMB ST,
//     ISHST, ... (fence store;), DSB as DMB except DSB ST (writes before it
//     with every access after it, as aarch64.cat's DSB-ob); RISC-V fence
//     PRED,SUCC (r, w, rw; i and o as r and w) as the pairs PRED x SUCC
//     (cs.MaskFence), fence alone as fence rw,rw, fence.tso (fence tso;).
//   - Atomic instructions are one atomic step each, with the order of
//     their suffix (cs.AtomicStmt.Ann: A acquire, L release, AL both, .aq,
//     .rl, .aqrl; none: cs.Relaxed): SWP, CAS (old = x; if old == Rs then
//     x = Rt else Rs = old: when it swaps Rs keeps its value, which herd
//     lets come from Rs without a dependency on the read), LDADD, LDEOR,
//     LDSET, LDCLR, LDSMAX, LDSMIN and their ST forms; RISC-V amoswap,
//     amoadd, amoxor, amoor, amoand, amomax, amomin (.w, .d). An AArch64
//     instruction whose loaded value goes to the zero register (and
//     ST<op>) has no acquire order, as the Arm ARM says, and is marked
//     cs.NoRet: herd's NoRet reads, which DMB LD does not order, a full
//     barrier does. When a CAS swaps, herd lets Rs keep its value or take
//     the value read; fencer has both when a read's address depends on Rs
//     and no write follows the CAS (checkCAS), else Rs takes the value
//     read, which orders the writes that depend on it as both do.
//   - Exclusives: a load-exclusive (LDXR, LDAXR, lr) and the next
//     store-exclusive of its thread (STXR, STLXR, sc) to the same
//     location, with only register instructions between them, are one
//     atomic step that reads, runs them, and then either writes (status
//     register 0) or not (1): herd has both. Its order is the load's
//     acquire and the store's release. A store-exclusive in a thread
//     without load-exclusive fails (status 1); any other use is refused.
//   - A step whose write may not happen (a CAS that fails, a
//     store-exclusive that fails) has no release on its path without
//     write, as in herd, where the release is the write's: with a release
//     it is if (*) atomic(order) { ... } else atomic(order without
//     release) { ... } (splitRelease).
//
// Refused with file:line:col: other instructions (ISB: the order it gives
// after a control dependency is not expressed, and a DMB would order
// more; CSINV, CSNEG, CSETM, TBZ, byte and half-word accesses,
// pre-indexed addresses, unsigned comparisons and AMOs, fence.i), CSET
// and CINC with GE (herd7 inverts GE to GT), the selects checkCSel
// refuses, a post-indexed base read again, a computed address whose
// offset is not known statically, an address dependency into an atomic
// instruction, a read whose address depends on a CAS's Rs with a write
// after the CAS, a read of a CAS's location ordered before another read
// when something may be ordered before the CAS's read or Rs (fencer's
// engine orders it after them, herd does not: checkCAS), LDAPR
// and RISC-V's sw.aqrl while package cs cannot lower an acquire-pc read
// or an acquire-release write (probed: they are read as soon as it can).
//
// # The condition
//
// fencer answers the question herd answers: is the outcome reachable. The
// outcome is P for exists and ~exists, and not P for forall; it is the bad
// state, so verify exits 1 (with a trace) when it is reachable and 0 when
// it is not, and insert returns the fewest MFENCEs that make it
// unreachable. A filter F makes the bad state F and the outcome (herd
// answers for the executions F keeps). When the outcome is a conjunction of register equalities,
// each thread ends with assume(its conjuncts); outcome: skip; and the bad
// state is every such thread at "outcome". Otherwise (final memory values,
// disjunctions, negations) every thread ends with a locked step that
// copies the registers the condition reads to shared variables P<i>_<REG>
// and sets a flag done<i>, and an observer process Obs waits for every
// flag and evaluates the outcome on the final memory: the locked steps come
// after each thread's last instruction and are not fence sites, so the
// outcomes and fence counts are those of the test. In AArch64 and RISCV
// tests the copies are plain writes followed by a release write of the
// flag, which Obs reads with acquire reads: every access of a thread is
// then ordered before Obs's reads, so Obs reads the coherence-last value
// of each location, as herd's final state has it.
//
// # Writing fences and changes back (edit.go)
//
// InsertFences adds a row after the row of each fenced write, with MFENCE
// (mfence in an X86_64 test, DMB ISH in AArch64, fence rw,rw in RISCV) in
// the columns that need one, and prints the table again with aligned
// columns; the text before and after the table is unchanged (comments
// inside the table are not kept). EditFences also takes full fences out
// of their cells (insert --reconsider; a row left empty goes, a label in
// the cell stays); it writes no store fence into an x86 test
// (Reader.StoreFences says why; DMB ISHST and fence w,w in the weak
// dialects).
//
// EditChanges (cs.ChangeEditor) writes the changes of fencer insert under
// the axiomatic models: a barrier of a kind after a site, as a new row in
// the dialect's syntax (DMB ISH, DMB ISHLD, DMB ISHST; fence rw,rw, fence
// r,rw, fence rw,w, fence w,w, fence.tso and any other fence PRED,SUCC; X86
// MFENCE; a kind without an instruction is an error, and barriers at one
// place become one when the dialect has an instruction for their union),
// and an access raised to acquire or release by rewriting its
// instruction in its cell (LDR to LDAR or LDAPR, STR to STLR, LDXR to
// LDAXR, STXR to STLXR, the A/L suffixes of SWP, CAS, LD<op>, ST<op>; lw
// to lw.aq, sw to sw.rl, the suffixes of lr, sc and the AMOs; the case of
// the mnemonic is kept). A site maps to the row before or after the
// statement it lies next to; a site inside an exclusive pair, one after
// the steps fencer adds for the outcome, and a raise of an LDR with an
// offset, index or post-index (LDAR takes [Xn] only), and an acquire on
// an atomic instruction that returns nothing, are errors. Reader.CanRaise
// tells insert which accesses it may raise.
package litmus
