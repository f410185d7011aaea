// Reads go left to right: y is read before x, so under SC and TSO seeing
// y == 1 means x is 1 already. Under PSO the write of y can reach memory
// first; a fence after x = 1 forbids it.
// refsem: sc safe
// refsem: tso safe
// refsem: pso fences=1
shared x, y;
process A { if (y > x) { hit: skip; } }
process B { x = 1; y = 1; }
forbidden A@hit;
