// A file with CRLF line endings.
shared x, y;

process A {
  x = 1;
  y = 1; // trailing
  if (x) y = 2;
  x = 3; y = 3;
}
