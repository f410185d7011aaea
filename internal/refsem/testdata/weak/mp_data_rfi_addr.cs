// MP whose reader passes the flag through memory: it writes the value
// read to z (a data dependency), reads z back (from its own write), and
// reads the data at an address that depends on that value. Arm orders
// the two reads by (addr|data);lrs, RVWMO by rule 12
// ([M];(addr|data);[W];rfi;[R]); RMO has no such rule.
// weak: arm safe
// weak: riscv safe
// weak: rmo bad
// herd7: arm MP+dmb.st+data-rfi-addr.litmus Never
// herd7: riscv RV-MP+fence.w.w+data-rfi-addr.litmus Never
// addr: R r3 r2
shared x, y, z;
process W { x = 1; fence store; y = 1; }
process R { local r1, r2, r3; r1 = y; z = r1; r2 = z; r3 = x; assert(!(r1 == 1 && r2 == 1 && r3 == 0)); }
