// Package progen writes random .cs programs for the differential tests of
// cegar and robust: one generator (gen: the shared variables, the choice of
// a variable, the writing of a line) with two families of shapes.
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
//
// The same seed gives the same program, so a failing seed can be run
// again (FENCER_SEED). It is for tests only.
package progen
