// SB with fence.tso (everything but write->read): still allowed. With
// "fence loadload storeload;" (write->read among others) it is not, under
// the store-buffer models either: sb_storeload.cs.
// weak: tso bad
// weak: pso bad
// weak: arm bad
// weak: riscv bad
// weak: rmo bad
// herd7: riscv RV-SB+fence.tsos.litmus Sometimes
shared x, y;
process P0 { local r1; x = 1; fence tso; r1 = y; if (r1 == 0) { a: skip; } }
process P1 { local r2; y = 1; fence tso; r2 = x; if (r2 == 0) { b: skip; } }
forbidden P0@a, P1@b;
