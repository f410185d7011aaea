// Test WWC (write-to-write causality). Shape as WWC.litmus of the x86
// litmus collection (litmus-tests/litmus-tests-x86,
// tests/non-mixed-size/BASIC_3_THREAD, diy7-generated), exists (x=2 /\
// 1:rax=2 /\ 2:rax=1). The collection gives no outcome; it follows from
// the x86-TSO machine (CACM 2010, Sewell et al., §3): forbidden.
//
//   P0: x = 2;   P1: r1 = x; y = 1;   P2: r2 = y; x = 1;
//   outcome: r1 == 2 && r2 == 1 && final x == 2
//
// Final memory is observed by Obs after the writers announce "done" with a
// locked exchange (`swap`, not a fence site), as in n6.cs.
//
// SC: forbidden (x = 2 < P1 reads x < y = 1 < P2 reads y < x = 1: final
//     x == 1).
// TSO: forbidden (same argument: P1 and P2 read from memory, not from
//     their own buffers, and a write is issued only after the read before
//     it).
// PSO: forbidden, by the same argument: PSO never lets a store overtake an
//     earlier load (SPARC V9, Appendix D), and every process writes one
//     variable. No fence is needed.
//
// fencer: expect sc safe
// fencer: expect tso safe
// fencer: expect pso safe

shared x, y, done0, done1, done2;

process P0 {
  local t;
  x = 2;
  t = swap(done0, 1);
}

process P1 {
  local r1, t;
  r1 = x;
  y = 1;
  t = swap(done1, 1);
  if (r1 == 2) { a1: skip; }
}

process P2 {
  local r2, t;
  r2 = y;
  x = 1;
  t = swap(done2, 1);
  if (r2 == 1) { a2: skip; }
}

process Obs {
  local fx;
  assume(done0 == 1 && done1 == 1 && done2 == 1);
  fx = x;
  if (fx == 2) { ob: skip; }
}

forbidden P1@a1, P2@a2, Obs@ob;
// fencer: expect arm fences=3
// fencer: expect riscv fences=3
// fencer: expect rmo fences=3
