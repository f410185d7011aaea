// A process reads its own newest buffered write; writes to one variable
// stay in order under PSO too.
// refsem: sc safe
// refsem: tso safe
// refsem: pso safe
shared x;
process A { local r; x = 1; x = 2; r = x; assert(r == 2); }
process B { local r1, r2; r1 = x; r2 = x; assert(!(r1 == 2 && r2 == 1)); }
