// SB (Intel SDM vol. 3A §8.2.3.4, Example 8-3) with an outcome that
// sequential consistency itself allows: both reads return 1. Source: the
// definition of SC (Lamport, IEEE Trans. Computers 1979): the interleaving
// x = 1; y = 1; r1 = y; r2 = x reaches it.
//
//   P0: x = 1; r1 = y;       P1: y = 1; r2 = x;
//   outcome: r1 == 1 && r2 == 1
//
// SC: allowed, so no fence can forbid it under any model: `sc bug`.
//
// fencer: expect sc bug
// fencer: expect tso bug
// fencer: expect pso bug

shared x, y;

process P0 {
  local r1;
  x = 1;
  r1 = y;
  if (r1 == 1) { a0: skip; }
}

process P1 {
  local r2;
  y = 1;
  r2 = x;
  if (r2 == 1) { a1: skip; }
}

forbidden P0@a0, P1@a1;
// fencer: expect arm bug
// fencer: expect riscv bug
// fencer: expect rmo bug
