// The producer loop of issue 13 with a critical cycle added (W writes c and
// then reads e; R writes e and then reads c), so that robustness does not
// decide it and the k-abstraction keeps raising k: with --max-k 1, verify
// ends unknown with "k limit reached", and insert falls back on the fences
// that make the program robust (for robustness only, not proved minimum).
shared c, d, e;
process W { local n, t; while (true) { n = n + 1; d = n; c = n; t = e; } }
process R { local a, b; e = 1; a = c; b = d; assert(b >= a); }
