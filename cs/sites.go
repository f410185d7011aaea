package cs

import "sort"

// This file finds the fence sites: the program points of the source. A
// point lies between two statements of a block (or after the last one),
// before the first statement of the body of an if, else, while or for, or
// before or after a body without braces. Every point is a place where the
// patch can write "fence;"; one point serves every template instance and
// every unrolled copy of its statement.
//
// Control passes a point when it falls through from the statement before
// it: the edges that enter the point's location from that statement (and
// not a goto, which jumps to a label after the point) record the point in
// Edge.Points. A statement that adds no edge (skip, ";", an empty for)
// passes its point together with the point before it.

// Place says on which side of its statement a point lies.
type Place uint8

const (
	After  Place = iota // right after the statement
	Before              // right before it (the first statement of a body)
)

// Site is a fence site: a program point of the source, next to statement
// [Start, End). One site serves every template instance and every copy of
// an unrolled for body.
type Site struct {
	ID    int    // index in System.Sites
	Start int    // byte offset of the statement's first token
	End   int    // byte offset just after its last token
	Text  string // the statement's source text
	Place Place
	// BareBody is true when the statement is the whole body of an if,
	// else, while or for without braces and the point is inside that body;
	// the patch must then wrap the body in { ... }.
	BareBody bool
	// Depth is the number of while loops around the point.
	Depth int
	// Copies is the number of unrolled copies of the point in one
	// process: the product of the trip counts of the for loops around it
	// (1 outside any). A fence there runs that many times per pass.
	Copies int
	// AfterWrite is true for the point right after a write statement.
	AfterWrite bool
	// Fence is true for the point right after a full fence statement of
	// the source lowered with Options.Reconsider (the statement is the
	// site's): a fence there is that statement, kept.
	Fence bool
}

// Pos returns the position of the statement.
func (s *Site) Pos() Pos { return PosAt(s.Start) }

// Offset returns where the point is in the source: the end of the
// statement for After, its start for Before.
func (s *Site) Offset() int {
	if s.Place == After {
		return s.End
	}
	return s.Start
}

// Describe says where the point is, as "after x = 1;" or "before r = y;",
// with the statement cut to its first line.
func (s *Site) Describe() string {
	text := s.Text
	for i := 0; i < len(text); i++ {
		if text[i] == '\n' || text[i] == '\r' {
			text = text[:i] + " …"
			break
		}
	}
	if s.Place == Before {
		return "before " + text
	}
	return "after " + text
}

// Preferred reports whether a is preferred to b when both can take a fence
// equally well (the tie-break of a minimum fence set, fences.Rank): a fence
// of the source (kept rather than moved); fewer enclosing loops, then
// fewer unrolled copies (fewer fences executed: a fence after a for loop
// rather than in its body, issue 26); right after a write (as a fence after
// a write has always been placed); not inside a body without braces (no
// braces added); then the earlier offset.
func Preferred(a, b *Site) bool {
	if a.Fence != b.Fence {
		return a.Fence
	}
	if a.Depth != b.Depth {
		return a.Depth < b.Depth
	}
	if a.Copies != b.Copies {
		return a.Copies < b.Copies
	}
	if a.AfterWrite != b.AfterWrite {
		return a.AfterWrite
	}
	if a.BareBody != b.BareBody {
		return !a.BareBody
	}
	if a.Offset() != b.Offset() {
		return a.Offset() < b.Offset()
	}
	return a.Place < b.Place
}

// siteKey identifies a point: its statement and side (front ends of other
// formats may give several statements one position).
type siteKey struct {
	start, end int
	place      Place
	bare       bool
}

// block lowers a list of statements from location from, recording the
// point after each statement.
func (pl *procLowerer) block(list []Stmt, from Loc) Loc {
	cur := from
	for _, x := range list {
		start, ent := len(pl.edges), pl.ent
		pl.wrote = false
		cur = pl.stmt(x, cur, false)
		pl.ent = pl.entering(start, cur, ent)
		pl.point(After, x, false, pl.wrote && isAssign(x))
	}
	return cur
}

// body lowers the body s of an if, else, while or for from location from,
// which control enters by the edges enter.
func (pl *procLowerer) body(s Stmt, from Loc, enter []int) Loc {
	pl.ent, pl.entLabels = enter, nil
	if b, ok := s.(*BlockStmt); ok {
		if len(b.List) > 0 {
			pl.point(Before, b.List[0], false, false)
		}
		return pl.block(b.List, from)
	}
	pl.point(Before, s, true, false)
	start := len(pl.edges)
	pl.wrote = false
	to := pl.stmt(s, from, true)
	pl.ent = pl.entering(start, to, enter)
	pl.point(After, s, true, pl.wrote && isAssign(s))
	return to
}

