// Message passing with an array: a writer fills a buffer, then raises a flag.
//
// Exercises `const`, shared and local arrays and the compile-time `for`.
// The writer's loop body `buf[k] = k + 1;` is one write statement, hence one
// fence site that serves all N unrolled copies; it has no braces, so a fence
// inserted there would be written as `{ buf[k] = k + 1; fence; }`.
//
// SC and TSO: correct with no fence (under TSO the writes leave the single
// FIFO buffer in program order). PSO: `ready = 1` can reach memory before
// some `buf[k]`; one fence fixes it, either in the loop body or after the
// loop (a fence after `ready = 1;` would not). fencer puts it after the
// loop, where it runs once instead of N times (`fencer insert --all` lists
// the other).
//
// Loop-free after unrolling. The bad state is a failing assert.

// fencer: expect sc safe
// fencer: expect tso safe
// fencer: expect pso fences=1

const N = 3;

shared buf[N], ready;

process Writer {
  for (k in 0..N-1)
    buf[k] = k + 1;
  ready = 1;
}

process Reader {
  local r, v[N];
  r = ready;
  if (r == 1) {
    for (k in 0..N-1) {
      v[k] = buf[k];
      assert(v[k] == k + 1);
    }
  }
}
// fencer: expect arm fences=2
// fencer: expect riscv fences=2
// fencer: expect rmo fences=2
