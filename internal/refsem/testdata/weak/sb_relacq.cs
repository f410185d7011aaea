// SB with release writes and acquire reads: a release before a later
// acquire stays ordered on arm (LDAR is RCsc); not on riscv, whose
// riscv.cat makes only AMOs and LR/SC RCsc (herd7 allows this test
// written with sw.rl and lw.aq), nor on rmo (no RCsc), nor under tso,
// which ignores annotations.
// weak: tso bad
// weak: arm safe
// weak: riscv bad
// weak: rmo bad
// herd7: arm SB+rel+acq.litmus Never
// herd7: riscv RV-SB+rl+aq.litmus Sometimes
shared x, y;
process P0 { local r1; release x = 1; acquire r1 = y; if (r1 == 0) { a: skip; } }
process P1 { local r2; release y = 1; acquire r2 = x; if (r2 == 0) { b: skip; } }
forbidden P0@a, P1@b;
