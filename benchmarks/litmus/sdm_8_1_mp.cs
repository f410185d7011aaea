// Intel SDM vol. 3A §8.2.3.2, Example 8-1, "Stores Are Not Reordered with
// Other Stores" (message passing, MP). Also CACM 2010 (Sewell et al.),
// "Example 8-1": forbidden in x86-TSO.
//
//   P0: x = 1; y = 1;        P1: r1 = y; r2 = x;
//   outcome: r1 == 1 && r2 == 0
//
// SC: forbidden (SDM 8-1; r1 == 1 puts y = 1, hence x = 1, before P1's read
//     of x).
// TSO: forbidden. SDM Example 8-1 ("r1 = 1 and r2 = 0 is not allowed");
//     x86-TSO: P0's store buffer is FIFO (CACM 2010, Example 8-1).
// PSO: allowed. SPARC V9 manual (1994), ch. 8 and Appendix D: under PSO
//     stores to different locations may reach memory out of order, so y = 1
//     can become visible before x = 1 (P1's reads stay in order). Fences: a
//     fence after `x = 1;` keeps x = 1 before y = 1 in memory, which is the
//     TSO case: forbidden. A fence after `y = 1;` (nothing follows it)
//     changes nothing. Minimum 1.
//
// fencer: expect sc safe
// fencer: expect tso safe
// fencer: expect pso fences=1

shared x, y;

process P0 {
  x = 1;
  y = 1;
}

process P1 {
  local r1, r2;
  r1 = y;
  r2 = x;
  if (r1 == 1 && r2 == 0) { a1: skip; }
}

forbidden P1@a1;
// fencer: expect arm fences=2
// fencer: expect riscv fences=2
// fencer: expect rmo fences=2
