package cs

import "fencer/expr"

// This file decides whether two systems have the same runs because their
// automata are the same up to the numbering and the merging of locations.
// Insert uses it for its final check: the patched text, read again,
// numbers a fence's location in the order of the text and has one fence
// where branches join, while WithFenceKinds (the system the CEGAR loop
// verified) appends a fence location after the others for each edge that
// passes the point; when SameAutomata holds, the loop's verdict is a
// verdict about the patched text.

// SameAutomata reports whether a and b have the same automata up to the
// numbering of locations and the merging of locations whose futures are
// the same: the same shared variables with the same initial values
// (ranged and nondeterministic ones included), in the same order; the same
// processes (names, templates, locals with their initial values) in the
// same order; and for each process a map h from b's locations onto a's
// with h(0) = 0 under which every location x of b has the outgoing edges
// of h(x), in the same order, with equal operations and targets mapped by
// h. Labels map by h; the assertion sink of a has b's as its only
// preimage, and so has every location a bad state of a names; the bad
// states of b, mapped by h, are those of a in the same order.
//
// Such an h is a functional bisimulation: relating a state of b to the
// state of a with the same values and buffers and each process at h of its
// location, every step of one is a step of the other with the same
// operation, the initial states are related, and a state is bad exactly
// when its image is. So a has a reachable bad state exactly when b has,
// under every memory model (the operations, not the location numbers,
// decide what a step does). A bijection h (a and b the same automata up to
// renumbering) is the special case.
//
// It is conservative: what it does not compare makes it answer false.
// Locations that the walk from location 0 does not reach are paired
// first by their order among the locations no edge enters and walked from
// there; anything left makes it false, and so does a location of a that is
// no image. Positions (Pos, LocPos), fence sites (Sites, Edge.Points), the
// reader, warnings and const settings are not compared: they change how
// runs are reported, not which runs there are.
func SameAutomata(a, b *System) bool {
	if a == nil || b == nil {
		return false
	}
	if !sameVars(a.Shared, b.Shared) || len(a.Procs) != len(b.Procs) {
		return false
	}
	maps := make([]*locMap, len(a.Procs))
	for i := range a.Procs {
		m, ok := sameProcess(a.Procs[i], b.Procs[i])
		if !ok {
			return false
		}
		maps[i] = m
	}
	if len(a.Bad) != len(b.Bad) {
		return false
	}
	for i, ba := range a.Bad {
		bb := b.Bad[i]
		if len(ba.Procs) != len(bb.Procs) || len(ba.Locs) != len(ba.Procs) || len(bb.Locs) != len(bb.Procs) {
			return false
		}
		for j, pi := range ba.Procs {
			if pi != bb.Procs[j] || pi < 0 || pi >= len(maps) {
				return false
			}
			if !maps[pi].only(bb.Locs[j], ba.Locs[j]) {
				return false
			}
		}
	}
	return true
}

// locMap is the map h of SameAutomata for one process: from the locations
// of b's process onto those of a's, with the number of preimages of each.
type locMap struct {
	h   []Loc // b's location -> a's, -1 unset
	pre []int // a's location -> the number of its preimages
}

// only reports whether y (of a) has x (of b) as its only preimage.
func (m *locMap) only(x, y Loc) bool {
	return x >= 0 && int(x) < len(m.h) && y >= 0 && int(y) < len(m.pre) && m.h[x] == y && m.pre[y] == 1
}

// sameVars reports whether two declaration lists have the same names and
// initial values in the same order.
func sameVars(a, b []VarDecl) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].Name != b[i].Name || !sameInit(a[i].Init, b[i].Init) {
			return false
		}
	}
	return true
}

// sameInit compares what an initial value means: the value of a
// deterministic one, the range of a ranged one.
func sameInit(a, b Init) bool {
	if a.Nondet != b.Nondet || a.Ranged != b.Ranged {
		return false
	}
	switch {
	case !a.Nondet:
		return a.Value == b.Value
	case a.Ranged:
		return a.Lo == b.Lo && a.Hi == b.Hi
	}
	return true
}

