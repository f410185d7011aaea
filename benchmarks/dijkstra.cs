// Dijkstra's mutual exclusion algorithm (1965), two processes.
//
// Source: E. W. Dijkstra, "Solution of a problem in concurrent programming
// control", CACM 8(9), 1965, in the form of N. Lynch and B. Patt-Shamir,
// Distributed Algorithms, lecture notes for 6.852, MIT, 1993 (reference [19]
// of the SAS 2012 paper). flag[i] is 0 (remainder), 1 (trying) or 2
// (about to enter); turn is a process index. Process i:
//
//   L: flag[i] := 1
//      while turn != i do
//        if flag[turn] = 0 then turn := i
//      flag[i] := 2
//      for j != i: if flag[j] = 2 then goto L
//      critical section
//      flag[i] := 0
//      remainder, then back to L
//
// With two processes, inside the while loop turn != i means turn = 1 - i
// (only process 1 - i ever writes 1 - i to turn, and process i leaves the
// loop as soon as it has written i), so `flag[turn]` is `flag[1 - i]`;
// fencer needs constant array indices. turn starts at 0 (the notes leave it
// arbitrary in 0..n-1; the safety argument does not depend on it).
// Symmetric: written as a template.
//
// Expected fences: under TSO one fence after `flag[i] = 2;`, which is
// followed by the read of the other flag (the store buffering shape).

// Checked with fencer's explicit-state checker (kabs.Concrete, every subset of the
// fence sites up to the size shown):
// TSO: every single site other than `flag[i] = 2;` has a counterexample;
// a fence after `flag[i] = 2;` is safe (finite state space, explored to the end).
//
// fences per process from Table 1 of the SAS 2012 paper; confirmed by fencer (a verified minimum over write sites)
// fencer: expect sc safe
// fencer: expect tso fences=1
// fencer: expect pso fences=1
// pso: derived with the explicit checker (same results as TSO); not yet
// confirmed by fencer.

shared flag[2], turn;

process P[i in 0..1] {
L:  flag[i] = 1;
    while (turn != i) {
      if (flag[1 - i] == 0) {
        turn = i;
      }
    }
    flag[i] = 2;
    if (flag[1 - i] == 2) goto L;
cs: skip;
    flag[i] = 0;
    goto L;
}

mutex cs;
// fencer: expect arm fences=1
// fencer: expect riscv fences=1
// fencer: expect rmo fences=1
