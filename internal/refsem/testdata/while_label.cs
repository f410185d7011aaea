// A label on a while is its loop head, reached on every iteration; a label
// on skip inside the body is reached only inside the body.
// refsem: sc safe
// refsem: tso safe
// refsem: pso safe
shared x;
process A { local c; head: while (c < 2) { c = c + 1; body: skip; } x = 1; out: skip; }
process B { local r; r = x; if (r == 1) { w: skip; } }
forbidden A@body, B@w;
