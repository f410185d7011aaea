// Store buffering (SB), written as two separate processes.
//
// The same shape as sb.cs, but the two write statements are distinct source
// statements, so the fix needs two fence sites (one after `x = 1;`, one after
// `y = 1;`), where sb.cs needs one.
//
// Loop-free. The bad state: both processes at `zero` (both read 0).

// fencer: expect sc safe
// fencer: expect tso fences=2
// fencer: expect pso fences=2

shared x, y;

process P0 {
  local r;
  x = 1;
  r = y;
  assume(r == 0);
zero: skip;
}

process P1 {
  local r;
  y = 1;
  r = x;
  assume(r == 0);
zero: skip;
}

forbidden P0@zero, P1@zero;
// fencer: expect arm fences=2
// fencer: expect riscv fences=2
// fencer: expect rmo fences=2
