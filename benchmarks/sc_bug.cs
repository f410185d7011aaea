// An unprotected increment: wrong under every model, even SC.
//
// Both processes read `count`, add one and write it back, with no lock. Under
// SC both can read 0 and both write 1, so the final value is 1, not 2. The
// process that finishes last (it gets 1 from the atomic `fetch_add` on
// `done`; fetch_add empties the caller's store buffer, and the other process
// emptied its own in its fetch_add) checks the final value. No fence can
// repair a race that is already there under SC.
//
// Loop-free. The bad state is the failing assert.

// fencer: expect sc bug

shared count, done;

process P[i in 0..1] {
  local r, t;
  r = count;
  count = r + 1;
  t = fetch_add(done, 1);
  if (t == 1) {
    r = count;
    assert(r == 2);
  }
}
// fencer: expect arm bug
// fencer: expect riscv bug
// fencer: expect rmo bug
