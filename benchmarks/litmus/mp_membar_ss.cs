// MP (Intel SDM vol. 3A §8.2.3.2, Example 8-1) with a store-store barrier
// between the two writes: `fence store;` is SPARC `membar #StoreStore`
// (STBAR in SPARC V8). SPARC V9 manual (1994), ch. 8 (MEMBAR) and
// Appendix D: under PSO, a store after `membar #StoreStore` becomes visible
// only after every store before it.
//
//   P0: x = 1; fence store; y = 1;     P1: r1 = y; r2 = x;
//   outcome: r1 == 1 && r2 == 0
//
// SC: forbidden (SDM 8-1). TSO: forbidden (SDM 8-1; `fence store` changes
// nothing under TSO). PSO: forbidden: the barrier keeps x = 1 before y = 1
// in memory, and P1's loads are in order. No `fence;` is needed.
//
// fencer: expect sc safe
// fencer: expect tso safe
// fencer: expect pso safe

shared x, y;

process P0 {
  x = 1;
  fence store;
  y = 1;
}

process P1 {
  local r1, r2;
  r1 = y;
  r2 = x;
  if (r1 == 1 && r2 == 0) { a1: skip; }
}

forbidden P1@a1;
// fencer: expect arm fences=1
// fencer: expect riscv fences=1
// fencer: expect rmo fences=1
