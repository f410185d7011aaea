// Peterson's mutual exclusion algorithm for two processes (1981).
//
// Source: G. L. Peterson, "Myths about the mutual exclusion problem", IPL
// 12(3), 1981 (reference [21] of the SAS 2012 paper):
//
//   P1: Q1 := true; TURN := 1;
//       wait until not Q2 or TURN = 2;
//       critical section;
//       Q1 := false
//   (P2 symmetric: Q2 := true; TURN := 2; wait until not Q1 or TURN = 1)
//
// Processes are 0 and 1: process i sets turn to its own index and waits
// while the other's flag is up and turn is still its own. turn starts at 0
// (Peterson leaves it arbitrary). Symmetric: written as a template.
//
// Expected fences: under TSO one fence after `turn = i;` (after the flag
// alone is not enough: a late `turn = i` reaching memory can let the other
// process in).

// Checked with fencer's explicit-state checker (kabs.Concrete, every subset of the
// fence sites up to the size shown):
// TSO: no fence, or a fence after `flag[i] = 1;` only, has a counterexample;
// a fence after `turn = i;` is safe (finite state space, explored to the end).
//
// fences per process from Table 1 of the SAS 2012 paper; confirmed by fencer (a verified minimum over write sites)
// fencer: expect sc safe
// fencer: expect tso fences=1
// fencer: expect pso fences=2
// pso: derived with the explicit checker: every set of at most 2 sites other
// than {after `flag[i] = 1;`, after `turn = i;`} has a counterexample (under PSO
// `turn = i` can reach memory before `flag[i] = 1`), and that set is safe;
// fencer finds the same count.

shared flag[2], turn;

process P[i in 0..1] {
  while (true) {
    flag[i] = 1;
    turn = i;
    while (flag[1 - i] == 1 && turn == i) { }
cs: skip;
    flag[i] = 0;
  }
}

mutex cs;
// fencer: expect arm fences=2
// fencer: expect riscv fences=2
// fencer: expect rmo fences=2
