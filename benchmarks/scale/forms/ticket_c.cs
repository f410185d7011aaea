// The ticket lock as a C programmer writes it (compare ../ticket.cs, the
// same algorithm): the owner is read into a local copy that the wait loop
// re-reads, and the unlock stores `t + 1` from the ticket instead of
// re-reading `owner`.
// N = 2 here; `-D N=3` or `-D N=4` on the command line.
//
// Fence site: `owner = t + 1;`.
// Expectations: those of ../ticket.cs. Only the owner of ticket t writes
// owner, when owner == t, so `t + 1` is the value `owner + 1` computes; the
// local copy re-read until it equals t is the busy-wait's sequence of
// reads. Checked by `fencer check` at N = 2 and 3.
// fencer: expect sc safe
// fencer: expect tso safe
// fencer: expect pso safe

const N = 2;
shared next, owner;

process P[i in 0..N-1] {
  local t, o;
  while (true) {
    t = fetch_add(next, 1);
    o = owner;
    while (o != t) {
      o = owner;
    }
cs: skip;
    owner = t + 1;
  }
}

mutex cs;
