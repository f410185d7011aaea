// Writes already followed by a fence get a second one: avoiding that is the
// engine's business, patching must just not break.
shared x, y;

process A {
  x = 1;
  fence;
  y = 1; fence;
  if (x) { y = 2; fence; }
}
