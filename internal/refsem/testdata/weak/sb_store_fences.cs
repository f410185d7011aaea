// SB with store fences: they do not order a write before a read.
// weak: tso bad
// weak: pso bad
// weak: arm bad
// weak: riscv bad
// weak: rmo bad
// herd7: arm SB+dmb.sts.litmus Sometimes
shared x, y;
process P0 { local r1; x = 1; fence store; r1 = y; if (r1 == 0) { a: skip; } }
process P1 { local r2; y = 1; fence store; r2 = x; if (r2 == 0) { b: skip; } }
forbidden P0@a, P1@b;
