// A compare-and-swap spinlock protecting a shared counter.
//
// Each process takes the lock once with `cas` (a blocking acquire: it waits
// at the `assume` if the lock is taken), increments `data` inside the
// critical section, and releases the lock with a plain store, as x86
// spinlocks do. The process that finishes last (it gets 1 from the atomic
// `fetch_add` on `done`) checks that both increments happened.
//
// SC and TSO: correct with no fence. The cas is a locked instruction, and
// under TSO the release `lock = 0` cannot reach memory before `data = d + 1`
// (one FIFO buffer per process).
// PSO: the release can overtake the data write; the other process then takes
// the lock, reads the old `data` and an increment is lost. One fence after
// `data = d + 1;` fixes it (a fence after `lock = 0;` would not).
//
// Loop-free. Bad states: both processes at `cs`, or the failing assert.

// fencer: expect sc safe
// fencer: expect tso safe
// fencer: expect pso fences=1

shared lock, data, done;

process P[i in 0..1] {
  local r, d, t;
  r = cas(lock, 0, 1);
  assume(r == 1);
cs: d = data;
  data = d + 1;
  lock = 0;
  t = fetch_add(done, 1);
  if (t == 1) {
    d = data;
    assert(d == 2);
  }
}

mutex cs;
// fencer: expect arm fences=1
// fencer: expect riscv fences=1
// fencer: expect rmo fences=1
