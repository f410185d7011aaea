// Publishing an arbitrary value through a locked store.
//
// Exercises nondeterminism (`shared a = *`, `v = *`, `if (*)`), `swap` and an
// `atomic` block. The writer picks any value v, stores it in `a` and `b`
// (whose initial values are arbitrary), and then raises `ready` with `swap`,
// a locked instruction: it waits until the writer's store buffer(s) are
// empty, so `a` and `b` are in memory before `ready` is. The reader reads
// `ready`, then `a` and `b` in either order or together in one atomic step,
// and checks that after seeing `ready` the two agree.
//
// Correct under SC, TSO and PSO with no fence: the swap already acts as one.
// (With a plain `ready = 1;` instead, PSO would need one fence after
// `b = v;`.)
//
// Loop-free. The bad state is the failing assert.

// fencer: expect sc safe
// fencer: expect tso safe
// fencer: expect pso safe

shared a = *, b = *, ready;

process Writer {
  local v, t;
  v = *;
  a = v;
  b = v;
  t = swap(ready, 1);
}

process Reader {
  local r, x, y;
  r = ready;
  if (*) {
    atomic { x = a; y = b; }
  } else {
    y = b;
    x = a;
  }
  assert(r == 0 || x == y);
}
