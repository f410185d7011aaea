// Intel SDM vol. 3A §8.2.3.4, Example 8-4, "Loads Are not Reordered with
// Older Stores to the Same Location". CACM 2010 (Sewell et al.), Example
// 8-4: x86-TSO requires r1 == 1 ("reads must check the local store buffer").
//
//   P0: x = 1; r1 = x;
//   outcome: r1 == 0
//
// SC: forbidden (a single process reads its own earlier write).
// TSO: forbidden (SDM 8-4: "r1 = 1" is required; the read is forwarded
//     from the store buffer or sees memory after the drain).
// PSO: forbidden (SPARC V9, Appendix D: a load returns the value of the
//     latest store to the same location by the same processor if that store
//     is not yet visible; PSO's per-variable buffer is read first too).
//
// fencer: expect sc safe
// fencer: expect tso safe
// fencer: expect pso safe

shared x;

process P0 {
  local r1;
  x = 1;
  r1 = x;
  if (r1 == 0) { a0: skip; }
}

forbidden P0@a0;
// fencer: expect arm safe
// fencer: expect riscv safe
// fencer: expect rmo safe
