// Full Dekker: Dekker's algorithm with `turn`, as presented by Dijkstra.
//
// Source: E. W. Dijkstra, "Cooperating sequential processes" (EWD123, 1965),
// section 2.1 (reference [12] of the SAS 2012 paper):
//
//   c1 := 1; c2 := 1; turn := 1;
//   process 1: A1: c1 := 0;
//              L1: if c2 = 0 then
//                    begin if turn = 1 then goto L1;
//                          c1 := 1;
//                      B1: if turn = 2 then goto B1;
//                          goto A1
//                    end;
//                  critical section 1;
//                  turn := 2; c1 := 1;
//                  remainder of cycle 1; goto A1
//
// Dijkstra's encoding is kept: c[i] = 0 means "process i wants to enter",
// and c starts at 1. Processes are numbered 0 and 1 instead of 1 and 2, so
// turn starts at 0 (Dijkstra's turn := 1, the first process). Symmetric:
// written as a template, process i's "other" is 1 - i.
//
// Note that after backing off the process goes back to A1 and lowers its
// flag with the same statement, so there is a single "I want to enter"
// write. (The textbook variant that re-raises the flag inside the loop has a
// second such write, and needs a second fence under TSO.)
//
// Expected fences: under TSO one fence after `c[i] = 0;` at A.

// Checked with fencer's explicit-state checker (kabs.Concrete, every subset of the
// fence sites up to the size shown):
// TSO: no fence has a counterexample; a fence after `c[i] = 0;` is safe
// (finite state space, explored to the end).
//
// fences per process from Table 1 of the SAS 2012 paper; confirmed by fencer (a verified minimum over write sites)
// fencer: expect sc safe
// fencer: expect tso fences=1
// fencer: expect pso fences=1
// pso: derived with the explicit checker (no fence: counterexample; a fence
// after `c[i] = 0;`: safe); fencer finds the same count.

shared c[2] = 1, turn;

process P[i in 0..1] {
A:  c[i] = 0;
L:  if (c[1 - i] == 0) {
      if (turn == i) goto L;
      c[i] = 1;
B:    if (turn == 1 - i) goto B;
      goto A;
    }
cs: skip;
    turn = 1 - i;
    c[i] = 1;
    goto A;
}

mutex cs;
// fencer: expect arm fences=1
// fencer: expect riscv fences=1
// fencer: expect rmo fences=1
