// Test n4 (Owens, Sarkar, Sewell, TPHOLs 2009, §2; CACM 2010): forbidden in
// x86-TSO. The argument below follows from the x86-TSO machine alone.
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
