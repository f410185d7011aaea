// Intel SDM vol. 3A §8.2.3.9, Example 8-10, "Stores Are not Reordered with
// Locks", with the locked instruction written as an `atomic { }` block (a
// locked read-modify-write of x) instead of `swap`.
//
//   P0: atomic { r1 = x; x = 1; } y = 1;     P1: r2 = y; r3 = x;
//   outcome: r2 == 1 && r3 == 0
//
// SC, TSO: forbidden (SDM 8-10). PSO: forbidden: the `.cs` atomic block
// writes memory directly (LANGUAGE.md) before `y = 1` is issued, and P1's
// loads are in order. The only site, `y = 1;`, is P0's last statement.
//
// fencer: expect sc safe
// fencer: expect tso safe
// fencer: expect pso safe

shared x, y;

process P0 {
  local r1;
  atomic { r1 = x; x = 1; }
  y = 1;
}

process P1 {
  local r2, r3;
  r2 = y;
  r3 = x;
  assume(r2 == 1 && r3 == 0);
a1: skip;
}

forbidden P1@a1;
// fencer: expect arm fences=1
// fencer: expect riscv fences=1
// fencer: expect rmo fences=1
