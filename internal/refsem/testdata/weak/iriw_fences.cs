// IRIW with a full fence between the reads of each reader: forbidden, the
// three models being multi-copy atomic.
// weak: arm safe
// weak: riscv safe
// weak: rmo safe
// herd7: arm IRIW+dmbs.litmus Never
// herd7: riscv RV-IRIW+fence.rw.rws.litmus Never
shared x, y;
process P0 { x = 1; }
process P1 { y = 1; }
process P2 { local r1, r2; r1 = x; fence; r2 = y; if (r1 == 1 && r2 == 0) { a2: skip; } }
process P3 { local r3, r4; r3 = y; fence; r4 = x; if (r3 == 1 && r4 == 0) { a3: skip; } }
forbidden P2@a2, P3@a3;
