// MP with a store fence in the writer and an address dependency from the
// read of the flag to the read of the data. The test sets the dependency
// on the syntax tree (r2 = x depends on r1); without it the outcome is
// allowed (mp_store_fence_only.cs).
// weak: arm safe
// weak: riscv safe
// weak: rmo safe
// herd7: arm MP+dmb.st+addr.litmus Never
// addr: R r2 r1
shared x, y;
process W { x = 1; fence store; y = 1; }
process R { local r1, r2; r1 = y; r2 = x; assert(!(r1 == 1 && r2 == 0)); }
