// Store buffering: both reads miss the other process's write. Every model
// but sc allows it; a full fence after each write forbids it.
// weak: sc safe
// weak: tso bad fences=2
// weak: pso bad fences=2
// weak: arm bad fences=2
// weak: riscv bad fences=2
// weak: rmo bad fences=2
// herd7: arm SB.litmus Sometimes
shared x, y;
process P0 { local r1; x = 1; r1 = y; if (r1 == 0) { a: skip; } }
process P1 { local r2; y = 1; r2 = x; if (r2 == 0) { b: skip; } }
forbidden P0@a, P1@b;
