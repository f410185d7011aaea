package kabs

// ProcSuccessors returns the steps of process p out of c, in the order in
// which Successors lists them (Successors is their concatenation over the
// processes, in order). A step of p reads and changes only p's part of the
// control state: PC[p], B[p], S[p] and E[p] (reads ask Buffered(p, x),
// fences and atomic blocks Empty(p), flushes are p's own). So the steps of
// p, their transitions and p's part of their targets are the same in every
// control state with the same part of p, and each target equals c outside
// p's part: explorers memoise the steps per process component (ProcKey
// compares the parts).
func (a *Abs) ProcSuccessors(c *Ctl, p int) []Succ {
	var out []Succ
	for _, ei := range a.Sys.Procs[p].Out[c.PC[p]] {
		out = a.edgeSucc(out, c, p, ei)
	}
	return a.flushSucc(out, c, p)
}

// SameProc reports whether c and d have the same part of process p: the
// same location, buffer, tail and epochs.
func (c *Ctl) SameProc(d *Ctl, p int) bool {
	if c.PC[p] != d.PC[p] || (c.B == nil) != (d.B == nil) || (c.E == nil) != (d.E == nil) {
		return false
	}
	if c.B != nil && !(sameInts(c.B[p], d.B[p]) && sameInts(c.S[p], d.S[p])) {
		return false
	}
	return c.E == nil || sameInts(c.E[p], d.E[p])
}

func sameInts(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
