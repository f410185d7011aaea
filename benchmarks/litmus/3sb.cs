// Test 3.SB: store buffering around a ring of three processes. Shape as
// 3.SB.litmus of the x86 litmus collection (litmus-tests/litmus-tests-x86,
// tests/non-mixed-size/BASIC_3_THREAD, diy7-generated), exists (0:rax=0 /\
// 1:rax=0 /\ 2:rax=0). The collection gives no outcome; it follows from the
// x86-TSO machine (CACM 2010, Sewell et al., §3) as for SB (SDM 8-3).
//
//   P0: x = 1; r0 = y;   P1: y = 1; r1 = z;   P2: z = 1; r2 = x;
//   outcome: r0 == 0 && r1 == 0 && r2 == 0
//
// SC: forbidden (the first write in the interleaving precedes the read of
//     its variable by the previous process in the ring).
// TSO: allowed (all three writes buffered, all three reads from memory).
//     Fences: with two processes fenced, say P0 and P1, P2 buffers z = 1
//     and reads x == 0 first; P0 writes x = 1 and reads y == 0; P1 writes
//     y = 1 and reads z == 0 (still buffered): allowed; the same by
//     rotation for any two. Three fences give SC's argument. Minimum 3.
// PSO: allowed (PSO allows all TSO behaviours); one variable written per
//     process, so PSO = TSO here: minimum 3.
//
// fencer: expect sc safe
// fencer: expect tso fences=3
// fencer: expect pso fences=3

shared x, y, z;

process P0 {
  local r0;
  x = 1;
  r0 = y;
  if (r0 == 0) { a0: skip; }
}

process P1 {
  local r1;
  y = 1;
  r1 = z;
  if (r1 == 0) { a1: skip; }
}

process P2 {
  local r2;
  z = 1;
  r2 = x;
  if (r2 == 0) { a2: skip; }
}

forbidden P0@a0, P1@a1, P2@a2;
// fencer: expect arm fences=3
// fencer: expect riscv fences=3
// fencer: expect rmo fences=3
