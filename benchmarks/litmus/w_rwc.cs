// Test W+RWC. Shape as W+RWC.litmus of the x86 litmus collection
// (litmus-tests/litmus-tests-x86, tests/non-mixed-size/BASIC_3_THREAD,
// diy7-generated), exists (1:rax=1 /\ 1:rbx=0 /\ 2:rax=0). The collection
// gives no outcome; it follows from the x86-TSO machine (CACM 2010, Sewell
// et al., §3): allowed, through P2's write->read pair.
//
//   P0: x = 1; y = 1;   P1: r1 = y; r2 = z;   P2: z = 1; r3 = x;
//   outcome: r1 == 1 && r2 == 0 && r3 == 0
//
// SC: forbidden (z = 1 < P2 reads x == 0 < x = 1 < y = 1 < P1 reads y <
//     P1 reads z, which then returns 1).
// TSO: allowed: P2 buffers z = 1, reads x == 0; P0 writes x = 1, y = 1; P1
//     reads y == 1, z == 0; then z = 1 drains. Fences: a fence after
//     `z = 1;` gives SC's argument (P0's writes stay in order under TSO).
//     Minimum 1.
// PSO: allowed. With the fence after `z = 1;` only, P0's y = 1 may reach
//     memory before x = 1 (SPARC V9, Appendix D): y = 1, P1 reads y == 1
//     and z == 0, P2 writes z = 1 (fence) and reads x == 0, then x = 1:
//     allowed. With a fence after `x = 1;` only, the TSO run remains. Both
//     give SC's argument. Minimum 2.
//
// fencer: expect sc safe
// fencer: expect tso fences=1
// fencer: expect pso fences=2

shared x, y, z;

process P0 {
  x = 1;
  y = 1;
}

process P1 {
  local r1, r2;
  r1 = y;
  r2 = z;
  if (r1 == 1 && r2 == 0) { a1: skip; }
}

process P2 {
  local r3;
  z = 1;
  r3 = x;
  if (r3 == 0) { a2: skip; }
}

forbidden P1@a1, P2@a2;
// fencer: expect arm fences=3
// fencer: expect riscv fences=3
// fencer: expect rmo fences=3
