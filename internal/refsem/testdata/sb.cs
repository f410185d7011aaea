// Store buffering (Owens, Sarkar, Sewell 2009, test SB): both reads 0 is
// allowed by TSO and PSO, not by SC; one fence per process forbids it.
// refsem: sc safe
// refsem: tso fences=2
// refsem: pso fences=2
shared x, y;
process A { local r; x = 1; r = y; assume(r == 0); a: skip; }
process B { local r; y = 1; r = x; assume(r == 0); b: skip; }
forbidden A@a, B@b;