// isAssign reports whether s is an assignment, labelled or not.
func isAssign(s Stmt) bool {
	for {
		l, ok := s.(*LabeledStmt)
		if !ok {
			break
		}
		s = l.Stmt
	}
	_, ok := s.(*AssignStmt)
	return ok
}

// labelPoint is a point passed by the gotos to label.
type labelPoint struct {
	label string
	site  int
}

// entering returns the edges from index start on that enter loc other than
// by a goto; with no edge since start, control reached loc by prev (and
// the gotos of pl.entLabels). Otherwise it clears pl.entLabels.
func (pl *procLowerer) entering(start int, loc Loc, prev []int) []int {
	if start == len(pl.edges) {
		return prev
	}
	pl.entLabels = nil
	r := pl.find(loc)
	var out []int
	for i := start; i < len(pl.edges); i++ {
		if !pl.isGoto[i] && pl.find(pl.edges[i].To) == r {
			out = append(out, i)
		}
	}
	return out
}

// point records the point on side place of s, passed by the edges pl.ent.
func (pl *procLowerer) point(place Place, s Stmt, bare, afterWrite bool) {
	if _, ok := s.(*DeclStmt); ok {
		return
	}
	if place == After {
		// After "L: x = 1;" is after "x = 1;": the patch lines the fence up
		// with the statement, not the label (and a body without braces
		// becomes "L: { x = 1; fence; }").
		for {
			l, ok := s.(*LabeledStmt)
			if !ok {
				break
			}
			s = l.Stmt
		}
	}
	id := pl.site(place, s, bare, afterWrite)
	for _, i := range pl.ent {
		pl.edges[i].Points = append(pl.edges[i].Points, id)
	}
	for _, l := range pl.entLabels {
		pl.labelPts = append(pl.labelPts, labelPoint{l, id})
	}
}

// site returns the (provisional) index of the point on side place of s.
func (pl *procLowerer) site(place Place, s Stmt, bare, afterWrite bool) int {
	start, end := s.Pos().Offset(), s.End().Offset()
	// A reader's statement is one piece of its source; should one end
	// before it starts or leave the file (a reader's bug), its text is
	// empty rather than a slice out of range.
	end = min(max(end, start), len(pl.file.Src))
	start = min(start, end)
	k := siteKey{start, end, place, bare}
	if i, ok := pl.siteByKey[k]; ok {
		return i
	}
	f, fence := s.(*FenceStmt)
	fence = fence && f.Kind == FullFence
	pl.sites = append(pl.sites, &Site{
		Start: start, End: end, Text: string(pl.file.Src[start:end]), Place: place,
		BareBody: bare, Depth: pl.depth, Copies: max(pl.copies, 1), AfterWrite: afterWrite,
		Fence: fence && place == After && pl.reconsider,
	})
	pl.siteByKey[k] = len(pl.sites) - 1
	return len(pl.sites) - 1
}

// finishSites orders the sites by offset and renumbers the edges' points.
func (l *lowerer) finishSites() {
	order := make([]int, len(l.sites))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool {
		x, y := l.sites[order[a]], l.sites[order[b]]
		switch {
		case x.Offset() != y.Offset():
			return x.Offset() < y.Offset()
		case x.Place != y.Place:
			return x.Place < y.Place
		case x.Start != y.Start:
			return x.Start > y.Start // the inner statement first
		}
		return !x.BareBody && y.BareBody
	})
	newID := make([]int, len(l.sites))
	for k, old := range order {
		s := l.sites[old]
		s.ID = k
		newID[old] = k
		l.sys.Sites = append(l.sys.Sites, s)
	}
	for _, p := range l.sys.Procs {
		for i := range p.Edges {
			e := &p.Edges[i]
			for j, id := range e.Points {
				e.Points[j] = newID[id]
			}
		}
	}
}

// AfterAWrite reports whether the site is right after a write statement
// (with or without braces around it): where the readers of other formats,
// whose patchers write a fence only after a write, can put one.
func (st *Site) AfterAWrite() bool { return st.AfterWrite && st.Place == After }

// WriteSites returns the sites right after a write statement, in order
// (Site.AfterAWrite): the fence sites of the readers of other formats.
func (s *System) WriteSites() []*Site {
	var out []*Site
	for _, st := range s.Sites {
		if st.AfterAWrite() {
			out = append(out, st)
		}
	}
	return out
}

// Decls are the system's variables, shared then each process's locals, in
// the order of the explicit checker's value vector.
func (s *System) Decls() []VarDecl {
	ds := append([]VarDecl(nil), s.Shared...)
	for _, p := range s.Procs {
		ds = append(ds, p.Locals...)
	}
	return ds
}
