// The ticket lock with the ticket taken by a compare-and-swap loop, as code
// for a machine without fetch-and-add is written (compare ../ticket.cs):
// read `next`, try to swing it to next + 1, retry on failure.
// N = 2 here; `-D N=3` or `-D N=4` on the command line.
//
// Fence site: `owner = owner + 1;`.
// Expectations: those of ../ticket.cs. A successful cas(next, t, t + 1) is
// a fetch_add that returned t; a failed one changes nothing, and the
// retry reads `next` again. Checked by `fencer check` at N = 2 and 3.
// fencer: expect sc safe
// fencer: expect tso safe
// fencer: expect pso safe

const N = 2;
shared next, owner;

process P[i in 0..N-1] {
  local t, ok;
  while (true) {
    t = next;
    ok = cas(next, t, t + 1);
    while (ok == 0) {
      t = next;
      ok = cas(next, t, t + 1);
    }
    while (owner != t) { }
cs: skip;
    owner = owner + 1;
  }
}

mutex cs;
