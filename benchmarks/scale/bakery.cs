// Lamport's Bakery algorithm, N processes, unbounded tickets.
// N = 2 here; `-D N=3` or `-D N=4`
// on the command line runs it with 3 or 4 processes (the expectations
// below hold for every N).
//
// Source: L. Lamport, "A new solution of Dijkstra's concurrent programming
// problem", CACM 17(8), 1974 (reference [16] of the SAS 2012 paper):
//
//   L1: choosing[i] := 1;
//       number[i] := 1 + maximum(number[1], ..., number[N]);
//       choosing[i] := 0;
//       for j := 1 step 1 until N do begin
//         L2: if choosing[j] != 0 then goto L2;
//         L3: if number[j] != 0 and (number[j], j) < (number[i], i)
//               then goto L3;
//       end;
//       critical section;
//       number[i] := 0;
//       noncritical section; goto L1;
//
// Mapped as in benchmarks/bakery.cs: the maximum reads every other number
// once, in index order, into the local `t` (a process's own number is 0 at
// that point: it was reset on exit, and a process reads its own latest
// write); the round j = i is left out (choosing[i] is 0 and (n, i) < (n, i)
// is false, so it never waits); each L3 test reads number[j] once into `n`.
// The ticket is kept in `t`. Tickets grow without bound, so the state space
// is infinite and the explicit checker can only search it up to a bound.
//
// Fence sites: `choosing[i] = 1;`, `number[i] = t;`, `choosing[i] = 0;`,
// `number[i] = 0;`.
//
// Expectations, and how each was established:
// SC safe: Lamport's proof (1974), for any N and unbounded tickets. The
//   explicit checker can only search up to a bound (tickets are unbounded):
//   no counterexample at N = 2 within 300,000 states (depth 3,469); at N = 3,
//   none in a search stopped after 120 s.
// TSO fences=2, after `choosing[i] = 1;` and after `number[i] = t;`
//   (after `choosing[i] = 0;` instead of `number[i] = t;` is another TSO
//   minimum at N = 2, not a PSO one).
//   At least 2: checker, N = 2: no fence, and a fence at any single site,
//   give counterexamples: 32 steps with no fence; 38, 39, 40 and 32 steps
//   with a fence after `choosing[i] = 1;`, `number[i] = t;`,
//   `choosing[i] = 0;` or `number[i] = 0;` alone; so does every pair except
//   {after `choosing[i] = 1;`, after `number[i] = t;`} and {after
//   `choosing[i] = 1;`, after `choosing[i] = 0;`} (38 to 42 steps), which
//   show none within 150,000 states.
//   A counterexample for N = 2 is one for every larger N: the other
//   processes may stay at their first statement (no schedule has to run
//   them), where all their shared variables still hold 0, and 0 never makes
//   anyone wait or retry in this algorithm, so P[0] and P[1] take exactly
//   the steps of the N = 2 trace (plus reads of the idle processes'
//   variables that change nothing). The fence sites are the same template
//   statements for every N, so a fence set that fails at N = 2 fails at
//   every N: lower bounds found at N = 2 hold for N = 3 and 4.
//   At most 2: argument (sketch). Lamport's proof uses only: (a) i's
//   `choosing[i] = 1` is visible before i reads the others' numbers, (b)
//   number[i] is visible before choosing[i] is seen as 0 again, (c) i's
//   reads of choosing[j] and number[j] in the wait happen after number[i]
//   is visible, and (d) number[i] = 0 is written only after cs. With the two
//   fences, (a) and (c) are the fences, (b) is FIFO order; the unfenced
//   writes `choosing[i] = 0` and `number[i] = 0` may become visible late,
//   which only makes the others wait longer (they see i choosing, or i's old
//   ticket), and both are flushed by the next round's first fence. For
//   the 2-process version, benchmarks/bakery.cs, the count is Table 1's and
//   fencer's. The
//   checker searched with these fences up to a bound: N = 2: none within
//   150,000 states (depth 750); N = 3: none within 300,000 states (depth 62);
//   N = 4: none within 300,000 states (depth 43). This is no proof: the state
//   space is infinite.
// PSO fences=2, the same sites: at least the TSO count (a fence set that
//   works under PSO works under TSO, whose runs are PSO runs); checker at
//   N = 2: no fence and each single site give counterexamples (32 to 40
//   steps), and so does every pair except these two sites, including {after
//   `choosing[i] = 1;`, after `choosing[i] = 0;`} (42 steps), which works
//   under TSO: under PSO `choosing[i] = 0` can reach memory before
//   `number[i] = t`;
//   at most 2 by the same argument, since a fence empties all of i's
//   buffers: the PSO-only reorderings are `choosing[i] = 0` or
//   `number[i] = 0` becoming visible after a later write, which again only
//   prolongs waiting. Bounded search: N = 2: none within 150,000 states
//   (depth 669); N = 3: none within 300,000 states (depth 61); no proof.
// What fencer measures on this file: benchmarks/scale/README.md.
// fencer: expect sc safe
// fencer: expect tso fences=2
// fencer: expect pso fences=2

const N = 2;
shared choosing[N], number[N];

process P[i in 0..N-1] {
  local t, n;
  while (true) {
    choosing[i] = 1;
    t = 0;
    for (j in 0..N-1) {
      if (j != i) {
        n = number[j];
        if (n > t) t = n;
      }
    }
    t = t + 1;
    number[i] = t;
    choosing[i] = 0;
    for (j in 0..N-1) {
      if (j != i) {
        while (choosing[j] != 0) { }
        n = number[j];
        while (n != 0 && (n < t || (n == t && j < i))) {
          n = number[j];
        }
      }
    }
cs: skip;
    number[i] = 0;
  }
}

mutex cs;
