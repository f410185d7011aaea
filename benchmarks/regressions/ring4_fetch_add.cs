// Issue 25: a 4-process ring of flags after a fetch_add on a shared
// counter, from a generator of small programs (internal/progen, Ring).
// Every process sets its flag and reads its successor's; all four at cs
// is bad. fencer answered unknown at its 1,000,000-state limit on it
// (TSO, 2026-11-26); the template's instances are symmetric under the
// rotations (cegar/orbit.go), so each exploration stores one state per
// orbit.
//
// Established by the explicit checker (fencer explore: real buffers,
// concrete values; the program is loop-free, so its state space is finite
// and was explored to the end): safe under sc (4,491,665 states); with
// one fence after flag[i] = 1 safe under tso (23,463,353 states); without
// it unsafe under tso (a 28-step run, found after 54,759,464 states), so
// 1 fence is the minimum. Issue 25's explicit search in Python found the
// same. Under pso fencer also answers 1 fence (after flag[i] = 1), not yet
// checked independently here: no pso expectation.
// fencer: expect sc safe
// fencer: expect tso fences=1
const N = 4;
shared flag[N], x, turn, z, a[2];
process P[i in 0..N-1] {
  local r, k, s1, s2, s3;
  k = fetch_add(a[0], 1);
  if (k == 0) { a[0] = 1; } else { k = a[0]; }
  a[0] = 1;
  flag[i] = 1;
  r = flag[(i+1)%N];
  if (r == 0) {
cs: skip;
  }
}
forbidden P[0]@cs, P[1]@cs, P[2]@cs, P[3]@cs;
