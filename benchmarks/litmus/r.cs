// Test R (PodWW Coe PodWR Fre). Shape as R.litmus of the x86 litmus
// collection (litmus-tests/litmus-tests-x86, BASIC_2_THREAD), exists
// (y=2 /\ 1:rax=0). Outcome from the x86-TSO machine (CACM 2010, Sewell et
// al., §3): allowed, the x86 relaxation is the write->read pair of P1 (an
// SB shape where one "read" is the coherence order of y).
//
//   P0: x = 1; y = 1;       P1: y = 2; r1 = x;
//   outcome: r1 == 0 && final y == 2
//
// Final memory is observed by Obs after both writers announce "done" with
// a locked exchange (`swap`, not a fence site), as in n6.cs: the swap
// drains the writer's buffers after its last write, so the value Obs reads
// is final; the outcome set is unchanged.
//
// SC: forbidden: r1 == 0 puts y = 2 < P1's read < x = 1 < y = 1, so
//     final y == 1.
// TSO: allowed: P1 buffers y = 2 and reads x == 0; P0 writes x = 1 and
//     y = 1 to memory; then y = 2 drains: final y == 2.
//     Fences: a fence after `y = 2;` gives the SC argument (P0's writes
//     stay in order under TSO): forbidden. A fence after `x = 1;` alone
//     leaves the run above. Minimum 1.
// PSO: allowed (PSO allows all TSO behaviours; SPARC V9, Appendix D).
//     With the fence after `y = 2;` only, P0's y = 1 may reach memory
//     before its x = 1 (stores to different locations): y = 1, then P1's
//     y = 2 (fence) and read x == 0, then x = 1: final y == 2, allowed.
//     With a fence after `x = 1;` only, the TSO run remains. Both fences
//     give the SC argument. Minimum 2.
//
// fencer: expect sc safe
// fencer: expect tso fences=1
// fencer: expect pso fences=2

shared x, y, done0, done1;

process P0 {
  local t;
  x = 1;
  y = 1;
  t = swap(done0, 1);
}

process P1 {
  local r1, t;
  y = 2;
  r1 = x;
  t = swap(done1, 1);
  if (r1 == 0) { a1: skip; }
}

process Obs {
  local fy;
  assume(done0 == 1 && done1 == 1);
  fy = y;
  if (fy == 2) { ob: skip; }
}

forbidden P1@a1, Obs@ob;
// fencer: expect arm fences=3
// fencer: expect riscv fences=3
// fencer: expect rmo fences=3
