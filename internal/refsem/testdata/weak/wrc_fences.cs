// WRC with full fences in P1 and P2: forbidden (multi-copy atomic).
// weak: arm safe
// weak: riscv safe
// weak: rmo safe
// herd7: arm WRC+dmbs.litmus Never
// herd7: riscv RV-WRC+fence.rw.rws.litmus Never
shared x, y;
process P0 { x = 1; }
process P1 { local r1; r1 = x; fence; y = 1; if (r1 == 1) { a1: skip; } }
process P2 { local r2, r3; r2 = y; fence; r3 = x; if (r2 == 1 && r3 == 0) { a2: skip; } }
forbidden P1@a1, P2@a2;
