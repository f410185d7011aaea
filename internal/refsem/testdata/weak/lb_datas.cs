// LB with a data dependency from each read to the write after it (the
// value is always 1, but computed from the read, as EOR W2,W0,W0 is).
// weak: arm safe
// weak: riscv safe
// weak: rmo safe
// herd7: arm LB+datas.litmus Never
shared x, y;
process P0 { local r1; r1 = x; y = r1 - r1 + 1; if (r1 == 1) { a: skip; } }
process P1 { local r2; r2 = y; x = r2 - r2 + 1; if (r2 == 1) { b: skip; } }
forbidden P0@a, P1@b;
