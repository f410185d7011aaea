// Package progen writes random .cs programs for the differential tests of
// cegar and robust, and for a benchmark of fencer's unknowns: four
// families of shapes (Program and Accesses share one generator, gen: the
// shared variables, the choice of a variable, the writing of a line).
//
//   - Program: finite-state programs of the kind users write, built
//     around a litmus shape (store buffering, message passing, a
//     Dekker-style mutex, templates) with random statements, labels and
//     gotos mixed in, and a property (forbidden, mutex or assert). The
//     engine's differential suite (cegar) runs them against the explicit
//     checker and the reference semantics.
//   - Accesses: programs of reads, writes, fences, atomics, branches and
//     counter-bounded loops without a property, some processes only
//     writing or only reading so that robust programs are common. The
//     robustness suite (robust) compares its verdicts with the explicit
//     checker's reachable states.
//   - Ring: small loop-free programs of 3 or 4 processes over a ring of
//     flags with counters and read-modify-writes, of the kind that made
//     fencer answer unknown at its state limit (issue 25).
//     BenchmarkUnknowns (not a test: it runs the fencer binary on each
//     program and takes minutes) counts how often fencer answers unknown
//     where package refsem, an independent interpreter, decides, and any
//     answer that disagrees.
//   - LoopRing: 3 or 4 copies of a process with a counter-bounded loop
//     that writes, a ring of flags and a guarded increment (issue 38).
//     BenchmarkLoopRing times fencer insert against an exact explicit
//     search of the same program (refsem), before and after a change in
//     one run.
//
// SBRing and TwoSBPairs are fixed store-buffering programs that the
// tests of cegar (symmetry, shrinking) and fences (shrinking) share.
//
// The same seed gives the same program, so a failing seed can be run
// again (FENCER_SEED). It is for tests only.
package progen
