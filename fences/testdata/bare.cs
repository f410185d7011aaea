// Writes that are the whole body of an if, else, while or for without
// braces get wrapped in a block.
shared x, y, a[2];

process A {
  local c;
  c = *;
  if (c) x = 1;
  if (c == 1) x = 2; else y = 2;
  while (c < 3)
    c = c + 1;
  while (x < 3) x = x + 1;
  for (k in 0..1) a[k] = k;
  if (c)
    y = 3; // comment after a bare body
  else
    L: y = 4;
  if (c) { x = 5; } else if (x) y = 6;
}
