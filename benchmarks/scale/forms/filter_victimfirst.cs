// Peterson's filter lock as the textbook's condition is often coded
// (compare ../filter.cs, the same algorithm): the wait at level l tests
// victim[l] first and only then scans the other processes' levels, with a
// local found flag.
// N = 2 here; `-D N=3` or `-D N=4` on the command line.
//
// Fence sites: `level[i] = l;`, `victim[l] = i;`, `level[i] = 0;`.
// Expectations: those of ../filter.cs. The loop leaves when victim[l] != i
// or no other level[k] >= l, as there; the reads are the same, in another
// order, and the scan is skipped when victim[l] != i. Checked by
// `fencer check` at N = 2 and 3.
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
        if (victim[l] == i) {
          for (k in 0..N-1) {
            if (k != i) {
              if (level[k] >= l) c = 1;
            }
          }
        }
      }
    }
cs: skip;
    level[i] = 0;
  }
}

mutex cs;
