// Test n4 of Owens, Sarkar, Sewell, "A better x86 memory model: x86-TSO"
// (TPHOLs 2009), one of the tests the earlier x86-CC model allowed: forbidden
// in x86-TSO. The outcome does not rest on the citation alone: the argument
// below derives it from the x86-TSO machine.
//
//   P0: r1 = x; x = 1;      P1: r2 = x; x = 2;
//   outcome: r1 == 2 && r2 == 1
//
// SC: forbidden (x = 2 < P0 reads x < x = 1 < P1 reads x < x = 2).
// TSO: forbidden: r1 == 2 needs x = 2 in memory before P0's read, which
//     is before P0 even issues x = 1; r2 == 1 needs x = 1 in memory before
//     P1's read, which is before P1 issues x = 2: a cycle. Reads are never
//     delayed.
// PSO: forbidden (same argument: a single variable, and PSO never lets a
//     store overtake an earlier load; SPARC V9, Appendix D).
//
// fencer: expect sc safe
// fencer: expect tso safe
// fencer: expect pso safe

shared x;

process P0 {
  local r1;
  r1 = x;
  x = 1;
  assume(r1 == 2);
a0: skip;
}

process P1 {
  local r2;
  r2 = x;
  x = 2;
  assume(r2 == 1);
a1: skip;
}

forbidden P0@a0, P1@a1;
// fencer: expect arm safe
// fencer: expect riscv safe
// fencer: expect rmo safe
