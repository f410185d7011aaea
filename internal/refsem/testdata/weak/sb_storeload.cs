// SB with a membar whose mask holds #StoreLoad: under the store-buffer
// models that is a full fence; on the weak models it orders the write
// before the read.
// weak: sc safe
// weak: tso safe
// weak: pso safe
// weak: arm safe
// weak: riscv safe
// weak: rmo safe
shared x, y;
process P0 { local r1; x = 1; fence loadload storeload; r1 = y; if (r1 == 0) { a: skip; } }
process P1 { local r2; y = 1; fence loadload storeload; r2 = x; if (r2 == 0) { b: skip; } }
forbidden P0@a, P1@b;
