// Regression (labels issue): load buffering with labelled `skip`s inside
// branches. Each process reads, then writes. The outcome "both read 1"
// needs a write to be seen before the read that precedes it in program
// order: forbidden under SC, TSO (Owens, Sarkar, Sewell, TPHOLs 2009) and
// PSO (reads are never delayed past later writes).
//
// fencer: expect sc safe
// fencer: expect tso safe
// fencer: expect pso safe
shared x, y;
process A { local r; r = y; x = 1; if (r == 1) { a1: skip; } }
process B { local r; r = x; y = 1; if (r == 1) { b1: skip; } }
forbidden A@a1, B@b1;
