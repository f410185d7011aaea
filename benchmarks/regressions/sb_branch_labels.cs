// Regression (labels issue): store buffering with the outcome marked by
// labelled `skip`s inside branches. Under SC one of the reads sees 1;
// under TSO and PSO both reads can return 0 (Owens, Sarkar, Sewell,
// TPHOLs 2009, test SB), and one fence per process forbids it. fencer used
// to call this an SC bug: the label at the end of the then-branch was taken
// to be the join point, which the else-path reaches too.
//
// fencer: expect sc safe
// fencer: expect tso fences=2
// fencer: expect pso fences=2
shared x, y;
process A { local r; x = 1; r = y; if (r == 0) { a0: skip; } }
process B { local r; y = 1; r = x; if (r == 0) { b0: skip; } }
forbidden A@a0, B@b0;
