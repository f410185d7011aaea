// Dijkstra's N-process mutual exclusion algorithm (1965).
// N = 2 here; `-D N=3` or `-D N=4`
// on the command line runs it with 3 or 4 processes (the expectations
// below hold for every N).
//
// Source: E. W. Dijkstra, "Solution of a problem in concurrent programming
// control", CACM 8(9), 1965, in the form of N. Lynch and B. Patt-Shamir,
// Distributed Algorithms, lecture notes for 6.852, MIT, 1993 (reference [19]
// of the SAS 2012 paper), as benchmarks/dijkstra.cs. flag[i] is 0
// (remainder), 1 (trying) or 2 (about to enter); turn is a process index
// (it starts at 0; the notes leave it arbitrary). Process i:
//
//   L: flag[i] := 1
//      while turn != i do
//        if flag[turn] = 0 then turn := i
//      flag[i] := 2
//      for j != i: if flag[j] = 2 then goto L
//      critical section
//      flag[i] := 0
//      remainder, then back to L
//
// fencer needs constant array indices, so `flag[turn]` reads turn again into
// the local `t` and then reads flag[t] through a compile-time `for` over the
// indices (exactly one copy's test holds, so exactly one flag is read); this
// keeps the two reads of turn of the original (the loop test, then the
// index). `turn = i;` inside that `for` is one fence site.
//
// Fence sites: `flag[i] = 1;`, `turn = i;`, `flag[i] = 2;`, `flag[i] = 0;`.
//
// Expectations, and how each was established:
// SC safe: Dijkstra's proof. Checker: N = 2 and N = 3 explored to the end
//   under SC, safe (1,589 and 944,117 states).
// TSO fences=1, after `flag[i] = 2;`.
//   At least 1: checker: no fence gives a counterexample (N = 2: 24 steps,
//   N = 3: 31 steps); so does a fence at any single other site (N = 2).
//   At most 1: argument, for every N and for TSO and PSO alike. If i and j
//   are both at cs, each wrote flag = 2, fenced, then read the other's flag
//   and saw something other than 2, and wrote nothing more before cs. Of
//   the two `flag = 2` writes, the one that reached memory first stays in
//   memory until its process leaves cs (nobody else writes that flag, and
//   the owner's next write is issued after cs); the other process read it
//   after its own fence, so after that moment, and saw 2: a contradiction.
//   Checker with this fence: N = 2 safe (8,818 states, explored to the
//   end); N = 3: no counterexample within 3,000,000 states (depth 77; not to
//   the end).
// PSO fences=1, the same site: at least 1 (checker, N = 2: no fence, or a
//   fence at any other single site, gives a counterexample); at most 1 by
//   the argument above (the fence empties all of i's buffers). Checker with
//   this fence: N = 2 safe (9,453 states, explored to the end).
// What fencer measures on this file: benchmarks/scale/README.md.
// fencer: expect sc safe
// fencer: expect tso fences=1
// fencer: expect pso fences=1

const N = 2;
shared flag[N], turn;

process P[i in 0..N-1] {
  local t;
L:  flag[i] = 1;
    while (turn != i) {
      t = turn;
      for (j in 0..N-1) {
        if (j != i && t == j) {
          if (flag[j] == 0) turn = i;
        }
      }
    }
    flag[i] = 2;
    for (j in 0..N-1) {
      if (j != i) {
        if (flag[j] == 2) goto L;
      }
    }
cs: skip;
    flag[i] = 0;
    goto L;
}

mutex cs;
