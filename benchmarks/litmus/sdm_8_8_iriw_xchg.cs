// Intel SDM vol. 3A §8.2.3.8, Example 8-8, "Locked Instructions Have a Total
// Order" (IRIW with XCHG writes). CACM 2010 (Sewell et al.), Example 8-8:
// forbidden in x86-TSO. XCHG is written `swap` (one locked step).
//
//   P0: r1 = swap(x, 1);   P1: r2 = swap(y, 1);
//   P2: r3 = x; r4 = y;    P3: r5 = y; r6 = x;
//   outcome: r3 == 1 && r4 == 0 && r5 == 1 && r6 == 0
//
// SC: forbidden (as IRIW).
// TSO: forbidden (SDM 8-8: "r3 = 1, r4 = 0, r5 = 1, r6 = 0 is not
//     allowed").
// PSO: forbidden. In the `.cs` PSO model a locked step waits for empty
//     buffers and writes memory directly (LANGUAGE.md, `atomic`/`swap`), so
//     each swap's write has one place in the single memory order; PSO never
//     reorders the observers' loads (SPARC V9, Appendix D). There are no
//     plain writes, hence no fence sites.
//
// fencer: expect sc safe
// fencer: expect tso safe
// fencer: expect pso safe

shared x, y;

process P0 {
  local r1;
  r1 = swap(x, 1);
}

process P1 {
  local r2;
  r2 = swap(y, 1);
}

process P2 {
  local r3, r4;
  r3 = x;
  r4 = y;
  assume(r3 == 1 && r4 == 0);
a2: skip;
}

process P3 {
  local r5, r6;
  r5 = y;
  r6 = x;
  assume(r5 == 1 && r6 == 0);
a3: skip;
}

forbidden P2@a2, P3@a3;
// fencer: expect arm fences=2
// fencer: expect riscv fences=2
// fencer: expect rmo fences=2
