// Regression (issue 11): a 20-line, 3-process program that took the engine
// 20 s under TSO and 16 s under PSO, where an exhaustive explicit search
// takes a fraction of a second. It needs no fence under any model.
//
// Why it is safe: T1 writes z = 1, then z = 2, then reads z and asserts that
// it read at least 2. The only other write to z is T2's `z = r2 + 1` with
// r2 = a, and T2 runs it only after `assume(a == 1)`, so it writes 2 (a is
// written only by T0, with the value 1, and nobody writes a back). T1's read
// of z is served by its own buffer (its newest write, 2) while a write of
// its own to z is pending; otherwise both of its writes have reached memory,
// the newer one (2) last in its FIFO (TSO) or per-variable FIFO (PSO), and
// only a 2 from T2 can have come after it. So the read returns 2 under SC,
// TSO and PSO, and the assert holds. No other property is stated.
//
// Established by the explicit checker (`fencer explore`, real buffers,
// concrete values; T1's loop is bounded, so the state space is finite and
// was explored to the end): safe under sc, tso and pso.
// fencer: expect sc safe
// fencer: expect tso safe
// fencer: expect pso safe

shared z, a;
process T0 {
  local r0, r2;
  r2 = z;
  if (r2 == 1) a = r2;
  while (true) { r0 = a; if (r0 == 1) goto g1; }
g1: skip;
}
process T1 {
  local r0, r2;
  while (r0 < 2) { z = r0 + 1; r0 = r0 + 1; }
  r0 = z;
  r2 = r0 + 1;
  assert(r2 > 2);
}
process T2 {
  local r2;
  assume(a == 1);
  atomic { r2 = a; z = r2 + 1; }
}
