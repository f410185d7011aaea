package domains

import (
	"fencer/cs"
	"fencer/memmodel"
)

// BufferBound returns the least k such that, in every run of sys (the
// system of the analysis, or one with fences added to it) under a model
// with buffer layout lay, no buffer ever holds more than k
// writes at once (a process's buffer under PerProcess, a process's buffer
// of one variable under PerVariable); false when the skeletons of the
// processes (growth.go) show no bound of at most limit: a loop that
// writes with no fence, a skeleton too big, or one over limit. Under
// Unbuffered it is 0.
//
// Under that k the k-abstraction of package kabs is the exact semantics:
// no write goes to an abstract tail, so an exploration of it is an
// exploration of the concrete system. The engine takes it as a hint
// only: an exploration with exact buffers counts the writes to a tail
// it left out, and only one that left none out is taken as a proof.
// (The skeleton starts a ranged static local at the least value of its
// range, so the bound is not a proof of anything on its own.)
//
// A write adds one to its buffer; a fence that waits (every kind but a
// store fence, memmodel.ForBuffers) and an atomic step empty the
// process's buffers; flushes are free to happen later, so the most a
// buffer holds is the most writes on a path of the skeleton since the
// last fence or atomic step.
func (in *Info) BufferBound(sys *cs.System, lay memmodel.Layout, limit int) (int, bool) {
	if !lay.Buffered() {
		return 0, true
	}
	k := 0
	for _, p := range sys.Procs {
		g := in.skeleton(p)
		if g == nil {
			return 0, false
		}
		vars := []string{""} // PerProcess: every write counts
		if lay == memmodel.PerVariable {
			vars = writtenVars(p)
		}
		for _, x := range vars {
			b, ok := g.mostBuffered(p, x, limit)
			if !ok {
				return 0, false
			}
			k = max(k, b)
		}
	}
	return k, true
}

// writtenVars lists the shared variables that p writes through its
// buffers, in the order of its edges.
func writtenVars(p *cs.Process) []string {
	var out []string
	seen := map[string]bool{}
	for _, e := range p.Edges {
		if e.Op.Kind == cs.OpWrite && !seen[e.Op.Shared] {
			seen[e.Op.Shared] = true
			out = append(out, e.Op.Shared)
		}
	}
	return out
}

// mostBuffered is the most writes (to x; every write when x is "") that
// a path of g from its initial node accumulates since the last fence or
// atomic step; false above limit (a cycle that writes, as a rule).
// A longest-path relaxation: every value it raises stays at most
// limit+1, so it ends.
func (g *skelGraph) mostBuffered(p *cs.Process, x string, limit int) (int, bool) {
	out := make([][]skelArc, g.nodes)
	for _, a := range g.arcs {
		out[a.from] = append(out[a.from], a)
	}
	occ := make([]int, g.nodes)
	for i := range occ {
		occ[i] = -1
	}
	occ[0] = 0
	work := []int{0}
	most := 0
	for len(work) > 0 {
		n := work[len(work)-1]
		work = work[:len(work)-1]
		for _, a := range out[n] {
			op := p.Edges[a.edge].Op
			v := occ[n]
			switch {
			case op.Kind == cs.OpAtomic, op.Kind == cs.OpFence && op.Fence != cs.StoreFence:
				v = 0
			case op.Kind == cs.OpWrite && (x == "" || op.Shared == x):
				v++
			}
			if v <= occ[a.to] {
				continue
			}
			if v > limit {
				return 0, false
			}
			occ[a.to] = v
			most = max(most, v)
			work = append(work, a.to)
		}
	}
	return most, true
}
