// Message passing (benchmarks/mp.cs) under PSO (issue 12): with
// --kinds full,store one store fence between the two writes suffices (the
// reader's reads stay in order under PSO); with the default, one full
// fence at the same place; under TSO no fence is needed.
// run: insert --model pso --kinds full,store
// run: insert --model pso
// run: insert --model tso --kinds full,store
shared data, ready;

process Writer {
  data = 1;
  ready = 1;
}

process Reader {
  local r1, r2;
  r1 = ready;
  r2 = data;
  assert(r1 == 0 || r2 == 1);
}
