// Regression (labels issue): a label on `skip` is a point of its own.
//
// The goto jumps over `cs`, and r is 0, so `cs` is never reached. fencer
// used to move a label on `skip` to the next operation of the process, which
// here is `out` (the goto target): every path "reached" cs and the program
// was called an SC bug.
//
// fencer: expect sc safe
// fencer: expect tso safe
// fencer: expect pso safe
shared x;
process A { local r; if (r == 0) goto out; cs: skip; out: skip; }
forbidden A@cs;
