// MP with a store fence between the writes (dmb ishst, fence w,w) and a
// load fence between the reads (dmb ishld, fence r,rw).
// weak: arm safe
// weak: riscv safe
// weak: rmo safe
// weak: pso safe
// herd7: arm MP+dmb.st+dmb.ld.litmus Never
// herd7: riscv RV-MP+fence.w.w+fence.r.r.litmus Never
shared x, y;
process W { x = 1; fence store; y = 1; }
process R { local r1, r2; r1 = y; fence load; r2 = x; assert(!(r1 == 1 && r2 == 0)); }
