// Szymanski's algorithm as a C programmer writes it (compare
// ../szymanski.cs, the same algorithm): every busy-wait reads the flag into
// a local copy re-read in the loop, and the door test is a loop over the
// others that stops at the first flag == 1.
// N = 2 here; `-D N=3` or `-D N=4` on the command line.
//
// Fence sites: `flag[i] = 1;`, `flag[i] = 3;`, `flag[i] = 2;`,
// `flag[i] = 4;`, `flag[i] = 0;`.
// Expectations: those of ../szymanski.cs: the same writes, and each wait
// the same sequence of reads; stopping the door test at the first
// flag[j] == 1 only skips reads whose result no longer matters. Checked by
// `fencer check` at N = 2 and 3.
// fencer: expect sc safe
// fencer: expect tso fences=2
// fencer: expect pso fences=2

const N = 2;
shared flag[N];

process P[i in 0..N-1] {
  local c, f;
  while (true) {
    flag[i] = 1;
    for (j in 0..N-1) {
      if (j != i) {
        f = flag[j];
        while (f >= 3) {
          f = flag[j];
        }
      }
    }
    flag[i] = 3;
    c = 0;
    for (j in 0..N-1) {
      if (j != i && c == 0) {
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
      f = flag[j];
      while (f >= 2) {
        f = flag[j];
      }
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
