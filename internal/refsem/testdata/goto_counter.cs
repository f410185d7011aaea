// A backward goto with a bounded counter, a label on its target, and a
// for loop: B can read x == 2 and wait at saw2 while A finishes.
// refsem: sc bug
shared x;
process A { local c; L: c = c + 1; x = c; if (c < 3) goto L; done: skip; }
process B { local r; r = x; for (k in 0..1) { r = r + 0 * k; } if (r == 2) { saw2: skip; } }
forbidden A@done, B@saw2;
