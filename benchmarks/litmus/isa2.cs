// Test ISA2: message passing through a chain of three processes. Shape as
// ISA2.litmus of the x86 litmus collection (litmus-tests/litmus-tests-x86,
// tests/non-mixed-size/BASIC_3_THREAD, diy7-generated), exists (1:rax=1 /\
// 2:rax=1 /\ 2:rbx=0). The collection gives no outcome; it follows from
// the x86-TSO machine (CACM 2010, Sewell et al., §3): forbidden, as MP
// (SDM 8-1) and WRC (SDM 8-6).
//
//   P0: x = 1; y = 1;   P1: r1 = y; z = 1;   P2: r2 = z; r3 = x;
//   outcome: r1 == 1 && r2 == 1 && r3 == 0
//
// SC: forbidden (x = 1 < y = 1 < P1 reads y < z = 1 < P2 reads z < P2
//     reads x).
// TSO: forbidden (P0's writes reach memory in order; reads are never
//     delayed, neither past reads nor past writes: SC's argument).
// PSO: allowed (SPARC V9, Appendix D): y = 1 reaches memory before x = 1.
//     Fences: a fence after `x = 1;` restores P0's order and SC's argument.
//     P1's read->write and P2's read->read orders are never relaxed, and a
//     fence after a process's last write does nothing. Minimum 1.
//
// fencer: expect sc safe
// fencer: expect tso safe
// fencer: expect pso fences=1

shared x, y, z;

process P0 {
  x = 1;
  y = 1;
}

process P1 {
  local r1;
  r1 = y;
  z = 1;
  if (r1 == 1) { a1: skip; }
}

process P2 {
  local r2, r3;
  r2 = z;
  r3 = x;
  if (r2 == 1 && r3 == 0) { a2: skip; }
}

forbidden P1@a1, P2@a2;
// fencer: expect arm fences=3
// fencer: expect riscv fences=3
// fencer: expect rmo fences=3
