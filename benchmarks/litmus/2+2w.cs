// Test 2+2W (PodWW Coe PodWW Coe). Shape as 2+2W.litmus of the x86 litmus
// collection (litmus-tests/litmus-tests-x86, BASIC_2_THREAD), exists
// (x=2 /\ y=2). Outcome from the x86-TSO machine (CACM 2010, Sewell et al.,
// §3): forbidden (each store buffer is FIFO); SDM 8-1 "stores are not
// reordered with other stores".
//
//   P0: x = 2; y = 1;       P1: y = 2; x = 1;
//   outcome: final x == 2 && final y == 2
//
// Final memory is observed by Obs after both writers announce "done" with
// a locked exchange (`swap`, not a fence site), as in n6.cs.
//
// SC: forbidden: final x == 2 needs x = 1 < x = 2, final y == 2 needs
//     y = 1 < y = 2; with program order x = 2 < y = 1 and y = 2 < x = 1
//     this is a cycle.
// TSO: forbidden (writes reach memory in program order: the SC argument).
// PSO: allowed (SPARC V9, Appendix D: stores to different locations may be
//     reordered): y = 1 and x = 1 reach memory first, then x = 2 and y = 2.
//     Fences: with a fence after `x = 2;` only, P1 still reorders:
//     x = 1 (P1), x = 2 (P0, fence), y = 1 (P0), y = 2 (P1) gives x == 2
//     and y == 2; symmetrically for a fence after `y = 2;` only. The last
//     writes have only the swap after them. Both fences give the SC
//     argument. Minimum 2.
//
// fencer: expect sc safe
// fencer: expect tso safe
// fencer: expect pso fences=2

shared x, y, done0, done1;

process P0 {
  local t;
  x = 2;
  y = 1;
  t = swap(done0, 1);
}

process P1 {
  local t;
  y = 2;
  x = 1;
  t = swap(done1, 1);
}

process Obs {
  local fx, fy;
  assume(done0 == 1 && done1 == 1);
  fx = x;
  fy = y;
  if (fx == 2 && fy == 2) { ob: skip; }
}

forbidden Obs@ob;
// fencer: expect arm fences=3
// fencer: expect riscv fences=3
// fencer: expect rmo fences=3
