// MP with a release write of the flag and an acquire read of it (STLR,
// LDAR; sw.rl, lw.aq): no fence needed.
// weak: arm safe fences=0
// weak: riscv safe fences=0
// weak: rmo safe fences=0
// weak: tso safe
// herd7: arm MP+popl+poa.litmus Never
// herd7: riscv RV-MP+rl+aq.litmus Never
shared x, y;
process W { x = 1; release y = 1; }
process R { local r1, r2; acquire r1 = y; r2 = x; assert(!(r1 == 1 && r2 == 0)); }
