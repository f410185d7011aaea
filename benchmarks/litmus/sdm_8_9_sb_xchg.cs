// Intel SDM vol. 3A §8.2.3.9, Example 8-9, "Loads Are not Reordered with
// Locks" (SB with XCHG in place of the stores). CACM 2010 (Sewell et al.),
// Example 8-9: forbidden in x86-TSO. XCHG is written `swap`.
//
//   P0: r1 = swap(x, 1); r2 = y;     P1: r3 = swap(y, 1); r4 = x;
//   outcome: r2 == 0 && r4 == 0
//
// SC: forbidden (as SB).
// TSO: forbidden (SDM 8-9: "r2 = 0 and r4 = 0 is not allowed"; the locked
//     instruction writes memory directly, before the later read).
// PSO: forbidden. In the `.cs` PSO model the locked step writes memory
//     directly (LANGUAGE.md, `swap`), before the following load is issued,
//     so SC's argument applies. No plain writes, no fence sites.
//
// fencer: expect sc safe
// fencer: expect tso safe
// fencer: expect pso safe

shared x, y;

process P0 {
  local r1, r2;
  r1 = swap(x, 1);
  r2 = y;
  if (r2 == 0) { a0: skip; }
}

process P1 {
  local r3, r4;
  r3 = swap(y, 1);
  r4 = x;
  if (r4 == 0) { a1: skip; }
}

forbidden P0@a0, P1@a1;
// fencer: expect arm safe
// fencer: expect riscv safe
// fencer: expect rmo safe
