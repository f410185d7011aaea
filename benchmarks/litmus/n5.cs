// Test n5 of Owens, Sarkar, Sewell, "A better x86 memory model: x86-TSO"
// (TPHOLs 2009), one of the tests the earlier x86-CC model allowed: forbidden
// in x86-TSO. The outcome does not rest on the citation alone: the argument
// below derives it from the x86-TSO machine.
//
//   P0: x = 1; r1 = x;      P1: x = 2; r2 = x;
//   outcome: r1 == 2 && r2 == 1
//
// SC: forbidden (r1 == 2 puts x = 1 < x = 2 < P0's read; r2 == 1 puts
//     x = 2 < x = 1).
// TSO: forbidden: P0 reads 2, not its own 1, only once x = 1 has left its
//     buffer and x = 2 has reached memory after it; symmetrically r2 == 1
//     needs x = 1 to reach memory after x = 2: the two orders contradict.
// PSO: forbidden (one variable: PSO's per-variable buffer is FIFO and is
//     read first, so the TSO argument holds; SPARC V9, Appendix D).
//
// fencer: expect sc safe
// fencer: expect tso safe
// fencer: expect pso safe

shared x;

process P0 {
  local r1;
  x = 1;
  r1 = x;
  if (r1 == 2) { a0: skip; }
}

process P1 {
  local r2;
  x = 2;
  r2 = x;
  if (r2 == 1) { a1: skip; }
}

forbidden P0@a0, P1@a1;
// fencer: expect arm safe
// fencer: expect riscv safe
// fencer: expect rmo safe
