// Message passing (MP).
//
// The writer stores the data and then raises `ready`; the reader reads
// `ready` and then the data. Seeing ready == 1 but data == 0 is impossible
// under SC and under TSO (one FIFO buffer per process keeps the two writes in
// order, and reads are never reordered). Under PSO the write to `ready` can
// reach memory before the write to `data`; a fence after `data = 1;` fixes it.
//
// Loop-free. The bad state is the failing assert.

// fencer: expect sc safe
// fencer: expect tso safe
// fencer: expect pso fences=1

shared data, ready;

process Writer {
  data = 1;
  ready = 1;
}

process Reader {
  local r1, r2;
  r1 = ready;
  r2 = data;
  assert(r1 == 0 || r2 == 1);
}
// fencer: expect arm fences=2
// fencer: expect riscv fences=2
// fencer: expect rmo fences=2
