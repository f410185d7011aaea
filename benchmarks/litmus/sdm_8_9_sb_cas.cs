// Intel SDM vol. 3A §8.2.3.9, Example 8-9, "Loads Are not Reordered with
// Locks", with the two other locked forms of the language in place of XCHG:
// LOCK CMPXCHG (`cas`) and LOCK XADD (`fetch_add`). SDM §8.2.2: "Reads or
// writes cannot be reordered with I/O instructions, locked instructions,
// or serializing instructions"; Example 8-9 states it for XCHG and §8.2.3.9
// says the same holds for any locked instruction.
//
//   P0: r1 = cas(x, 0, 1); r2 = y;     P1: r3 = fetch_add(y, 1); r4 = x;
//   outcome: r2 == 0 && r4 == 0
//
// SC, TSO: forbidden (SDM 8-9). PSO: forbidden (the `.cs` locked steps
// write memory directly in every model, LANGUAGE.md; then SC's argument).
// No plain writes, no fence sites.
//
// fencer: expect sc safe
// fencer: expect tso safe
// fencer: expect pso safe

shared x, y;

process P0 {
  local r1, r2;
  r1 = cas(x, 0, 1);
  r2 = y;
  if (r2 == 0) { a0: skip; }
}

process P1 {
  local r3, r4;
  r3 = fetch_add(y, 1);
  r4 = x;
  if (r4 == 0) { a1: skip; }
}

forbidden P0@a0, P1@a1;
// fencer: expect arm safe
// fencer: expect riscv safe
// fencer: expect rmo safe
