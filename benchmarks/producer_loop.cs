// A producer loop (issue 13).
//
// W counts forever and publishes each value to d, then to c; R reads c, then
// d, and asserts that it never sees a c newer than d. Under SC and TSO this
// holds: W's two writes reach memory in order (one FIFO buffer) and R's two
// reads happen in order, so a reader that sees c = m then sees d >= m. The
// k-abstraction cannot show it (the writer loop always has one write more
// than k exact slots), but the program is robust under TSO: the only pairs
// that TSO reorders are a write followed by a read, and W never reads a
// shared variable; so every TSO run is equivalent to an SC run.
//
// Under PSO the two writes may reach memory out of order: R can see the new
// c and the old d. A fence after `d = n;` cuts the one critical cycle
// (W: d then c; R: c then d); the pair c then d of the next iteration lies
// on no cycle that visits each process once.

// fencer: expect sc safe
// fencer: expect tso safe
// fencer: expect pso fences=1

shared c, d;

process W {
  local n;
  while (true) {
    n = n + 1;
    d = n;
    c = n;
  }
}

process R {
  local a, b;
  a = c;
  b = d;
  assert(b >= a);
}
// fencer: expect arm fences=2
// fencer: expect riscv fences=2
// fencer: expect rmo fences=2
