// Intel SDM vol. 3A §8.2.3.7, Example 8-7, "Stores Are Seen in a Consistent
// Order by Other Processors" (independent reads of independent writes,
// IRIW). CACM 2010 (Sewell et al.), IRIW: forbidden in x86-TSO.
//
//   P0: x = 1;   P1: y = 1;   P2: r1 = x; r2 = y;   P3: r3 = y; r4 = x;
//   outcome: r1 == 1 && r2 == 0 && r3 == 1 && r4 == 0
//
// SC: forbidden (P2 sees x = 1 before y = 1, P3 the opposite order).
// TSO: forbidden (SDM 8-7: "r1 = 1, r2 = 0, r3 = 1, r4 = 0 is not allowed";
//     x86-TSO has one shared memory, every write reaches it at one moment).
// PSO: forbidden. SPARC V9 PSO (Appendix D) also has a single memory order
//     of stores seen by all processors, and the observers' loads are not
//     reordered. Each writer performs one write and nothing else: no fence
//     could matter, none is needed.
//
// fencer: expect sc safe
// fencer: expect tso safe
// fencer: expect pso safe

shared x, y;

process P0 {
  x = 1;
}

process P1 {
  y = 1;
}

process P2 {
  local r1, r2;
  r1 = x;
  r2 = y;
  if (r1 == 1 && r2 == 0) { a2: skip; }
}

process P3 {
  local r3, r4;
  r3 = y;
  r4 = x;
  if (r3 == 1 && r4 == 0) { a3: skip; }
}

forbidden P2@a2, P3@a3;
// fencer: expect arm fences=2
// fencer: expect riscv fences=2
// fencer: expect rmo fences=2
