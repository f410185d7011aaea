// Test S (PodWW Rfe PodRW Coe). Shape as S.litmus of the x86 litmus
// collection (litmus-tests/litmus-tests-x86, BASIC_2_THREAD), exists
// (x=2 /\ 1:rax=1). Outcome from the x86-TSO machine (CACM 2010, Sewell et
// al., §3): forbidden (only write->read pairs are relaxed on x86).
//
//   P0: x = 2; y = 1;       P1: r1 = y; x = 1;
//   outcome: r1 == 1 && final x == 2
//
// Final memory is observed by Obs after both writers announce "done" with
// a locked exchange (`swap`, not a fence site), as in n6.cs.
//
// SC: forbidden: x = 2 < y = 1 < P1's read < x = 1, so final x == 1.
// TSO: forbidden: P0's buffer is FIFO, so x = 2 is in memory before y = 1,
//     which P1 reads before issuing x = 1: final x == 1.
// PSO: allowed (SPARC V9, Appendix D: stores to different locations may be
//     reordered): y = 1 reaches memory first, P1 reads 1 and writes x = 1,
//     then P0's x = 2 reaches memory: final x == 2. Fences: a fence after
//     `x = 2;` restores the TSO order of P0's writes: forbidden. P1's read
//     and write are never reordered, and nothing follows P0's `y = 1;` or
//     P1's `x = 1;` but the locked swap. Minimum 1.
//
// fencer: expect sc safe
// fencer: expect tso safe
// fencer: expect pso fences=1

shared x, y, done0, done1;

process P0 {
  local t;
  x = 2;
  y = 1;
  t = swap(done0, 1);
}

process P1 {
  local r1, t;
  r1 = y;
  x = 1;
  t = swap(done1, 1);
  assume(r1 == 1);
a1: skip;
}

process Obs {
  local fx;
  assume(done0 == 1 && done1 == 1);
  fx = x;
  assume(fx == 2);
ob: skip;
}

forbidden P1@a1, Obs@ob;
// fencer: expect arm fences=3
// fencer: expect riscv fences=3
// fencer: expect rmo fences=3
