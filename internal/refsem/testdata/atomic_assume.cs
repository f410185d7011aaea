// A blocking test-and-set in an atomic block: a failing assume blocks the
// whole step. The assert inside atomic fails only if both got in.
// refsem: sc safe
// refsem: tso safe
// refsem: pso safe
shared lock, n;
process P[i in 0..1] {
  atomic { assume(lock == 0); lock = 1; }
  atomic { n = n + 1; assert(n == 1); }
  atomic { n = n - 1; }
  lock = 0;
}
