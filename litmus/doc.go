// Package litmus reads herd/litmus7 litmus tests of the X86 architecture
// and builds the concurrent system that package cs builds for a .cs
// program: it builds the .cs syntax tree with positions in the .litmus
// file and lowers it with cs.Lower (one semantics, errors and traces at
// file:line:col of the test).
//
// # Format
//
// The first line is "X86 NAME"; what follows up to the '{' (a quoted doc
// string, key=value lines, (* comments *)) is skipped. The initial state
// { x=0; y=1; 0:EAX=1; int z=0; } gives memory and register values (all
// others are 0). The program is a table "P0 | P1 | ... ;" with one row of
// instructions per line, columns separated by '|', rows ended by ';';
// empty cells are allowed. Then the final condition: exists P, ~exists P
// or forall P, where P combines P:REG=n, x=n and [x]=n (also !=) with /\,
// \/, ~ and parentheses. A locations [...] clause is skipped.
//
// # Instructions
//
//   - MOV [x],$n / MOV [x],R: a write (a fence site, its text the
//     instruction); MOV R,[x]: a read; MOV R,$n / MOV R,R2: local.
//   - MFENCE: fence;. LFENCE: nothing (loads are never reordered with loads
//     in TSO and PSO). SFENCE: refused (no store-store fence yet).
//   - XCHG [x],R (either operand order, with or without LOCK):
//     R = swap(x, R). LOCK XADD [x],R: R = fetch_add(x, R).
//     LOCK CMPXCHG [x],R: atomic { old = x; if (old == EAX) x = R; else
//     EAX = old; }. LOCK INC/DEC [x], LOCK ADD/SUB [x],src: an atomic
//     read-modify-write. The flags (ZF, ...) are not modelled; jumps,
//     labels and other instructions are refused.
//
// # The condition
//
// fencer answers the question herd answers: is the outcome reachable. The
// outcome is P for exists and ~exists, and not P for forall; it is the bad
// state, so verify exits 1 (with a trace) when it is reachable and 0 when
// it is not, and insert returns the fewest MFENCEs that make it
// unreachable. When the outcome is a conjunction of register equalities,
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
// in the columns that need one, and prints the table again with aligned
// columns; the text before and after the table is unchanged (comments
// inside the table are not kept).
package litmus
