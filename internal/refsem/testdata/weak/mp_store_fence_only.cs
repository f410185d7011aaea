// MP with only the writer fenced: the reads still reorder on the weak
// models (not under tso, pso: reads stay in order there).
// weak: tso safe
// weak: pso safe
// weak: arm bad fences=1
// weak: riscv bad fences=1
// weak: rmo bad fences=1
// herd7: arm MP+dmb.st+po.litmus Sometimes
shared x, y;
process W { x = 1; fence store; y = 1; }
process R { local r1, r2; r1 = y; r2 = x; assert(!(r1 == 1 && r2 == 0)); }
