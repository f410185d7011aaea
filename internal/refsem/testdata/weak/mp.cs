// Message passing: the reader sees the flag but not the data. Allowed by
// every model that lets writes or reads of a process reorder (pso, arm,
// riscv, rmo); one full fence on each side fixes it on the weak models.
// weak: sc safe
// weak: tso safe fences=0
// weak: pso bad fences=1
// weak: arm bad fences=2
// weak: riscv bad fences=2
// weak: rmo bad fences=2
// herd7: arm MP.litmus Sometimes
// herd7: riscv RV-MP.litmus Sometimes
shared x, y;
process W { x = 1; y = 1; }
process R { local r1, r2; r1 = y; r2 = x; assert(!(r1 == 1 && r2 == 0)); }
