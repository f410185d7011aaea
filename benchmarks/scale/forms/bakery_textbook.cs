// Lamport's Bakery as a C programmer writes it from the textbook (compare
// ../bakery.cs, the same algorithm): the maximum is taken over every
// number[j], the process's own included; the ticket is never kept in a
// local, the comparison is written against `m + 1`; the wait on
// choosing[j] reads it into a local copy that the loop re-reads.
// N = 2 here; `-D N=3` or `-D N=4` on the command line.
//
// Fence sites: `choosing[i] = 1;`, `number[i] = m + 1;`, `choosing[i] = 0;`,
// `number[i] = 0;`: the sites of ../bakery.cs, in the same order.
//
// Expectations: those of ../bakery.cs, which this file computes the same
// way: a process's own number is 0 when it takes the maximum (reset on
// exit, and a process reads its own latest write), so including it changes
// no maximum; `m + 1` is the ticket `t` of ../bakery.cs; a local copy of
// choosing[j] re-read until it is 0 is the same sequence of reads as the
// busy-wait. The expectations below are checked by `fencer check` at N = 2
// and 3 (make check-forms).
// fencer: expect sc safe
// fencer: expect tso fences=2
// fencer: expect pso fences=2

const N = 2;
shared choosing[N], number[N];

process P[i in 0..N-1] {
  local m, n, c;
  while (true) {
    choosing[i] = 1;
    m = 0;
    for (j in 0..N-1) {
      n = number[j];
      if (n > m) m = n;
    }
    number[i] = m + 1;
    choosing[i] = 0;
    for (j in 0..N-1) {
      if (j != i) {
        c = choosing[j];
        while (c != 0) {
          c = choosing[j];
        }
        n = number[j];
        while (n != 0 && (n < m + 1 || (n == m + 1 && j < i))) {
          n = number[j];
        }
      }
    }
cs: skip;
    number[i] = 0;
  }
}

mutex cs;
