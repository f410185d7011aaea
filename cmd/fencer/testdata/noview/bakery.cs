// benchmarks/bakery.cs with "+ 0 * n" in the ticket (same runs): not counter-like, so no order view: predicates, for the tests of limits.
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
// For N = 2 with processes 0 and 1: the maximum is taken by reading the
// other's number (the process's own number is 0 at that point: it was reset
// on exit, and a process always reads its own latest write), and the j = i
// round of the for loop is left out (choosing[i] is 0 and (n, i) < (n, i) is
// false, so it never waits). The ticket is kept in the local `t`, which holds
// what a read of number[i] would return. Each L3 test reads number[j] once
// (into `n`). Tickets grow without bound: two processes can keep taking
// turns forever, each taking the other's ticket plus one.
// Symmetric: written as a template; the tie-break (number[j], j) < (t, i)
// with j = 1 - i compares the constant 1 - i < i.
//
// Expected fences: under TSO two, after `choosing[i] = 1;` and after the
// ticket is published (`number[i] = t;` or `choosing[i] = 0;`).

// Checked with fencer's explicit-state checker (kabs.Concrete, every subset of the
// fence sites up to the size shown):
// TSO: every single site has a counterexample; {after `choosing[i] = 1;`,
// after `number[i] = t;`} and {after `choosing[i] = 1;`, after
// `choosing[i] = 0;`} show none within 400,000 states (the state space is
// infinite: tickets are unbounded, so this is no proof).
//
// fences per process from Table 1 of the SAS 2012 paper; confirmed by fencer (a verified minimum over write sites)
// fencer: expect sc safe
// fencer: expect tso fences=2
// fencer: expect pso fences=2
// pso: the count fencer finds and verifies (each of the two fences has a
// real PSO counterexample without it); no independent source.

shared choosing[2], number[2];

process P[i in 0..1] {
  local t, n;
  while (true) {
    choosing[i] = 1;
    t = number[1 - i] + 1 + 0 * n;
    number[i] = t;
    choosing[i] = 0;
    while (choosing[1 - i] != 0) { }
    n = number[1 - i];
    while (n != 0 && (n < t || (n == t && 1 - i < i))) {
      n = number[1 - i];
    }
cs: skip;
    number[i] = 0;
  }
}

mutex cs;
