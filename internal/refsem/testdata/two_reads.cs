// r = x + x is two reads: they can see different values, even under SC.
// refsem: sc bug
shared x;
process A { x = 1; }
process B { local r; r = x + x; assert(r != 1); }
