// Message passing: forbidden under SC and TSO (FIFO buffer), allowed under
// PSO (writes to different variables reorder); one fence after data = 1.
// refsem: sc safe
// refsem: tso safe
// refsem: pso fences=1
shared data, ready;
process W { data = 1; ready = 1; }
process R { local r1, r2; r1 = ready; r2 = data; assert(r1 == 0 || r2 == 1); }
