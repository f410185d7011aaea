// Test amd3 (AMD64 manual, cited in CACM 2010, Sewell et al., under Example
// 8-3): "similar [to SB] but with additional writes inserted in the middle
// of each thread, of 2 to x and y respectively"; permitted by x86-TSO.
//
//   P0: x = 1; x = 2; r1 = y;     P1: y = 1; y = 2; r2 = x;
//   outcome: r1 == 0 && r2 == 0
//
// SC: forbidden (the first write of x or y to happen precedes the other
//     process's read, which then returns 1 or 2).
// TSO: allowed (all four writes wait in the buffers while both reads go to
//     memory). Fences: a fence in one process only leaves the other
//     process's SB run (it runs entirely with its writes buffered and reads
//     0 before the fenced process starts). One fence per process, after
//     either of its writes, puts a write of its variable in memory before
//     its read, and SC's argument applies. Minimum 2.
// PSO: allowed (PSO allows all TSO behaviours; SPARC V9, Appendix D). Each
//     process writes one variable (its two writes share a FIFO buffer), so
//     PSO = TSO here: minimum 2.
//
// fencer: expect sc safe
// fencer: expect tso fences=2
// fencer: expect pso fences=2

shared x, y;

process P0 {
  local r1;
  x = 1;
  x = 2;
  r1 = y;
  if (r1 == 0) { a0: skip; }
}

process P1 {
  local r2;
  y = 1;
  y = 2;
  r2 = x;
  if (r2 == 0) { a1: skip; }
}

forbidden P0@a0, P1@a1;
// fencer: expect arm fences=2
// fencer: expect riscv fences=2
// fencer: expect rmo fences=2
