// IRIW: the two readers cannot see the two independent writes in opposite
// orders under TSO (one memory); under PSO each writer writes one variable.
// refsem: sc safe
// refsem: tso safe
// refsem: pso safe
shared x, y;
process W1 { x = 1; }
process W2 { y = 1; }
process R1 { local a, b; a = x; b = y; if (a == 1 && b == 0) { r1: skip; } }
process R2 { local a, b; a = y; b = x; if (a == 1 && b == 0) { r2: skip; } }
forbidden R1@r1, R2@r2;
