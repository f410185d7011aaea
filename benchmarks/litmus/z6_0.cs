// Test Z6.0. Shape as Z6.0.litmus of the x86 litmus collection
// (litmus-tests/litmus-tests-x86, tests/non-mixed-size/BASIC_3_THREAD,
// diy7-generated), exists (z=2 /\ 1:rax=1 /\ 2:rax=0). The collection gives
// no outcome; it follows from the x86-TSO machine (CACM 2010, Sewell et
// al., §3): allowed, through P2's write->read pair.
//
//   P0: x = 1; y = 1;   P1: r1 = y; z = 1;   P2: z = 2; r2 = x;
//   outcome: r1 == 1 && r2 == 0 && final z == 2
//
// Final memory is observed by Obs after the writers announce "done" with a
// locked exchange (`swap`, not a fence site), as in n6.cs.
//
// SC: forbidden (z = 2 < P2 reads x == 0 < x = 1 < y = 1 < P1 reads y <
//     z = 1: final z == 1).
// TSO: allowed: P2 buffers z = 2 and reads x == 0; P0 writes x = 1, y = 1;
//     P1 reads y == 1 and writes z = 1; then z = 2 drains. Fences: a fence
//     after `z = 2;` gives SC's argument (P0's writes stay in order under
//     TSO). Minimum 1.
// PSO: allowed. With the fence after `z = 2;` only, P0's y = 1 may reach
//     memory first (SPARC V9, Appendix D): y = 1, P1 reads 1 and writes
//     z = 1, P2 writes z = 2 (fence) and reads x == 0, then x = 1: final
//     z == 2. With a fence after `x = 1;` only, the TSO run remains. Both
//     give SC's argument. Minimum 2.
//
// fencer: expect sc safe
// fencer: expect tso fences=1
// fencer: expect pso fences=2

shared x, y, z, done0, done1, done2;

process P0 {
  local t;
  x = 1;
  y = 1;
  t = swap(done0, 1);
}

process P1 {
  local r1, t;
  r1 = y;
  z = 1;
  t = swap(done1, 1);
  if (r1 == 1) { a1: skip; }
}

process P2 {
  local r2, t;
  z = 2;
  r2 = x;
  t = swap(done2, 1);
  if (r2 == 0) { a2: skip; }
}

process Obs {
  local fz;
  assume(done0 == 1 && done1 == 1 && done2 == 1);
  fz = z;
  if (fz == 2) { ob: skip; }
}

forbidden P1@a1, P2@a2, Obs@ob;
// fencer: expect arm fences=4
// fencer: expect riscv fences=4
// fencer: expect rmo fences=4
