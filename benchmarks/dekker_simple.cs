// Simple Dekker: the simplified two-flag version of Dekker's algorithm.
//
// Source: D. Weaver and T. Germond (eds.), The SPARC Architecture Manual,
// Version 9, 1994 (reference [24] of the SAS 2012 paper), which shows this
// lock with a `membar #StoreLoad` between the store of the own flag and the
// load of the other's:
//
//   busy: A := 1; membar #StoreLoad
//         if B != 0 then { A := 0; goto busy }
//         critical section
//         A := 0
//
// No `turn`: it guarantees mutual exclusion but not progress (both may back
// off forever), which is all the safety property needs. Symmetric, so it is
// written as a template; flag[i] is "A" of process i, flag[1 - i] its "B".
//
// Expected fences: under TSO one fence after `flag[i] = 1;` (the place of the
// membar); one site for both instances.

// Checked with fencer's explicit-state checker (kabs.Concrete, every subset of the
// fence sites up to the size shown):
// TSO: no fence has a counterexample; a fence after `flag[i] = 1;` is safe
// (finite state space, explored to the end).
//
// fences per process from Table 1 of the SAS 2012 paper; confirmed by fencer (a verified minimum over write sites)
// fencer: expect sc safe
// fencer: expect tso fences=1
// fencer: expect pso fences=1
// pso: derived with the explicit checker (same results as TSO; each process
// writes only its own flag); fencer finds the same count.

shared flag[2];

process P[i in 0..1] {
L:  flag[i] = 1;
    if (flag[1 - i] != 0) {
      flag[i] = 0;
      goto L;
    }
cs: skip;
    flag[i] = 0;
    goto L;
}

mutex cs;
// fencer: expect arm fences=1
// fencer: expect riscv fences=1
// fencer: expect rmo fences=1
