// Issue 12: one fence after the if/else serves both writes; with fences
// only after writes this took 3 (one per branch and one in Q).
// run: insert --model tso
shared x, y;
process P {
  local r;
  if (*) x = 1;
  else x = 2;
  r = y;
  assume(r == 0);
d: skip;
}
process Q {
  local r;
  y = 1; r = x; assume(r == 0);
d: skip;
}
mutex d;
