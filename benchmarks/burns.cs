// Burns' mutual exclusion algorithm (the Burns-Lynch one-bit algorithm), two
// processes.
//
// Source: N. Lynch and B. Patt-Shamir, Distributed Algorithms, lecture notes
// for 6.852, MIT, 1993 (reference [19] of the SAS 2012 paper); J. E. Burns and
// N. A. Lynch, "Mutual exclusion using indivisible reads and writes", 1980.
// Process i (of n) in the notes:
//
//   L: flag[i] := 0
//      for j in 0..i-1: if flag[j] = 1 then goto L
//      flag[i] := 1
//      for j in 0..i-1: if flag[j] = 1 then goto L
//   M: for j in i+1..n-1: if flag[j] = 1 then goto M
//      critical section
//      flag[i] := 0
//      remainder, then back to L
//
// The algorithm is asymmetric (a process only defers to lower indices at L
// and waits for higher ones at M), so the two instances for n = 2 are
// written out as two processes; the empty `for` loops disappear.
//
// Expected fences: under TSO each process needs a fence after its
// `flag[i] = 1` (the write is followed by reads of the other flag: the store
// buffering shape). Table 1 gives 1 fence per process; with two separate
// processes these are two distinct write statements, hence fences=2.

// Checked with fencer's explicit-state checker (kabs.Concrete, every subset of the
// fence sites up to the size shown):
// TSO: every set of at most 2 sites other than {after `flag[0] = 1;`, after
// `flag[1] = 1;`} has a counterexample. That set itself cannot be explored to
// the end (P1's retry loop at L fills its buffer with `flag[1] = 0` writes
// without bound); adding a fence after P1's first `flag[1] = 0;` makes the
// state space finite and safe.
//
// fences per process from Table 1 of the SAS 2012 paper; confirmed by fencer (a verified minimum over write sites)
// fencer: expect sc safe
// fencer: expect tso fences=2
// fencer: expect pso fences=2
// pso: each process writes a single variable (its own flag), so PSO behaves
// exactly as TSO here; the explicit checker gives the same results as for TSO.

shared flag[2];

process P0 {
L:  flag[0] = 0;
    flag[0] = 1;
M:  if (flag[1] == 1) goto M;
cs: skip;
    flag[0] = 0;
    goto L;
}

process P1 {
L:  flag[1] = 0;
    if (flag[0] == 1) goto L;
    flag[1] = 1;
    if (flag[0] == 1) goto L;
cs: skip;
    flag[1] = 0;
    goto L;
}

mutex cs;
// fencer: expect arm fences=2
// fencer: expect riscv fences=2
// fencer: expect rmo fences=2
