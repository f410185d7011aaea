// A seqlock: a writer loop that publishes a two-word record under a
// sequence counter, and a reader that takes a consistent snapshot (issue 13).
//
// W loops forever: it makes seq odd, writes the record x = y = v, makes seq
// even again. R reads seq, x, y, seq; if both reads of seq saw the same even
// value, its snapshot must be consistent (a == b).
//
// - SC: safe. If R's two reads of seq return the same even value 2k, W's
//   last write to seq before R's first read was seq = 2k (seq only grows),
//   which ended a section with x = y = k, and W wrote nothing to seq before
//   R's second read, so it did not start the next section (which begins with
//   seq = 2k + 1) and x, y were not written in between: a == b == k.
// - TSO: safe with no fence. W never reads a shared variable, so no pair of
//   its accesses is one TSO reorders (write then read), and R only reads:
//   the program has no critical cycle, every TSO run is equivalent to an SC
//   run (`fencer robust benchmarks/seqlock.cs`), and the SC argument holds.
//   The k-abstraction alone cannot show it: the writer loop always has one
//   write more than the k exact slots.
// - PSO: W's writes may reach memory out of order. With no fence, x = v can
//   reach memory before seq = 2k+1 (R sees seq 2k, x new, y old, seq 2k);
//   with a fence after the odd seq write only, seq = 2k+2 can reach memory
//   before y = v (R sees seq 2k+2, x new, y old, seq 2k+2); with a fence
//   after y = v only, the first run above is still possible. The explicit
//   checker finds all three (`fencer explore --model pso`). With both fences,
//   seq odd reaches memory before x and y, and x, y before seq even, in each
//   section; R's reads are not reordered under PSO, so the SC argument
//   holds: fences=2. (Two sites; the counters are unbounded, so the explicit
//   checker cannot explore the fenced program to the end.)

// fencer: expect sc safe
// fencer: expect tso safe
// fencer: expect pso fences=2

shared seq, x, y;

process W {
  local s, v;
  while (true) {
    seq = s + 1;
    v = v + 1;
    x = v;
    y = v;
    s = s + 2;
    seq = s;
  }
}

process R {
  local s1, s2, a, b;
  s1 = seq;
  a = x;
  b = y;
  s2 = seq;
  assume(s1 == s2 && s1 % 2 == 0);
  assert(a == b);
}
// fencer: expect arm fences=4
// fencer: expect riscv fences=4
// fencer: expect rmo fences=4
