// Regression (labels issue): a labelled `skip` at the end of a loop body is
// reached only inside the body. The loop never runs (r is 0); fencer used to
// merge `cs` with the loop head, which every run reaches.
//
// fencer: expect sc safe
// fencer: expect tso safe
// fencer: expect pso safe
shared x;
process A { local r; while (r == 1) { r = 0; cs: skip; } x = 1; }
forbidden A@cs;
