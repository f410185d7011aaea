// Regression: found by make soak (generated program, seed 5111).
//
// Value chains through shared memory (P1's x0 = r1 + 1 after r1 = x0, P0's
// x1 = r1 + 1 after r1 = x0) make x0, x1 and the registers unbounded for
// the static analysis of package domains, which is flow-insensitive on
// shared variables, although every loop is bounded by a local counter and
// the variables only ever hold a few values. The engine then fell back on
// predicates: `insert --model tso` and `--model pso` refined at k = 1 from
// 7 to over 100 predicates and did not finish in 180 s (1.5 million SMT
// queries). They are now dynamic explicit variables (domains/dynamic.go):
// no SMT query, under a second.
//
// Expectations established by the oracles: the explicit checker
// (`fencer explore`: safe under SC, TSO and PSO in 1651, 3919 and 4289
// states, so no fence is needed) and the reference interpreter refsem (the
// differential suite's replay, FENCER_SEED=5111, agrees).
//
// fencer: expect sc safe
// fencer: expect tso fences=0
// fencer: expect pso fences=0
shared x0, x1;
process P0 {
  local r0, r1, c0, c1;
  x0 = 2;
l1:
  r1 = x0;
  c0 = c0 + 1;
  if (c0 < 1) goto l1;
  atomic { r1 = x0; x1 = r1 + 1; }
l2:
  r1 = x1;
  c1 = c1 + 1;
  if (c1 < 2) goto l2;
  x0 = r1 + 2;
  r0 = x1;
  if (r0 != 0) {
    skip;
  } else {
    fence;
    cs: skip;
  }
}
process P1 {
  local r0, r1, c0, c1;
  x1 = 2;
  x0 = r1 + 2;
  x1 = 2;
  if (r1 != 2) {
    while (c0 < 2) {
      c0 = c0 + 1;
      atomic { r1 = x0; x0 = r1 + 1; }
      x0 = r1 + 1;
    }
  } else {
    r1 = r1 + 1;
  }
  r0 = x0;
  while (r0 == 0 && c1 < 1) {
    c1 = c1 + 1;
    if (r0 != 0) goto l1;
    r1 = x1;
    x0 = r1 + 1;
    l1: x1 = r1 + 2;
    cs: skip;
  }
  l2: r1 = x0;
}
mutex cs;
