// SB with a full fence after each write.
// weak: sc safe
// weak: tso safe
// weak: pso safe
// weak: arm safe
// weak: riscv safe
// weak: rmo safe
// herd7: arm SB+dmbs.litmus Never
// herd7: riscv RV-SB+fence.rw.rws.litmus Never
shared x, y;
process P0 { local r1; x = 1; fence; r1 = y; if (r1 == 0) { a: skip; } }
process P1 { local r2; y = 1; fence; r2 = x; if (r2 == 0) { b: skip; } }
forbidden P0@a, P1@b;
