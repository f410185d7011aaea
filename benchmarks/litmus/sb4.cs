// Store buffering around a ring of 4 processes, written out process by
// process (the .cs form of x86/sb4.litmus): P_i writes x_i = 1, then
// reads x_(i+1 mod 4); the outcome is every read returning 0.
//
// SC: forbidden (the first write in the interleaving precedes the read of
//     its variable by the previous process in the ring).
// TSO: allowed (every write buffered, every read from memory). With a fence
//     after every write but P_i's, P_i buffers its write and reads 0 first,
//     then P_(i+1), ..., P_(i-1) in turn write, fence and read 0 (the next
//     one has not written yet, and P_(i-1) reads P_i's write still in its
//     buffer): allowed. So each of the 4 writes needs its fence: minimum 4
//     (checked by the explicit checker, fencer explore, with each one left
//     out).
// PSO: one variable written per process, so PSO = TSO here: minimum 4.
//
// fencer: expect sc safe
// fencer: expect tso fences=4
// fencer: expect pso fences=4

shared x0, x1, x2, x3;

process P0 {
  local r0;
  x0 = 1;
  r0 = x1;
  if (r0 == 0) { a0: skip; }
}

process P1 {
  local r1;
  x1 = 1;
  r1 = x2;
  if (r1 == 0) { a1: skip; }
}

process P2 {
  local r2;
  x2 = 1;
  r2 = x3;
  if (r2 == 0) { a2: skip; }
}

process P3 {
  local r3;
  x3 = 1;
  r3 = x0;
  if (r3 == 0) { a3: skip; }
}

forbidden P0@a0, P1@a1, P2@a2, P3@a3;
// fencer: expect arm fences=4
// fencer: expect riscv fences=4
// fencer: expect rmo fences=4
