// Load buffering (LB).
//
// Each process reads one variable and then writes the other. Both reads
// returning 1 would need a read to see a write that comes after it in the
// other process's program order, which SC forbids and which TSO and PSO
// forbid too: they only delay writes, never reads. No fence is needed
// under any model.
//
// Loop-free. The bad state: both processes at `seen` (both read 1).

// fencer: expect sc safe
// fencer: expect tso safe
// fencer: expect pso safe

shared x, y;

process P0 {
  local r;
  r = x;
  y = 1;
  assume(r == 1);
seen: skip;
}

process P1 {
  local r;
  r = y;
  x = 1;
  assume(r == 1);
seen: skip;
}

mutex seen;
// fencer: expect arm fences=2
// fencer: expect riscv fences=2
// fencer: expect rmo fences=2
