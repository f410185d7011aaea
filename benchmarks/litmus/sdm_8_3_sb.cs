// Intel SDM vol. 3A §8.2.3.4, Example 8-3, "Loads May Be Reordered with
// Older Stores to Different Locations" (store buffering, SB). Owens, Sarkar,
// Sewell, TPHOLs 2009 and CACM 2010 (Sewell et al.), test SB: allowed in
// x86-TSO.
//
//   P0: x = 1; r1 = y;       P1: y = 1; r2 = x;
//   outcome: r1 == 0 && r2 == 0
//
// SC: forbidden (whichever write comes first in the interleaving is before
//     the other process's read, so that read returns 1).
// TSO: allowed (SDM 8-3: "r1 = 0 and r2 = 0 is allowed"; x86-TSO: both
//     writes wait in the store buffers while both reads go to memory).
//     Fences: with one fence, after `x = 1;` only, P1 can still buffer
//     y = 1, read x == 0 before P0 runs, then P0 drains x = 1 and reads
//     y == 0 (P1's write still buffered): allowed. With a fence after each
//     write, each write is in memory before its process's read, and SC's
//     argument applies. Minimum 2 (two processes, two sites).
// PSO: allowed (PSO allows everything TSO allows; SPARC V9, Appendix D).
//     Each process writes a single variable, so PSO behaves as TSO here:
//     minimum 2 by the same argument.
//
// fencer: expect sc safe
// fencer: expect tso fences=2
// fencer: expect pso fences=2

shared x, y;

process P0 {
  local r1;
  x = 1;
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
// fencer: expect arm fences=2
// fencer: expect riscv fences=2
// fencer: expect rmo fences=2
