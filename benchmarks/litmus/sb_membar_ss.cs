// SB (Intel SDM vol. 3A §8.2.3.4, Example 8-3) with a store-store barrier
// after each write (`fence store;`, SPARC `membar #StoreStore`). The barrier
// does not hold back later loads (SPARC V9 manual, ch. 8, MEMBAR: #StoreStore
// orders stores only; LANGUAGE.md: "reads are not held back"), so the SB
// outcome stays allowed wherever it was.
//
//   P0: x = 1; fence store; r1 = y;     P1: y = 1; fence store; r2 = x;
//   outcome: r1 == 0 && r2 == 0
//
// SC: forbidden (SDM 8-3).
// TSO: allowed (SDM 8-3; `fence store` changes nothing under TSO). Full
//     fences: as SB, one after each write, minimum 2.
// PSO: allowed (the barrier orders no store before a load). Minimum 2, as
//     SB: a full fence in one process only leaves the other's SB run.
//
// fencer: expect sc safe
// fencer: expect tso fences=2
// fencer: expect pso fences=2

shared x, y;

process P0 {
  local r1;
  x = 1;
  fence store;
  r1 = y;
  if (r1 == 0) { a0: skip; }
}

process P1 {
  local r2;
  y = 1;
  fence store;
  r2 = x;
  if (r2 == 0) { a1: skip; }
}

forbidden P0@a0, P1@a1;
// fencer: expect arm fences=2
// fencer: expect riscv fences=2
// fencer: expect rmo fences=2
