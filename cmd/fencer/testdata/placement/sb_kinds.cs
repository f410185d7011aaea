// Store buffering under PSO with --kinds full,store (issue 12): a store
// fence cannot keep a write behind a later read, so both fences are full.
// run: insert --model pso --kinds full,store
shared x, y;
process P {
  local r;
  x = 1;
  r = y;
  assume(r == 0);
d: skip;
}
process Q {
  local r;
  y = 1;
  r = x;
  assume(r == 0);
d: skip;
}
mutex d;
