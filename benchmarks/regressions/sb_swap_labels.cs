// Regression (labels issue): store buffering where the writes are locked
// exchanges (x86 XCHG). A locked instruction drains the buffer and writes
// memory directly, so both reads returning 0 is forbidden under SC, TSO and
// PSO (Intel SDM §8.2.3.9, example 8-9: loads are not reordered with locks).
//
// fencer: expect sc safe
// fencer: expect tso safe
// fencer: expect pso safe
shared x, y;
process A { local r, t; t = swap(x, 1); r = y; if (r == 0) { a0: skip; } }
process B { local r, t; t = swap(y, 1); r = x; if (r == 0) { b0: skip; } }
forbidden A@a0, B@b0;
