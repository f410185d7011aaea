// A label on a while names the test of the condition, reached again after
// every iteration: A is at head with x == 1 after the first iteration.
// refsem: sc bug
shared x;
process A { local c; head: while (c < 1) { c = c + 1; x = 1; } }
process B { local r; r = x; if (r == 1) { w: skip; } }
forbidden A@head, B@w;