// sameProcess walks q (of b) and p (of a) from location 0 in step and
// returns the map it built from q's locations onto p's, or false on any
// difference.
func sameProcess(p, q *Process) (*locMap, bool) {
	if p.Name != q.Name || p.Template != q.Template || p.NumLocs <= 0 || q.NumLocs < p.NumLocs {
		return nil, false
	}
	if !sameVars(p.Locals, q.Locals) || len(p.Out) != p.NumLocs || len(q.Out) != q.NumLocs {
		return nil, false
	}
	m := &locMap{h: make([]Loc, q.NumLocs), pre: make([]int, p.NumLocs)}
	for i := range m.h {
		m.h[i] = -1
	}
	var queue []Loc
	bind := func(x, y Loc) bool {
		if x < 0 || int(x) >= q.NumLocs || y < 0 || int(y) >= p.NumLocs {
			return false
		}
		if m.h[x] >= 0 {
			return m.h[x] == y
		}
		m.h[x] = y
		m.pre[y]++
		queue = append(queue, x)
		return true
	}
	// walk matches the outgoing edges of every bound location not yet
	// walked with those of its image, binding their targets.
	walk := func() bool {
		for len(queue) > 0 {
			x := queue[0]
			queue = queue[1:]
			y := m.h[x]
			ox, oy := q.Out[x], p.Out[y]
			if len(ox) != len(oy) {
				return false
			}
			for i := range ox {
				if ox[i] < 0 || ox[i] >= len(q.Edges) || oy[i] < 0 || oy[i] >= len(p.Edges) {
					return false
				}
				ex, ey := q.Edges[ox[i]], p.Edges[oy[i]]
				if ex.From != x || ey.From != y || !sameOp(ex.Op, ey.Op) || !bind(ex.To, ey.To) {
					return false
				}
			}
		}
		return true
	}
	if !bind(0, 0) || !walk() {
		return nil, false
	}
	// Locations the walk from 0 does not reach (the end of a body that
	// ends in a goto): those no edge enters, paired in the order of their
	// numbers (no walk reaches them, so none is bound yet).
	qx, py := unbound(q, m.h), unbound(p, nil)
	var pr []Loc
	for _, y := range py {
		if m.pre[y] == 0 {
			pr = append(pr, y)
		}
	}
	if len(qx) != len(pr) {
		return nil, false
	}
	for i := range qx {
		if !bind(qx[i], pr[i]) || !walk() {
			return nil, false
		}
	}
	for x := range m.h {
		if m.h[x] < 0 {
			return nil, false
		}
	}
	for y := range m.pre {
		if m.pre[y] == 0 {
			return nil, false
		}
	}
	// Every edge listed in Out.
	if countOut(p) != len(p.Edges) || countOut(q) != len(q.Edges) {
		return nil, false
	}
	if (p.ErrLoc < 0) != (q.ErrLoc < 0) {
		return nil, false
	}
	if p.ErrLoc >= 0 && !m.only(q.ErrLoc, p.ErrLoc) {
		return nil, false
	}
	if len(p.Labels) != len(q.Labels) {
		return nil, false
	}
	for name, y := range p.Labels {
		x, ok := q.Labels[name]
		if !ok || x < 0 || int(x) >= q.NumLocs || m.h[x] != y {
			return nil, false
		}
	}
	return m, true
}

// unbound returns, in increasing order, the locations of p that no edge
// enters and m does not map (all such locations when m is nil).
func unbound(p *Process, m []Loc) []Loc {
	entered := make([]bool, p.NumLocs)
	for _, e := range p.Edges {
		if e.To >= 0 && int(e.To) < p.NumLocs {
			entered[e.To] = true
		}
	}
	var out []Loc
	for x := 0; x < p.NumLocs; x++ {
		if (m == nil || m[x] < 0) && !entered[x] {
			out = append(out, Loc(x))
		}
	}
	return out
}

func countOut(p *Process) int {
	c := 0
	for _, o := range p.Out {
		c += len(o)
	}
	return c
}

// sameOp compares two operations structurally (positions are not part of
// an Op).
func sameOp(a, b Op) bool {
	if a.Kind != b.Kind || a.Local != b.Local || a.Shared != b.Shared || a.Fence != b.Fence || len(a.Body) != len(b.Body) {
		return false
	}
	if !sameExpr(a.Val, b.Val) {
		return false
	}
	for i := range a.Body {
		if !sameOp(a.Body[i], b.Body[i]) {
			return false
		}
	}
	return true
}

// sameExpr compares two expressions structurally; an expression of a type
// it does not know is not the same as anything.
func sameExpr(a, b expr.Expr) bool {
	if a == nil || b == nil {
		return a == nil && b == nil
	}
	switch x := a.(type) {
	case expr.Int:
		y, ok := b.(expr.Int)
		return ok && x.V == y.V
	case expr.Bool:
		y, ok := b.(expr.Bool)
		return ok && x.V == y.V
	case expr.Var:
		y, ok := b.(expr.Var)
		return ok && x.Name == y.Name
	case *expr.App:
		y, ok := b.(*expr.App)
		if !ok || x == nil || y == nil || x.Op != y.Op || len(x.Args) != len(y.Args) {
			return false
		}
		for i := range x.Args {
			if !sameExpr(x.Args[i], y.Args[i]) {
				return false
			}
		}
		return true
	}
	return false
}
