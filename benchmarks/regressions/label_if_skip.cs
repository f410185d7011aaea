// Regression (labels issue): a labelled `skip` at the end of a branch is
// reached only by the paths that take the branch. r is 0, so the branch is
// never taken; fencer used to put `cs` at the join, before `x = 1`.
//
// fencer: expect sc safe
// fencer: expect tso safe
// fencer: expect pso safe
shared x;
process A { local r; if (r == 1) { cs: skip; } x = 1; }
forbidden A@cs;
