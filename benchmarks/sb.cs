// Store buffering (SB), written as a template.
//
// Each process raises its own flag and then reads the other's. Under SC at
// least one of them sees the other's flag, so both cannot read 0. Under TSO
// and PSO both writes can sit in the store buffers while both reads go to
// memory, so both read 0. A fence after `flag[i] = 1;` forbids it; as the
// write is in a template, that is one fence site for both processes.
//
// Loop-free. The bad state: both processes at `zero`, which is reached only
// when the read returned 0.

// fencer: expect sc safe
// fencer: expect tso fences=1
// fencer: expect pso fences=1

shared flag[2];

process P[i in 0..1] {
  local r;
  flag[i] = 1;
  r = flag[1 - i];
  assume(r == 0);
zero: skip;
}

mutex zero;
// fencer: expect arm fences=1
// fencer: expect riscv fences=1
// fencer: expect rmo fences=1
