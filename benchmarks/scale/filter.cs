// The filter lock (Peterson's algorithm generalised to N processes).
// N = 2 here; `-D N=3` or `-D N=4`
// on the command line runs it with 3 or 4 processes (the expectations
// below hold for every N).
//
// Source: G. L. Peterson, "Myths about the mutual exclusion problem",
// Information Processing Letters 12(3), 1981, the n-process algorithm
// (reference [21] of the SAS 2012 paper, whose Peterson benchmark is its
// 2-process case); the name "filter lock" is Herlihy and Shavit's (The Art of
// Multiprocessor Programming, 2008, ch. 2). Process i:
//
//   for j := 1 to n-1 do
//     Q[i] := j; TURN[j] := i;
//     wait until (for all k != i: Q[k] < j) or TURN[j] != i
//   critical section
//   Q[i] := 0
//
// Q is `level`, TURN is `victim` (victim[0] is unused). The wait is a busy
// loop that reads each level[k] (k != i) once and then victim[l] once per
// iteration and leaves when the condition held for the values read; the
// levels are compile-time `for` copies, so `level[i] = l;` and
// `victim[l] = i;` are one fence site each for all levels and processes.
//
// Fence sites: `level[i] = l;`, `victim[l] = i;`, `level[i] = 0;`.
//
// Expectations, and how each was established:
// SC safe: Peterson's proof. Explicit checker (`fencer explore`, concrete
//   values, real buffers): N = 2 and N = 3 explored to the end, safe
//   (1,199 and 1,084,597 states); N = 4 too large for it.
// TSO fences=1, after `victim[l] = i;`.
//   At least 1: checker, N = 2: no fence gives a 26-step counterexample
//   (both processes pass their first level). It lifts to every N: let P[2..]
//   stay idle at level 0 (reads of level[k] >= l with level[k] = 0 change
//   nothing), play the N = 2 trace at level 1, flush all buffers, and play
//   it again at each next level: a level-l round sees the old level l-1,
//   which fails `>= l` as 0 failed `>= 1`, and victim[l] still holds its
//   initial 0.
//   At most 1: checker, explored to the end with this fence: N = 2 safe
//   (2,181 states), N = 3 safe (1,918,969 states). For every N, the
//   textbook proof (Herlihy & Shavit, ch. 2: of the processes at level
//   >= l, the last to write victim[l] cannot pass while another is there)
//   needs only that (a) level[i] = l reaches memory before
//   victim[l] = i, (b) i's reads in the wait come after both reached
//   memory, and (c) a late `level[i] = 0` only shows i at a higher level
//   for longer, which can only make others wait. Under TSO (a) is the FIFO
//   order of the buffer and (b) is the fence.
// PSO fences=2, after `level[i] = l;` and after `victim[l] = i;`.
//   At least 2: checker, N = 2: no fence, each single site, and the two
//   other pairs have counterexamples (34 steps or fewer); they lift as
//   above.
//   At most 2: checker with these fences, N = 2: safe (2,087 states,
//   explored to the end); N = 3: safe (1,932,102 states, explored to the
//   end).
//   Argument: under PSO, (a) needs the fence after `level[i] = l;`; (b)
//   and (c) hold as for TSO.
// What fencer measures on this file: benchmarks/scale/README.md.
// fencer: expect sc safe
// fencer: expect tso fences=1
// fencer: expect pso fences=2

const N = 2;
shared level[N], victim[N];

process P[i in 0..N-1] {
  local c;
  while (true) {
    for (l in 1..N-1) {
      level[i] = l;
      victim[l] = i;
      c = 1;
      while (c == 1) {
        c = 0;
        for (k in 0..N-1) {
          if (k != i) {
            if (level[k] >= l) c = 1;
          }
        }
        if (victim[l] != i) c = 0;
      }
    }
cs: skip;
    level[i] = 0;
  }
}

mutex cs;
