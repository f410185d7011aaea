// Burns' mutual exclusion algorithm (the Burns-Lynch one-bit algorithm), N
// processes. N = 2 here; `-D N=3` or `-D N=4`
// on the command line runs it with 3 or 4 processes (the expectations
// below hold for every N).
//
// Source: J. E. Burns and N. A. Lynch, "Mutual exclusion using indivisible
// reads and writes", 18th Allerton Conference, 1980, in the form of N. Lynch
// and B. Patt-Shamir, Distributed Algorithms, lecture notes for 6.852, MIT,
// 1993 (reference [19] of the SAS 2012 paper). Process i of n:
//
//   L: flag[i] := 0
//      for j in 0..i-1: if flag[j] = 1 then goto L
//      flag[i] := 1
//      for j in 0..i-1: if flag[j] = 1 then goto L
//   M: for j in i+1..n-1: if flag[j] = 1 then goto M
//      critical section
//      flag[i] := 0
//      remainder, then back to L
//
// Written as one template: the `for` loops are compile-time copies whose
// bounds depend on i (empty for j in 0..-1 and j in n..n-1), so the code of
// each instance is that of the notes. (benchmarks/burns.cs writes the two
// instances of n = 2 out as two processes, so there each process's fence is
// a site of its own; here one site serves all instances.)
//
// Fence sites: `flag[i] = 0;` at L, `flag[i] = 1;`, `flag[i] = 0;` at exit.
//
// Expectations, and how each was established:
// SC safe: Burns and Lynch's proof. Checker: N = 2 and N = 3 explored to
//   the end under SC, safe (184 and 6,582 states).
// TSO fences=1, after `flag[i] = 1;`.
//   At least 1: checker: no fence gives a counterexample (N = 2: 12 steps;
//   N = 3: 16 steps).
//   At most 1: argument, for every N. Let i < j both be at cs, and let
//   w_i, w_j be the moments their last `flag = 1` reached memory. After it
//   each read the other's flag and saw 0 (j in its second loop over
//   0..j-1, i in its loop at M over i+1..n-1), after its own fence, so
//   after its own w. Neither writes its flag again before leaving cs, and
//   nobody else writes it, so the one whose w came later read the other's
//   flag while it was 1: a contradiction. Earlier `flag[i] = 0` writes are
//   older in the FIFO buffer, so they cannot land after w_i. The checker
//   cannot finish this fence set (the retry loop at L fills the buffer with
//   `flag[i] = 0` writes without bound): N = 2, no counterexample in
//   300,000 states; with a second fence, after the first `flag[i] = 0;`,
//   the space is finite: safe (459 states).
// PSO fences=1, the same site: each process writes only its own flag, and
//   PSO with one variable per process is TSO (one FIFO buffer for it); the
//   argument above holds unchanged. Checker at N = 2: the same results as
//   under TSO for no fence and each single site (counterexamples of 12, 16
//   and 12 steps; none within 150,000 states with the expected fence) and
//   for the two fences above (safe, 459 states).
// What fencer measures on this file: benchmarks/scale/README.md.
// fencer: expect sc safe
// fencer: expect tso fences=1
// fencer: expect pso fences=1

const N = 2;
shared flag[N];

process P[i in 0..N-1] {
L:  flag[i] = 0;
    for (j in 0..i-1) {
      if (flag[j] == 1) goto L;
    }
    flag[i] = 1;
    for (j in 0..i-1) {
      if (flag[j] == 1) goto L;
    }
M:  skip;
    for (j in i+1..N-1) {
      if (flag[j] == 1) goto M;
    }
cs: skip;
    flag[i] = 0;
    goto L;
}

mutex cs;
