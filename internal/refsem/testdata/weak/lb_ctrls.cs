// LB with a control dependency from each read to the write after it (the
// branch joins before the write, as CBNZ to the next instruction does):
// no store is speculative.
// weak: arm safe
// weak: riscv safe
// weak: rmo safe
// herd7: arm LB+ctrls.litmus Never
shared x, y;
process P0 { local r1; r1 = x; if (r1 != 0) { skip; } y = 1; if (r1 == 1) { a: skip; } }
process P1 { local r2; r2 = y; if (r2 != 0) { skip; } x = 1; if (r2 == 1) { b: skip; } }
forbidden P0@a, P1@b;
