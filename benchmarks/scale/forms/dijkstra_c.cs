// Dijkstra's mutual exclusion as a C programmer writes it (compare
// ../dijkstra.cs, the same algorithm): loops instead of goto, `turn` read
// once per round into a local, and the scan of the others' flags ended by a
// local flag instead of a jump back.
// N = 2 here; `-D N=3` or `-D N=4` on the command line.
//
// Fence sites: `flag[i] = 1;`, `turn = i;`, `flag[i] = 2;`, `flag[i] = 0;`.
// Expectations: those of ../dijkstra.cs: the same reads and writes in the
// same order; `again` set by a flag[j] == 2 takes the place of `goto L`.
// Checked by `fencer check` at N = 2 and 3.
// fencer: expect sc safe
// fencer: expect tso fences=1
// fencer: expect pso fences=1

const N = 2;
shared flag[N], turn;

process P[i in 0..N-1] {
  local t, again;
  while (true) {
    again = 1;
    while (again == 1) {
      flag[i] = 1;
      t = turn;
      while (t != i) {
        for (j in 0..N-1) {
          if (j != i && t == j) {
            if (flag[j] == 0) turn = i;
          }
        }
        t = turn;
      }
      flag[i] = 2;
      again = 0;
      for (j in 0..N-1) {
        if (j != i) {
          if (flag[j] == 2) again = 1;
        }
      }
    }
cs: skip;
    flag[i] = 0;
  }
}

mutex cs;
