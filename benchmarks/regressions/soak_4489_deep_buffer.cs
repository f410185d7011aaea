// Regression: found by make soak (generated program, seed 4489).
//
// Bounded loops that write on every iteration put up to 7 writes in P0's
// store buffer. `verify --model tso` needed k = 7 to show a spurious
// k-abstract counterexample spurious, and with the old default --max-k of 6
// it answered "unknown: k limit reached" where the explicit checker and the
// reference interpreter (refsem) find the bad state (it is reachable even
// under SC). The default --max-k is now 10. Expectations: the differential
// suite's replay (FENCER_SEED=4489) checks them against both oracles.
//
// fencer: expect sc bug
shared x0, x1;
process P0 {
  local r0, r1, c0, c1;
  x0 = 2;
  while (c0 < 2) {
    c0 = c0 + 1;
l1:
    x0 = r1 + 2;
    l2: x1 = r1 + 1;
    c1 = c1 + 1;
    if (c1 < 2) goto l1;
  }
  if (r1 == 0) {
    r1 = x0;
    l3: x1 = r1 + 2;
  }
  r0 = x1;
  if (r0 > 2) {
    x1 = 2;
  } else {
    l4: skip;
  }
}
process P1 {
  local r0, r1;
  x1 = 1;
  if (r1 == 1) goto l1;
  x1 = r1 + 1;
  r1 = swap(x0, 3);
  l1: skip;
  x1 = r1 + 2;
  r0 = x0;
}
forbidden P0@l4, P1@l1;
