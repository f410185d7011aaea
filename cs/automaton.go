package cs

// This file builds the automaton of one process: locations (merged with a
// union-find where branches join), edges, labels and gotos. The statements
// that drive it are in stmts.go.

// posOp is an operation with its source position.
type posOp struct {
	op  Op
	pos Pos
}

// pendingGoto is a goto edge whose target waits for every label of the
// process to be known.
type pendingGoto struct {
	edge  int
	label *Ident
}

// procLowerer builds one process. A new one is made for every process and
// template instance, so nothing of a process reaches the next; what lasts
// for the whole program (counts, sites, names) is in the lowerer.
type procLowerer struct {
	*lowerer
	proc *Process

	// Locations are merged with a union-find where control flow joins.
	parent []Loc
	locPos []Pos
	edges  []Edge
	labels map[string]Loc
	gotos  []pendingGoto
	errLoc Loc // the sink of failed asserts, or -1 until one needs it

	// The statement being lowered.
	stmtPos Pos
	nTemps  int     // temporaries already in proc.Locals
	temp    int     // next temporary of the current statement
	ops     []posOp // reads of the expression being lowered

	// Fence sites (program points, sites.go): ent holds the edges by which
	// control falls through into the current location (not gotos), depth
	// the number of enclosing while loops, wrote whether the statement just
	// lowered wrote a shared variable.
	ent       []int
	entLabels []string     // labels whose gotos enter the current location too
	labelPts  []labelPoint // points passed by the gotos to a label
	isGoto    map[int]bool
	depth     int
	copies    int // the unrolled copies of the current point: the product of the trip counts of the for loops around it (1 outside)
	wrote     bool

	// The atomic block being lowered.
	atomPos Pos
	tooMany bool // its path limit was hit
}

// process lowers the process d under the name name (tmpl is its template,
// b its template index, or "" and nil) and appends it to sys.Procs.
func (l *lowerer) process(d *ProcDecl, name, tmpl string, b *binding) {
	if len(l.sys.Procs) >= MaxProcs {
		l.errorf(d.Pos(), "too many processes (at most %d)", MaxProcs)
		panic(bailout{})
	}
	pl := &procLowerer{
		lowerer: l,
		proc:    &Process{Name: name, Template: tmpl, Pos: d.Pos(), ErrLoc: -1, Labels: map[string]Loc{}},
		labels:  map[string]Loc{},
		errLoc:  -1,
		isGoto:  map[int]bool{},
	}
	l.scope = scope{locals: map[string]*varInfo{}}
	if b != nil {
		l.scope.idx = append(l.scope.idx, *b)
	}
	body := pl.localVars(d.Body.List)
	pl.block(body, pl.newLoc())
	for _, g := range pl.gotos {
		loc, ok := pl.labels[g.label.Name]
		if !ok {
			l.errorf(g.label.Pos(), "label %s not defined", g.label.Name)
			continue
		}
		pl.edges[g.edge].To = loc
		for _, lp := range pl.labelPts {
			if lp.label == g.label.Name {
				pl.edges[g.edge].Points = append(pl.edges[g.edge].Points, lp.site)
			}
		}
	}
	pl.finish()
	l.sys.Procs = append(l.sys.Procs, pl.proc)
	l.scope = scope{} // the next template's range must not see these names
}

func (pl *procLowerer) newLoc() Loc {
	n := Loc(len(pl.parent))
	pl.parent = append(pl.parent, n)
	pl.locPos = append(pl.locPos, NoPos)
	return n
}

func (pl *procLowerer) find(x Loc) Loc {
	r := x
	for pl.parent[r] != r {
		r = pl.parent[r]
	}
	for pl.parent[x] != r {
		pl.parent[x], x = r, pl.parent[x]
	}
	return r
}

// merge makes a and b one location. a must have no outgoing edges (it is
// the end of a branch or of a loop body).
func (pl *procLowerer) merge(a, b Loc) {
	ra, rb := pl.find(a), pl.find(b)
	if ra == rb {
		return
	}
	pl.parent[ra] = rb
	if pl.locPos[rb] == NoPos {
		pl.locPos[rb] = pl.locPos[ra]
	}
}

// errLocation returns the sink of failed asserts, made on first use so
// that a process without assert has none.
func (pl *procLowerer) errLocation() Loc {
	if pl.errLoc < 0 {
		pl.errLoc = pl.newLoc()
	}
	return pl.errLoc
}

// emit adds the edge from --op--> to and returns its index.
func (pl *procLowerer) emit(from, to Loc, op Op, pos Pos) int {
	pl.nEdges += 1 + len(op.Body)
	pl.checkEdges(pl.nEdges, pl.stmtPos)
	if r := pl.find(from); pl.locPos[r] == NoPos {
		pl.locPos[r] = pl.stmtPos
	}
	pl.edges = append(pl.edges, Edge{From: from, To: to, Op: op, Pos: pos})
	return len(pl.edges) - 1
}

// chain emits ops one after the other from from and returns the last
// location.
func (pl *procLowerer) chain(from Loc, ops []posOp) Loc {
	cur := from
	for _, o := range ops {
		to := pl.newLoc()
		pl.emit(cur, to, o.op, o.pos)
		cur = to
	}
	return cur
}

// finish renumbers the merged locations densely (the initial location
// stays 0) and fills the Process.
func (pl *procLowerer) finish() {
	p := pl.proc
	ids := make([]Loc, len(pl.parent))
	for i := range ids {
		ids[i] = -1
	}
	n := Loc(0)
	ids[pl.find(0)] = 0
	n++
	for i := range pl.parent {
		if r := pl.find(Loc(i)); ids[r] < 0 {
			ids[r] = n
			n++
		}
	}
	id := func(x Loc) Loc { return ids[pl.find(x)] }
	p.NumLocs = int(n)
	p.LocPos = make([]Pos, n)
	for i := range pl.parent {
		if r := pl.find(Loc(i)); r == Loc(i) {
			p.LocPos[ids[r]] = pl.locPos[r]
		}
	}
	p.Edges = pl.edges
	p.Out = make([][]int, n)
	for i := range p.Edges {
		e := &p.Edges[i]
		e.From, e.To = id(e.From), id(e.To)
		p.Out[e.From] = append(p.Out[e.From], i)
	}
	for name, loc := range pl.labels {
		p.Labels[name] = id(loc)
	}
	if pl.errLoc >= 0 {
		p.ErrLoc = id(pl.errLoc)
		p.LocPos[p.ErrLoc] = NoPos
	}
}
