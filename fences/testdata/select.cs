// patch: lines=7,9
// Only the writes on the lines listed in the header are fenced.
shared x, y;

process A {
  local r;
  x = 1;
  y = 1;
  x = 2; y = 2;
  r = y;
}
