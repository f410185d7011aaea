// if (busy) goto done; cs: skip; done: skip; -- a process that jumps is
// never at cs.
// refsem: sc safe
// refsem: tso safe
// refsem: pso safe
shared busy;
process A { local r; busy = 1; r = 1; if (r == 1) goto done; cs: skip; done: skip; }
process B { local r; r = busy; if (r == 0) goto done; cs: skip; done: skip; }
mutex cs;
