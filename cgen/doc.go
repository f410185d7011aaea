// Package cgen translates a concurrent system (cs.System) into C: the
// program's processes as pthreads over shared integer variables, with the
// memory operations mapped to what an x86 compiler emits for them.
//
// It works from the System, not from a source format, so every reader that
// builds a System (.cs, Memorax .rmm, herd .litmus, C) gets the same
// translation. Each process becomes one C function written as its automaton:
// one C label per control location and a goto per edge, so the C program
// performs exactly the memory operations of the model, in the same order.
//
// Two outputs share that translation:
//
//   - Plain (fencer show --c): a harness-free C11 program, threads and a main
//     that creates and joins them, with relaxed atomic loads and stores for
//     the model's reads and writes, atomic_thread_fence for fences, the C11
//     read-modify-write functions for cas, fetch_add and swap, and the
//     SV-COMP functions (__VERIFIER_nondet_long, __VERIFIER_assume,
//     __VERIFIER_atomic_begin/end) for nondeterminism, blocking and other
//     atomic blocks. Bad states are "// fencer: forbidden" lines and asserts.
//   - Harness (fencer run --hw): a program that runs the threads pinned to
//     distinct CPUs, round after round from a fresh initial state, and
//     counts the rounds in which each bad state of the program was reached,
//     without adding a fence to the threads (docs/hw.md says how).
//
// The memory mapping of the harness is x86's: a read is a volatile load (a
// MOV), a write a volatile store, fence is MFENCE, fence store only a
// compiler barrier (TSO keeps stores in order), cas, fetch_add and swap
// LOCK CMPXCHG, LOCK XADD and XCHG, and any other atomic block on one
// variable a CMPXCHG loop. An atomic block over several variables has no
// x86 instruction: the harness runs it under a lock of its own and says so
// (Harness.Warnings).
package cgen
