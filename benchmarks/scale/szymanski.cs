// Szymanski's mutual exclusion algorithm, N processes.
// N = 2 here; `-D N=3` or `-D N=4`
// on the command line runs it with 3 or 4 processes (the expectations
// below hold for every N).
//
// Source: B. K. Szymanski, "A simple solution to Lamport's concurrent
// programming problem with linear wait", Proc. ICS 1988, in its usual
// flag-value form (0 outside, 1 intending to enter, 2 waiting for others
// to come in, 3 in the doorway, 4 the door is closed). Process i:
//
//   flag[i] := 1
//   await (for all j: flag[j] in {0, 1, 2})     -- the door is open
//   flag[i] := 3
//   if (exists j: flag[j] = 1) then
//     flag[i] := 2
//     await (exists j: flag[j] = 4)             -- someone closed the door
//   flag[i] := 4
//   await (for all j < i: flag[j] in {0, 1})
//   critical section
//   await (for all j > i: flag[j] in {0, 1, 4})
//   flag[i] := 0
//
// Each await over all j is a sequence of busy-waits, one flag at a time,
// and each test reads the flag once (into a local when it is compared
// twice); "exists" scans the other flags once per attempt into the local c.
// The own flag is left out of the scans (it never blocks: it is 1, 3 or 4
// there).
//
// Fence sites: `flag[i] = 1;`, `flag[i] = 3;`, `flag[i] = 2;`,
// `flag[i] = 4;`, `flag[i] = 0;`.
//
// Expectations, and how each was established:
// SC safe: Szymanski's proof. Checker: N = 2 and N = 3 explored to the end
//   under SC, safe (3,941 and 1,481,377 states). (A first version that read
//   flag[j] twice in the exit test `flag[j] == 2 || flag[j] == 3` was wrong
//   under SC, an 82-step trace: each test now reads the flag once.)
// TSO fences=2, after `flag[i] = 1;` and after `flag[i] = 3;`.
//   At least 2: checker, N = 2: no fence, every single site and every other
//   pair of the five sites give counterexamples (30 to 40 steps).
//   A counterexample for N = 2 is one for every larger N: the other
//   processes may stay at their first statement (no schedule has to run
//   them), where all their shared variables still hold 0, and 0 never makes
//   anyone wait or retry in this algorithm, so P[0] and P[1] take exactly
//   the steps of the N = 2 trace (plus reads of the idle processes'
//   variables that change nothing). The fence sites are the same template
//   statements for every N, so a fence set that fails at N = 2 fails at
//   every N: lower bounds found at N = 2 hold for N = 3 and 4.
//   At most 2: checker with these fences: N = 2 safe (8,792 states,
//   explored to the end); N = 3: safe (3,660,203 states, explored to the
//   end). N = 4: no counterexample within 3,000,000 states (depth 55); for N
//   = 4 the upper bound rests on this bounded search only, no proof.
// PSO fences=2, the same sites: each process writes only its own flag, so
//   PSO is TSO here (one FIFO buffer per variable); the checker at N = 2
//   gives exactly the TSO results (the same counterexamples, and the same
//   pair safe in 8,792 states).
// What fencer measures on this file: benchmarks/scale/README.md.
// fencer: expect sc safe
// fencer: expect tso fences=2
// fencer: expect pso fences=2

const N = 2;
shared flag[N];

process P[i in 0..N-1] {
  local c;
  while (true) {
    flag[i] = 1;
    for (j in 0..N-1) {
      if (j != i) {
        while (flag[j] >= 3) { }
      }
    }
    flag[i] = 3;
    c = 0;
    for (j in 0..N-1) {
      if (j != i) {
        if (flag[j] == 1) c = 1;
      }
    }
    if (c == 1) {
      flag[i] = 2;
      while (c != 4) {
        for (j in 0..N-1) {
          if (j != i) {
            if (flag[j] == 4) c = 4;
          }
        }
      }
    }
    flag[i] = 4;
    for (j in 0..i-1) {
      while (flag[j] >= 2) { }
    }
cs: skip;
    for (j in i+1..N-1) {
      c = flag[j];
      while (c == 2 || c == 3) {
        c = flag[j];
      }
    }
    flag[i] = 0;
  }
}

mutex cs;
