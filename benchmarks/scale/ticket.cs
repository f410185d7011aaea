// The Linux x86 ticket spinlock, N processes, unbounded tickets.
// N = 2 here; `-D N=3` or `-D N=4`
// on the command line runs it with 3 or 4 processes (the expectations
// below hold for every N).
//
// Source: the Linux kernel's x86 spinlock (arch/x86/include/asm/spinlock.h,
// ticket locks since 2.6.25); the question whether its plain unlock store
// is enough on x86 is the LKML thread starting at
// https://lkml.org/lkml/1999/11/20/76 (footnote 2 of the SAS 2012 paper). As
// benchmarks/ticket_lock.cs, with N instances of the template:
//
//   lock:   t := fetch_add(next, 1); while owner != t do skip
//   unlock: owner := owner + 1
//
// Fence sites: `owner = owner + 1;` (the fetch_add is atomic, not a site).
//
// Expectations, and how each was established:
// SC safe: tickets are handed out by fetch_add, so no two processes hold
//   the same t; owner changes only by the unlock of the process at cs
//   (t == owner), so at most one process has t == owner, and a process at cs
//   has t == owner.
// TSO safe, PSO safe (no fence): `owner = owner + 1;` is the only plain
//   write. It is followed, in program order, by the next fetch_add, which
//   waits for an empty buffer (PSO: all buffers), so the wait loop always
//   reads owner from memory, and a pending unlock is the last thing the
//   process did before it left cs; until it reaches memory the process
//   takes only local steps. Moving each unlock write (and those local
//   steps) to the moment it reaches memory gives an SC run of the same
//   program in which every process is always where it is in the TSO (PSO)
//   run, except that a process with a pending unlock is still just before
//   its unlock instead of just after it; neither point is cs, so a bad
//   state of the TSO (PSO) run is a bad state of that SC run. (Argument;
//   the counters are unbounded, so the explicit checker can only search up
//   to a bound.)
//   Checker, no fence: no counterexample under SC at N = 2 within 300,000
//   states, nor at N = 3 within 2,000,000 states; under TSO and under PSO
//   none at N = 3 within 300,000 states (depth 155).
// What fencer measures on this file: benchmarks/scale/README.md.
// fencer: expect sc safe
// fencer: expect tso safe
// fencer: expect pso safe

const N = 2;
shared next, owner;

process P[i in 0..N-1] {
  local t;
  while (true) {
    t = fetch_add(next, 1);
    while (owner != t) { }
cs: skip;
    owner = owner + 1;
  }
}

mutex cs;
