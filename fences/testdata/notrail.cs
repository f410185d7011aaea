// The last line has no newline.
shared x;

process A {
  local r;
  r = x; }
process B { x = 1; }
process C {
  x = 2;
}