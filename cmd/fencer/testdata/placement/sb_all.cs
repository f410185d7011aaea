// Store buffering with a local step between each write and the read
// (issue 12, --all): a fence right after the write or right before the
// read does the same, so under TSO there are four minimum sets of two
// fences, each verified.
// run: insert --all --model tso
shared x, y;
process P {
  local r, t;
  x = 1;
  t = 5;
  r = y;
  assume(r == 0);
d: skip;
}
process Q {
  local r, t;
  y = 1;
  t = 6;
  r = x;
  assume(r == 0);
d: skip;
}
mutex d;
