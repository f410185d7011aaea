// MP whose reader writes the flag's value to z, reads z back with an
// acquire read, then reads the data. The acquire keeps the data read
// after the read of z; what keeps the read of z after the read of the
// flag is Arm's data;lrs (a read after the local write it could take its
// value from) and RVWMO's rule 12; RMO has neither.
// weak: arm safe
// weak: riscv safe
// weak: rmo bad
// herd7: arm MP+dmb.st+data-rfi-poa.litmus Never
// herd7: riscv RV-MP+fence.w.w+data-rfi-aq.litmus Never
shared x, y, z;
process W { x = 1; fence store; y = 1; }
process R { local r1, r2, r3; r1 = y; z = r1; acquire r2 = z; r3 = x; assert(!(r1 == 1 && r2 == 1 && r3 == 0)); }
