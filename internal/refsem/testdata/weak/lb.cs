// Load buffering: each read sees the other process's later write.
// weak: sc safe
// weak: tso safe
// weak: pso safe
// weak: arm bad fences=2
// weak: riscv bad fences=2
// weak: rmo bad fences=2
// herd7: arm LB.litmus Sometimes
// herd7: riscv RV-LB.litmus Sometimes
shared x, y;
process P0 { local r1; r1 = x; y = 1; if (r1 == 1) { a: skip; } }
process P1 { local r2; r2 = y; x = 1; if (r2 == 1) { b: skip; } }
forbidden P0@a, P1@b;
