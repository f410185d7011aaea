// Test RWC (read-to-write causality). Shape as RWC.litmus of the x86
// litmus collection (litmus-tests/litmus-tests-x86,
// tests/non-mixed-size/BASIC_3_THREAD, diy7-generated), exists (1:rax=1 /\
// 1:rbx=0 /\ 2:rax=0). The collection gives no outcome; it follows from
// the x86-TSO machine (CACM 2010, Sewell et al., §3): allowed, through
// P2's write->read pair (the SB relaxation, SDM 8-3).
//
//   P0: x = 1;   P1: r1 = x; r2 = y;   P2: y = 1; r3 = x;
//   outcome: r1 == 1 && r2 == 0 && r3 == 0
//
// SC: forbidden (y = 1 < P2 reads x == 0 < x = 1 < P1 reads x < P1 reads
//     y, which then returns 1).
// TSO: allowed: P2 buffers y = 1 and reads x == 0; P0 writes x = 1; P1
//     reads x == 1 and y == 0; then y = 1 drains. Fences: a fence after
//     `y = 1;` gives SC's argument; P0's only write is its last statement.
//     Minimum 1.
// PSO: allowed (PSO allows all TSO behaviours); one variable written per
//     process, so PSO = TSO here: minimum 1.
//
// fencer: expect sc safe
// fencer: expect tso fences=1
// fencer: expect pso fences=1

shared x, y;

process P0 {
  x = 1;
}

process P1 {
  local r1, r2;
  r1 = x;
  r2 = y;
  if (r1 == 1 && r2 == 0) { a1: skip; }
}

process P2 {
  local r3;
  y = 1;
  r3 = x;
  if (r3 == 0) { a2: skip; }
}

forbidden P1@a1, P2@a2;
// fencer: expect arm fences=2
// fencer: expect riscv fences=2
// fencer: expect rmo fences=2
