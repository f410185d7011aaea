// Package cfront is fencer's C front end: it reads one C11 file that starts
// threads with pthreads (the contract is ../shared/C-INPUT.md, the user's
// page docs/c.md) and builds the same concurrent system as the .cs
// language, through a .cs syntax tree (cs.Program) lowered by cs.Lower, so
// that the one engine analyses it.
//
// # Pipeline
//
// modernc.org/cc/v4 preprocesses the file with the host gcc's configuration
// (predefined macros and include paths), with fencer's analysis-only
// <stdatomic.h> and <assert.h> (include/) ahead of the system's, so that the
// C11 atomic operations and assert are calls by name; it parses and type
// checks the file (parse.go). The translation (translate.go, stmts.go,
// exprs.go, calls.go) builds the .cs tree: file-scope integers, arrays and
// struct fields become shared variables; main and each created thread
// become processes, every call of a function of the file is inlined; each
// node carries the byte offset of the construct in the original .c file, so
// every site, trace step and error names file.c:LINE:COL. InsertFences
// (patch.go) writes fences back into the C text.
//
// # Targets
//
// Reader.Target chooses the mapping of C11 atomics (target.go; the table
// of ../shared/C-INPUT.md). The default one is x86's and SPARC's for the
// store-buffer models: every order is in fences and locked steps. Under
// the targets of the axiomatic models (TargetARM, TargetRISCV, TargetRMO,
// TargetOf(model)) an acquire or seq_cst load is a read of its own into a
// temporary, "acquire r = x;" on AArch64 (LDAR), "r = x; fence load;" on
// RISC-V and RMO (with "fence;" or "fence storeload;" before a seq_cst
// one); a release or seq_cst store is "release x = v;" (STLR) or the
// write with "fence release;" before it (and "fence;" or "fence
// storeload;" after a seq_cst one); a plain access of an _Atomic
// variable is seq_cst, as in C; atomic_thread_fence is the barrier it
// compiles to (acquire: fence load, DMB ISHLD; release and acq_rel: DMB
// ISH on AArch64, fence release and fence tso elsewhere); a
// read-modify-write is one atomic step whose annotation is its order
// (cs.AtomicStmt.Ann, AArch64 and RISC-V), or on RMO a relaxed step
// between the membars of a load and a store of its order;
// pthread_mutex_lock is an acquire step, unlock a release store. Asm
// statements are the target's barrier instructions (dmb, fence,
// membar).
//
// Under these targets a fence site is the point after every C statement
// that accesses shared memory and before such a statement that begins
// the body of an if, else or loop (Site.AfterWrite; CanFence).
// EditChanges (changes.go, cs.ChangeEditor) writes a barrier there as the
// weakest atomic_thread_fence that orders what it must (or the target's
// instruction in the asm style), and raises the memory_order argument of
// a relaxed atomic_load_explicit or atomic_store_explicit (CanRaise).
//
// # Fence sites
//
// Under the default target a fence site is the point right after a C
// statement that writes shared memory through a store buffer (a plain,
// volatile or relaxed/release store). The statements that the
// translation adds (reads into temporaries, the branches of a
// short-circuit, the steps that start and join threads) get empty spans,
// so that they are never sites; Parse marks the sites after C write
// statements (Site.AfterWrite) and only those.
//
// # Data races
//
// Reader.Races (races.go) decides the data-race warnings on the runs:
// package races searches the SC runs of the file read under TargetARM,
// where every access keeps its C11 order, given which accesses the
// translation found plain (neither _Atomic nor volatile: access.plain)
// and the order of each atomic_thread_fence (fenceOrders, which the
// barrier it compiles to does not tell). A program with no plain
// variable that two processes access, one writing (mayRace, on the
// translation the command made), is not read again. The static check
// (every plain variable two threads share, raceWarnings) is only the
// fall back for a file the AArch64 mapping refuses.
package cfront
