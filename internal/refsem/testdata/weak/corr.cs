// CoRR: two reads of one variable never see its writes out of coherence
// order, under any model.
// weak: sc safe
// weak: tso safe
// weak: pso safe
// weak: arm safe fences=0
// weak: riscv safe fences=0
// weak: rmo safe fences=0
// herd7: arm CoRR.litmus Never
// herd7: riscv RV-CoRR.litmus Never
shared x;
process W { x = 1; }
process R { local r1, r2; r1 = x; r2 = x; assert(!(r1 == 1 && r2 == 0)); }
