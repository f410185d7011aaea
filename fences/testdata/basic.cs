// Writes on their own lines, with comments, labels and neighbours.
shared x, y, z;

process A {
  local r;
  x = 1;
  y = 2; // trailing comment stays on the write's line
  r = x; z = 3;
  x = 4; y = 5;
  L: z = 6;
  M:
    x = 7;
  /* before */ y = 8; /* after */
  z = 9; /* a comment that
            goes on */
  x = 10 +
      r;
}

process B {
  local s;
  s = y;
  L: if (s == 2) { x = 0; }
}

mutex L;
