// LB where P0's write follows an access whose address depends on its read
// (Arm's addr;po;[W], RVWMO's rule 13; not an RMO rule) and P1 is fenced.
// The address dependency is set on the syntax tree by the test (the .cs
// syntax has none): r3 = z depends on r1.
// weak: arm safe
// weak: riscv safe
// weak: rmo bad
// herd7: arm LB+addr-po+dmb.litmus Never
// herd7: riscv RV-LB+addr-po+fence.litmus Never
// addr: P0 r3 r1
shared x, y, z;
process P0 { local r1, r3; r1 = x; r3 = z; y = 1; if (r1 == 1) { a: skip; } }
process P1 { local r2; r2 = y; fence; x = 1; if (r2 == 1) { b: skip; } }
forbidden P0@a, P1@b;
