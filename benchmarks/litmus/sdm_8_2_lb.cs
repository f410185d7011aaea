// Intel SDM vol. 3A §8.2.3.3, Example 8-2, "Stores Are Not Reordered with
// Older Loads" (load buffering, LB). CACM 2010 (Sewell et al.), Example 8-2:
// forbidden in x86-TSO ("reads are never delayed").
//
//   P0: r1 = x; y = 1;       P1: r2 = y; x = 1;
//   outcome: r1 == 1 && r2 == 1
//
// SC: forbidden (each read would have to follow the other process's write,
//     which follows that process's read: a cycle).
// TSO: forbidden (SDM 8-2: "r1 = 1 and r2 = 1 is not allowed").
// PSO: forbidden. SPARC V9 PSO (Appendix D) only relaxes store->load and
//     store->store order; a load is never reordered with a later store, and
//     a write only becomes visible after it is issued, i.e. after the read
//     before it. No fence is needed.
//
// fencer: expect sc safe
// fencer: expect tso safe
// fencer: expect pso safe

shared x, y;

process P0 {
  local r1;
  r1 = x;
  y = 1;
  assume(r1 == 1);
a0: skip;
}

process P1 {
  local r2;
  r2 = y;
  x = 1;
  assume(r2 == 1);
a1: skip;
}

forbidden P0@a0, P1@a1;
// fencer: expect arm fences=2
// fencer: expect riscv fences=2
// fencer: expect rmo fences=2
