// SB with an MFENCE in one thread only (SB+mfence+po of the x86 litmus
// collection, litmus-tests/litmus-tests-x86). Outcome from the x86-TSO
// machine (CACM 2010, Sewell et al., §3): one fence does not forbid SB.
//
//   P0: x = 1; fence; r1 = y;     P1: y = 1; r2 = x;
//   outcome: r1 == 0 && r2 == 0
//
// SC: forbidden (as SB, SDM 8-3).
// TSO: allowed: P1 buffers y = 1 and reads x == 0; then P0 writes x = 1
//     through its fence and reads y == 0 (P1's write is still buffered).
//     Fences: the existing fence stays; one more after `y = 1;` gives
//     SB+mfences, forbidden. Minimum 1.
// PSO: allowed (PSO allows all TSO behaviours; SPARC V9, Appendix D);
//     one variable written per process, so as TSO: minimum 1.
//
// fencer: expect sc safe
// fencer: expect tso fences=1
// fencer: expect pso fences=1

shared x, y;

process P0 {
  local r1;
  x = 1;
  fence;
  r1 = y;
  if (r1 == 0) { a0: skip; }
}

process P1 {
  local r2;
  y = 1;
  r2 = x;
  if (r2 == 0) { a1: skip; }
}

forbidden P0@a0, P1@a1;
// fencer: expect arm fences=1
// fencer: expect riscv fences=1
// fencer: expect rmo fences=1
