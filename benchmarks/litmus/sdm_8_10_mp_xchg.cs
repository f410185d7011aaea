// Intel SDM vol. 3A §8.2.3.9, Example 8-10, "Stores Are not Reordered with
// Locks" (MP whose first store is an XCHG). CACM 2010 (Sewell et al.),
// Example 8-10: forbidden in x86-TSO. XCHG is written `swap`.
//
//   P0: r1 = swap(x, 1); y = 1;      P1: r2 = y; r3 = x;
//   outcome: r2 == 1 && r3 == 0
//
// SC: forbidden (as MP).
// TSO: forbidden (SDM 8-10: "r2 = 1 and r3 = 0 is not allowed").
// PSO: forbidden. In the `.cs` PSO model the locked step writes x to
//     memory directly (LANGUAGE.md, `swap`: x86 locked semantics in every
//     model), before `y = 1` is even issued, so when P1 reads y == 1, x is
//     already 1; PSO never reorders P1's loads (SPARC V9, Appendix D). (A
//     SPARC SWAP under PSO is weaker: its store may be overtaken by a later
//     store without a membar; the `.cs` `swap` is not.) The only site,
//     `y = 1;`, is P0's last statement: a fence there could not matter.
//
// fencer: expect sc safe
// fencer: expect tso safe
// fencer: expect pso safe

shared x, y;

process P0 {
  local r1;
  r1 = swap(x, 1);
  y = 1;
}

process P1 {
  local r2, r3;
  r2 = y;
  r3 = x;
  if (r2 == 1 && r3 == 0) { a1: skip; }
}

forbidden P1@a1;
// fencer: expect arm fences=1
// fencer: expect riscv fences=1
// fencer: expect rmo fences=1
