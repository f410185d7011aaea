// WRC: P1 passes P0's write on, P2 sees P1's write but not P0's.
// weak: sc safe
// weak: tso safe
// weak: arm bad fences=2
// weak: riscv bad fences=2
// weak: rmo bad fences=2
// herd7: arm WRC.litmus Sometimes
shared x, y;
process P0 { x = 1; }
process P1 { local r1; r1 = x; y = 1; if (r1 == 1) { a1: skip; } }
process P2 { local r2, r3; r2 = y; r3 = x; if (r2 == 1 && r3 == 0) { a2: skip; } }
forbidden P1@a1, P2@a2;
