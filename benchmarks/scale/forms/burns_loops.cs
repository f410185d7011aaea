// Burns' algorithm written with loops and a restart flag instead of goto
// (compare ../burns.cs, the same algorithm).
// N = 2 here; `-D N=3` or `-D N=4` on the command line.
//
// Fence sites: `flag[i] = 0;` (both), `flag[i] = 1;`.
// Expectations: those of ../burns.cs: `again = 1` takes the place of
// `goto L` (the round restarts at `flag[i] = 0;` and skips the rest of the
// scan: the scan's later reads change nothing once `again` is set), and the
// last scan restarts from its first j as `goto M` does. Checked by
// `fencer check` at N = 2 and 3.
// fencer: expect sc safe
// fencer: expect tso fences=1
// fencer: expect pso fences=1

const N = 2;
shared flag[N];

process P[i in 0..N-1] {
  local again;
  while (true) {
    again = 1;
    while (again == 1) {
      flag[i] = 0;
      again = 0;
      for (j in 0..i-1) {
        if (again == 0) {
          if (flag[j] == 1) again = 1;
        }
      }
      if (again == 0) {
        flag[i] = 1;
        for (j in 0..i-1) {
          if (again == 0) {
            if (flag[j] == 1) again = 1;
          }
        }
      }
    }
    again = 1;
    while (again == 1) {
      again = 0;
      for (j in i+1..N-1) {
        if (again == 0) {
          if (flag[j] == 1) again = 1;
        }
      }
    }
cs: skip;
    flag[i] = 0;
  }
}

mutex cs;
