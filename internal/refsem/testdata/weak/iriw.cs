// IRIW: the two readers see the two independent writes in opposite
// orders. The reads of each reader reorder on the weak models.
// weak: sc safe
// weak: tso safe
// weak: pso safe
// weak: arm bad fences=2
// weak: riscv bad fences=2
// weak: rmo bad fences=2
// herd7: arm IRIW.litmus Sometimes
// herd7: riscv RV-IRIW.litmus Sometimes
shared x, y;
process P0 { x = 1; }
process P1 { y = 1; }
process P2 { local r1, r2; r1 = x; r2 = y; if (r1 == 1 && r2 == 0) { a2: skip; } }
process P3 { local r3, r4; r3 = y; r4 = x; if (r3 == 1 && r4 == 0) { a3: skip; } }
forbidden P2@a2, P3@a3;
