// Test 3.2W: 2+2W around a ring of three processes. Shape as 3.2W.litmus of
// the x86 litmus collection (litmus-tests/litmus-tests-x86,
// tests/non-mixed-size/BASIC_3_THREAD, diy7-generated), exists (x=2 /\ y=2
// /\ z=2). The collection gives no outcome; it follows from the x86-TSO
// machine (CACM 2010, Sewell et al., §3): forbidden, as 2+2W.
//
//   P0: x = 2; y = 1;   P1: y = 2; z = 1;   P2: z = 2; x = 1;
//   outcome: final x == 2 && y == 2 && z == 2
//
// Final memory is observed by Obs after the writers announce "done" with a
// locked exchange (`swap`, not a fence site), as in n6.cs.
//
// SC: forbidden: x == 2 final needs x = 1 < x = 2, and so on around the
//     ring; with program order x = 2 < y = 1, y = 2 < z = 1, z = 2 < x = 1
//     the six writes form a cycle.
// TSO: forbidden (writes reach memory in program order: SC's argument).
// PSO: allowed (SPARC V9, Appendix D: stores to different locations may be
//     reordered). Fences: with P0 and P1 fenced only, P2's writes may be
//     reordered: x = 1 (P2), x = 2, y = 1 (P0), y = 2, z = 1 (P1), z = 2
//     (P2) is a run with all three final values 2; by rotation the same for
//     any two. A fence after each process's first write gives SC's
//     argument. Minimum 3.
//
// fencer: expect sc safe
// fencer: expect tso safe
// fencer: expect pso fences=3

shared x, y, z, done0, done1, done2;

process P0 {
  local t;
  x = 2;
  y = 1;
  t = swap(done0, 1);
}

process P1 {
  local t;
  y = 2;
  z = 1;
  t = swap(done1, 1);
}

process P2 {
  local t;
  z = 2;
  x = 1;
  t = swap(done2, 1);
}

process Obs {
  local fx, fy, fz;
  assume(done0 == 1 && done1 == 1 && done2 == 1);
  fx = x;
  fy = y;
  fz = z;
  if (fx == 2 && fy == 2 && fz == 2) { ob: skip; }
}

forbidden Obs@ob;
// fencer: expect arm fences=4
// fencer: expect riscv fences=4
// fencer: expect rmo fences=4
