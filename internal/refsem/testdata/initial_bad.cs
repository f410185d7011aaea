// Both processes start at cs: bad with an empty trace.
// refsem: sc bug
shared x;
process A { cs: skip; x = 1; }
process B { cs: skip; }
mutex cs;
