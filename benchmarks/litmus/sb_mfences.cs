// SB with an MFENCE between the write and the read in each thread
// (SB+mfences). CACM 2010 (Sewell et al.), §1/§3: MFENCE flushes the local
// store buffer, so the SB outcome is forbidden; the test shape is
// SB+mfences of the x86 litmus collection (litmus-tests/litmus-tests-x86,
// tests/non-mixed-size/BASIC_2_THREAD). `fence;` is MFENCE.
//
//   P0: x = 1; fence; r1 = y;     P1: y = 1; fence; r2 = x;
//   outcome: r1 == 0 && r2 == 0
//
// SC: forbidden (as SB, SDM 8-3).
// TSO: forbidden (each write is in memory before the following read).
// PSO: forbidden (`fence` waits for all of the process's buffers: same
//     argument). The fences are in the source, so fencer inserts none.
//
// fencer: expect sc safe
// fencer: expect tso safe
// fencer: expect pso safe

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
  fence;
  r2 = x;
  if (r2 == 0) { a1: skip; }
}

forbidden P0@a0, P1@a1;
// fencer: expect arm safe
// fencer: expect riscv safe
// fencer: expect rmo safe
