package report

import (
	"strings"

	"fencer/cs"
	"fencer/formats"
)

// sourceIndex maps the positions that the automaton's edges carry back to
// the statements and declarations of the source, so that traces can show
// what the user wrote instead of the lowered operations (cs records on
// every edge the position of its statement, or for a read inside an
// expression the position of the shared variable it reads: either way a
// position inside exactly one innermost statement).
type sourceIndex struct {
	file  *cs.File
	stmts []cs.Stmt // every statement but blocks and labels, in source order
	decls []cs.Decl
	// mode is how the format of the file shows a statement: as written
	// (.cs), as its source line (a reader whose statements do not span
	// .cs text, .rmm) or as the cell of a table (.litmus).
	mode formats.TextMode
}

// newSourceIndex parses the file of sys again, with the format that
// built it, for its syntax tree; it returns nil when that fails (it
// cannot for a file that lowered, but a trace must never fail for want of
// source text).
func newSourceIndex(sys *cs.System) *sourceIndex {
	if sys == nil || sys.File == nil {
		return nil
	}
	f := formats.OfSystem(sys)
	if f == nil {
		return nil
	}
	prog, err := formats.ProgramOf(sys)
	if err != nil || prog == nil {
		return nil
	}
	ix := &sourceIndex{file: sys.File, decls: prog.Decls, mode: f.Text}
	for _, d := range prog.Decls {
		cs.Inspect(d, func(n cs.Node) bool {
			switch s := n.(type) {
			case *cs.BlockStmt, *cs.LabeledStmt, *cs.DeclStmt:
			case *cs.AtomicStmt:
				ix.stmts = append(ix.stmts, s)
				return false // an atomic block is one step: one statement
			case cs.Stmt:
				ix.stmts = append(ix.stmts, s)
			}
			return true
		})
	}
	return ix
}

// stmtAt returns the innermost statement that contains p, or nil.
func (ix *sourceIndex) stmtAt(p cs.Pos) cs.Stmt {
	if ix == nil || !p.IsValid() {
		return nil
	}
	var best cs.Stmt
	for _, s := range ix.stmts {
		if s.Pos() <= p && p < s.End() {
			if best == nil || s.End()-s.Pos() < best.End()-best.Pos() {
				best = s
			}
		}
	}
	return best
}

// declAt returns the top-level declaration that starts at p, or nil.
func (ix *sourceIndex) declAt(p cs.Pos) cs.Decl {
	if ix == nil {
		return nil
	}
	for _, d := range ix.decls {
		if d.Pos() == p {
			return d
		}
	}
	return nil
}

// text returns the source between two positions with runs of white space
// (and line breaks) made one blank.
func (ix *sourceIndex) text(from, to cs.Pos) string {
	src := ix.file.Src
	a, b := from.Offset(), to.Offset()
	if a < 0 || b > len(src) || a > b {
		return ""
	}
	return strings.Join(strings.Fields(string(src[a:b])), " ")
}

// stmtText is what a trace row shows of a statement: the whole of a simple
// statement or an atomic block (shortened when long), the head
// "while (cond)" or "if (cond)" of a loop or a branch.
func (ix *sourceIndex) stmtText(s cs.Stmt) string {
	if s == nil {
		return ""
	}
	var t string
	switch ix.mode {
	case formats.TextCell:
		return ix.cell(s.Pos())
	case formats.TextLine:
		t = ix.lineText(s.Pos())
	default:
		t = ix.csText(s)
	}
	return shorten(t)
}

// shorten cuts a statement's text to 60 characters ("..." at the end).
func shorten(t string) string {
	const max = 60
	if r := []rune(t); len(r) > max {
		t = string(r[:max-3]) + "..."
	}
	return t
}

// lineText is the source line of p, trimmed.
func (ix *sourceIndex) lineText(p cs.Pos) string {
	src := ix.file.Src
	off := p.Offset()
	if off < 0 || off >= len(src) {
		return ""
	}
	a, b := off, off
	for a > 0 && src[a-1] != '\n' {
		a--
	}
	for b < len(src) && src[b] != '\n' {
		b++
	}
	return ix.text(cs.PosAt(a), cs.PosAt(b))
}

// csText is the text of a .cs statement (see stmtText).
func (ix *sourceIndex) csText(s cs.Stmt) string {
	var t string
	switch s := s.(type) {
	case *cs.IfStmt:
		t = "if " + ix.cond(s.If+2, s.Cond)
	case *cs.WhileStmt:
		t = "while " + ix.cond(s.While+5, s.Cond)
	case *cs.ForStmt:
		t = ix.text(s.Pos(), s.Hi.End()) + ")"
	default:
		t = ix.text(s.Pos(), s.End())
	}
	return t
}

// cond returns "(cond)" of an if or while whose keyword ends at kwEnd,
// including the parentheses as written.
func (ix *sourceIndex) cond(kwEnd cs.Pos, c cs.Expr) string {
	src := ix.file.Src
	end := c.End().Offset()
	for end < len(src) && src[end] != ')' {
		end++
	}
	if end < len(src) {
		end++
	}
	return ix.text(kwEnd, cs.PosAt(end))
}

// line returns the line of p.
func (ix *sourceIndex) line(p cs.Pos) int {
	if ix == nil {
		return 0
	}
	return ix.file.Line(p)
}

// cell returns the text around p up to the nearest '|' or ';' on each side
// within its line: the instruction of a .litmus table that p is in.
func (ix *sourceIndex) cell(p cs.Pos) string {
	src := ix.file.Src
	off := p.Offset()
	if off < 0 || off >= len(src) {
		return ""
	}
	a, b := off, off
	for a > 0 && src[a-1] != '|' && src[a-1] != ';' && src[a-1] != '\n' {
		a--
	}
	for b < len(src) && src[b] != '|' && src[b] != ';' && src[b] != '\n' {
		b++
	}
	return ix.text(cs.PosAt(a), cs.PosAt(b))
}

// StatementText returns a function that gives the text of the statement
// at a position of sys's file, as traces show it ("" when there is none):
// what the execution witnesses of the axiomatic models print beside each
// event.
func StatementText(sys *cs.System) func(cs.Pos) string {
	ix := newSourceIndex(sys)
	return func(p cs.Pos) string {
		if ix == nil {
			return ""
		}
		if s := ix.stmtAt(p); s != nil {
			return ix.stmtText(s)
		}
		return ""
	}
}
