// SB where each process reads its own write back and reads the other
// variable at an address that depends on that value: a read may take its
// own process's write before the write is visible to others (rfi is not
// in Arm's ob nor in RVWMO's order), so the outcome stays allowed. Under
// tso too (store forwarding).
// weak: tso bad
// weak: pso bad
// weak: arm bad fences=2
// weak: riscv bad fences=2
// weak: rmo bad
// herd7: arm SB+rfi-addrs.litmus Sometimes
// herd7: riscv RV-SB+rfi-addrs.litmus Sometimes
// addr: P0 r2 r1
// addr: P1 r4 r3
shared x, y;
process P0 { local r1, r2; x = 1; r1 = x; r2 = y; if (r1 == 1 && r2 == 0) { a: skip; } }
process P1 { local r3, r4; y = 1; r3 = y; r4 = x; if (r3 == 1 && r4 == 0) { b: skip; } }
forbidden P0@a, P1@b;
