// Intel SDM vol. 3A §8.2.3.6, Example 8-6, "Stores Are Transitively
// Visible" (write-to-read causality, WRC). CACM 2010 (Sewell et al.),
// Example 8-6: forbidden in x86-TSO.
//
//   P0: x = 1;    P1: r1 = x; y = 1;    P2: r2 = y; r3 = x;
//   outcome: r1 == 1 && r2 == 1 && r3 == 0
//
// SC: forbidden (x = 1 < P1 reads x < y = 1 < P2 reads y < P2 reads x).
// TSO: forbidden (SDM 8-6; CACM 2010: r1 == 1 means x = 1 is in memory
//     before P1 issues y = 1, so before P2 reads y == 1 and then x).
// PSO: forbidden. SPARC V9 PSO (Appendix D) has a single memory order that
//     all processors see (stores are atomic), and P1's read is never
//     reordered with its later store: x = 1 is in memory (P1 read it from
//     memory, it did not write x) before y = 1 is issued, so P2's later read
//     of x returns 1. Only P0 and P1 write, one variable each, after which
//     nothing follows in P0: no fence can matter, none is needed.
//
// fencer: expect sc safe
// fencer: expect tso safe
// fencer: expect pso safe

shared x, y;

process P0 {
  x = 1;
}

process P1 {
  local r1;
  r1 = x;
  y = 1;
  if (r1 == 1) { a1: skip; }
}

process P2 {
  local r2, r3;
  r2 = y;
  r3 = x;
  if (r2 == 1 && r3 == 0) { a2: skip; }
}

forbidden P1@a1, P2@a2;
// fencer: expect arm fences=2
// fencer: expect riscv fences=2
// fencer: expect rmo fences=2
