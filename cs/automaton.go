package cs

import (
	"sort"
)

// This file builds the automaton of one process: locations (merged with a
// union-find where branches join), edges, labels, and the fence sites.

// ---------------------------------------------------------------------------
// Processes

func (l *lowerer) process(d *ProcDecl, name, tmpl string, b *binding) {
	if len(l.sys.Procs) >= MaxProcs {
		l.errorf(d.Pos(), "too many processes (at most %d)", MaxProcs)
		panic(bailout{})
	}
	p := &Process{Name: name, Template: tmpl, Pos: d.Pos(), ErrLoc: -1, Labels: map[string]Loc{}}
	l.proc = p
	l.parent, l.locPos, l.edges, l.gotos = nil, nil, nil, nil
	l.labels = map[string]Loc{}
	l.errLoc = -1
	l.nTemps = 0
	l.idx = l.idx[:0]
	if b != nil {
		l.idx = append(l.idx, *b)
	}
	l.locals = map[string]*varInfo{}

	body := d.Body.List
	i := 0
	for ; i < len(body); i++ {
		ds, ok := body[i].(*DeclStmt)
		if !ok {
			break
		}
		for _, sp := range ds.Decl.Specs {
			if prev, ok := l.locals[sp.Name.Name]; ok {
				l.errorf(sp.Name.Pos(), "%s redeclared (previous declaration at line %d)", sp.Name.Name, l.file.Line(prev.pos))
				continue
			}
			v := l.declVar(sp, name+".", true)
			p.Locals = append(p.Locals, l.expand(sp, v)...)
			l.locals[sp.Name.Name] = v
		}
	}
	cur := l.newLoc()
	for _, s := range body[i:] {
		cur = l.stmt(s, cur, false)
	}
	l.stmtPos = NoPos
	for _, g := range l.gotos {
		loc, ok := l.labels[g.label.Name]
		if !ok {
			l.errorf(g.label.Pos(), "label %s not defined", g.label.Name)
			continue
		}
		l.edges[g.edge].To = loc
	}
	l.finishProc()
	l.sys.Procs = append(l.sys.Procs, p)
}

func (l *lowerer) newLoc() Loc {
	n := Loc(len(l.parent))
	l.parent = append(l.parent, n)
	l.locPos = append(l.locPos, NoPos)
	return n
}

func (l *lowerer) find(x Loc) Loc {
	r := x
	for l.parent[r] != r {
		r = l.parent[r]
	}
	for l.parent[x] != r {
		l.parent[x], x = r, l.parent[x]
	}
	return r
}

// merge makes a and b one location. a must have no outgoing edges (it is
// the end of a branch or of a loop body).
func (l *lowerer) merge(a, b Loc) {
	ra, rb := l.find(a), l.find(b)
	if ra == rb {
		return
	}
	l.parent[ra] = rb
	if l.locPos[rb] == NoPos {
		l.locPos[rb] = l.locPos[ra]
	}
}

func (l *lowerer) errLocation() Loc {
	if l.errLoc < 0 {
		l.errLoc = l.newLoc()
	}
	return l.errLoc
}

// emit adds the edge from --op--> to and returns its index.
func (l *lowerer) emit(from, to Loc, op Op, pos Pos, site int) int {
	l.nEdges += 1 + len(op.Body)
	if l.nEdges > MaxEdges {
		l.errorf(l.stmtPos, "program too large: more than %d operations after expansion", MaxEdges)
		panic(bailout{})
	}
	if r := l.find(from); l.locPos[r] == NoPos {
		l.locPos[r] = l.stmtPos
	}
	l.edges = append(l.edges, Edge{From: from, To: to, Op: op, Pos: pos, Site: site})
	return len(l.edges) - 1
}

// chain emits ops one after the other from from and returns the last
// location; the op at index siteAt (if any) carries site.
func (l *lowerer) chain(from Loc, ops []posOp, siteAt, site int) Loc {
	cur := from
	for i, o := range ops {
		to := l.newLoc()
		s := -1
		if i == siteAt {
			s = site
		}
		l.emit(cur, to, o.op, o.pos, s)
		cur = to
	}
	return cur
}

// finishProc renumbers the merged locations densely (the initial location
// stays 0) and fills the Process.
func (l *lowerer) finishProc() {
	p := l.proc
	ids := make([]Loc, len(l.parent))
	for i := range ids {
		ids[i] = -1
	}
	n := Loc(0)
	ids[l.find(0)] = 0
	n++
	for i := range l.parent {
		if r := l.find(Loc(i)); ids[r] < 0 {
			ids[r] = n
			n++
		}
	}
	id := func(x Loc) Loc { return ids[l.find(x)] }
	p.NumLocs = int(n)
	p.LocPos = make([]Pos, n)
	for i := range l.parent {
		if r := l.find(Loc(i)); r == Loc(i) {
			p.LocPos[ids[r]] = l.locPos[r]
		}
	}
	p.Edges = l.edges
	p.Out = make([][]int, n)
	for i := range p.Edges {
		e := &p.Edges[i]
		e.From, e.To = id(e.From), id(e.To)
		p.Out[e.From] = append(p.Out[e.From], i)
	}
	for name, loc := range l.labels {
		p.Labels[name] = id(loc)
	}
	if l.errLoc >= 0 {
		p.ErrLoc = id(l.errLoc)
		p.LocPos[p.ErrLoc] = NoPos
	}
}

// ---------------------------------------------------------------------------
// Sites

// site returns the (provisional) index of the fence site of the write
// statement s.
func (l *lowerer) site(s *AssignStmt, bare bool) int {
	start := s.Pos().Offset()
	if i, ok := l.siteByStart[start]; ok {
		return i
	}
	end := s.Semi.Offset() + 1
	l.sites = append(l.sites, &Site{Start: start, End: end, Text: string(l.file.Src[start:end]), BareBody: bare})
	l.siteByStart[start] = len(l.sites) - 1
	return len(l.sites) - 1
}

// finishSites orders the sites by offset and renumbers the edges' sites.
func (l *lowerer) finishSites() {
	order := make([]int, len(l.sites))
	for i := range order {
		order[i] = i
	}
	sort.Slice(order, func(a, b int) bool { return l.sites[order[a]].Start < l.sites[order[b]].Start })
	newID := make([]int, len(l.sites))
	for k, old := range order {
		s := l.sites[old]
		s.ID = k
		newID[old] = k
		l.sys.Sites = append(l.sys.Sites, s)
	}
	for _, p := range l.sys.Procs {
		for i := range p.Edges {
			if e := &p.Edges[i]; e.Site >= 0 {
				e.Site = newID[e.Site]
			}
		}
	}
}
