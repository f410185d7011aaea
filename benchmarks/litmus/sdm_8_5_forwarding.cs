// Intel SDM vol. 3A §8.2.3.5, Example 8-5, "Intra-Processor Forwarding Is
// Allowed". CACM 2010 (Sewell et al.), Example 8-5 ("similar to Example
// 8-3"): allowed in x86-TSO.
//
//   P0: x = 1; r1 = x; r2 = y;     P1: y = 1; r3 = y; r4 = x;
//   outcome: r2 == 0 && r4 == 0  (with r1 == 1 and r3 == 1, which always
//   hold: nobody else writes x or y)
//
// SC: forbidden (as in SB: the first write in the interleaving precedes
//     the other process's last read).
// TSO: allowed (SDM 8-5: "r2 = 0 and r4 = 0 is allowed": each process reads
//     its own write from its store buffer, and the other variable from
//     memory while the other write is still buffered).
//     Fences: a fence after `x = 1;` alone leaves P1's SB run (P1 buffers
//     y = 1, reads y == 1 forwarded, reads x == 0; then P0 drains x = 1 and
//     reads y == 0): allowed. One fence per process puts both writes in
//     memory before the reads of the other variable: SC's argument.
//     Minimum 2.
// PSO: allowed (PSO allows all TSO behaviours; SPARC V9, Appendix D). Each
//     process writes one variable, so PSO = TSO here: minimum 2.
//
// fencer: expect sc safe
// fencer: expect tso fences=2
// fencer: expect pso fences=2

shared x, y;

process P0 {
  local r1, r2;
  x = 1;
  r1 = x;
  r2 = y;
  assume(r1 == 1 && r2 == 0);
a0: skip;
}

process P1 {
  local r3, r4;
  y = 1;
  r3 = y;
  r4 = x;
  assume(r3 == 1 && r4 == 0);
a1: skip;
}

forbidden P0@a0, P1@a1;
// fencer: expect arm fences=2
// fencer: expect riscv fences=2
// fencer: expect rmo fences=2
