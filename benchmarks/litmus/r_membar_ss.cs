// Test R (see r.cs) with `fence store;` (SPARC `membar #StoreStore`) between
// P0's two writes. Under PSO the barrier restores the store order of P0
// (SPARC V9 manual, ch. 8, MEMBAR), leaving only P1's write->read relaxation,
// which a store-store barrier cannot forbid.
//
//   P0: x = 1; fence store; y = 1;     P1: y = 2; r1 = x;
//   outcome: r1 == 0 && final y == 2   (final y observed as in n6.cs)
//
// SC: forbidden (as R). TSO: allowed, minimum 1 fence after `y = 2;` (as
// R; `fence store` changes nothing under TSO). PSO: allowed (the TSO run of
// R); with P0's stores ordered by the barrier, the fence after `y = 2;`
// gives R's SC argument: minimum 1 (R itself needs 2 under PSO).
//
// fencer: expect sc safe
// fencer: expect tso fences=1
// fencer: expect pso fences=1

shared x, y, done0, done1;

process P0 {
  local t;
  x = 1;
  fence store;
  y = 1;
  t = swap(done0, 1);
}

process P1 {
  local r1, t;
  y = 2;
  r1 = x;
  t = swap(done1, 1);
  if (r1 == 0) { a1: skip; }
}

process Obs {
  local fy;
  assume(done0 == 1 && done1 == 1);
  fy = y;
  if (fy == 2) { ob: skip; }
}

forbidden P1@a1, Obs@ob;
// fencer: expect arm fences=2
// fencer: expect riscv fences=2
// fencer: expect rmo fences=2
