// fencer: expect tso fences=0
shared x, y;
process A { local r; x = 1; r = y; assume(r == 0); a: skip; }
process B { local r; y = 1; r = x; assume(r == 0); b: skip; }
forbidden A@a, B@b;
