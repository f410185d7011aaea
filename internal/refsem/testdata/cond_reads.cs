// The reads of a condition are separate steps: B's two writes can both
// come between A's read of x (0) and its read of y (1).
// refsem: sc bug
shared x, y;
process A { if (x < y) { hit: skip; } }
process B { x = 1; y = 1; }
forbidden A@hit;
