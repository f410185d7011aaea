// Package litmus reads herd/litmus7 litmus tests of the X86 and X86_64
// architectures and builds the concurrent system that package cs builds for a .cs
// program: it builds the .cs syntax tree with positions in the .litmus
// file and lowers it with cs.Lower (one semantics, errors and traces at
// file:line:col of the test).
//
// # Format
//
// The first line is "X86 NAME" (Intel syntax: MOV [x],$1, MOV EAX,[x]) or
// "X86_64 NAME" (AT&T syntax: movl $1,(x), movl (x),%eax); what follows
// up to the '{' (a quoted doc string, key=value lines, (* comments *)) is
// skipped. The initial state gives memory and register values, with or
// without a C type ({ x=0; int y=1; uint64_t z; [w]=2; 0:EAX=1; }; all
// others are 0), addresses held by registers (0:EBX=x) and arrays
// (int64_t t[2]={1,-1}). The program is a table "P0 | P1 | ... ;" with one
// row of instructions per line, columns separated by '|', rows ended by
// ';'; empty cells and label cells ("L0:") are allowed. Then an optional
// filter P and the final condition: exists P, ~exists P or forall P, where
// P combines P:REG=n, x=n and [x]=n (also !=) with /\, \/, ~ and
// parentheses. A locations [...] clause is skipped.
//
// # Instructions (instr.go, sem.go, mem.go)
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
// outcomes and fence counts are those of the test.
//
// # Writing fences back
//
// InsertFences adds a row after the row of each fenced write, with MFENCE
// (mfence in an X86_64 test) in the columns that need one, and prints the table again with aligned
// columns; the text before and after the table is unchanged (comments
// inside the table are not kept). EditFences also takes MFENCEs out of
// their cells (insert --reconsider; a row left empty goes); it writes no
// store fence (Reader.StoreFences says why).
package litmus
