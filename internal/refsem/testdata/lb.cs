// Load buffering: never both 1 (reads are not delayed past later writes).
// refsem: sc safe
// refsem: tso safe
// refsem: pso safe
shared x, y;
process A { local r; r = y; x = 1; if (r == 1) { a1: skip; } }
process B { local r; r = x; y = 1; if (r == 1) { b1: skip; } }
forbidden A@a1, B@b1;
