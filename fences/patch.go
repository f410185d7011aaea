package fences

import (
	"bytes"
	"fmt"
	"slices"
	"sort"

	"fencer/cs"
)

// Edit replaces the bytes src[Pos:End] of the original source by NewText;
// Pos == End is an insertion. Offsets are byte offsets into the original
// source, as in go/analysis's TextEdit, so edits made for one source compose
// without reprinting it.
type Edit struct {
	Pos, End int
	NewText  string
}

// FenceEdits returns the edits that put a fence at each of sites (program
// points, cs.Site) in src, the source the sites were parsed from, sorted by
// position and non-overlapping. A site listed twice gets one fence. The
// rules (LANGUAGE.md, "Fences in the output"):
//
//   - A point inside a body without braces of an if, else, while or for
//     (BareBody) wraps the body: "{ fence; <statement> }" before it,
//     "{ <statement> fence; }" after it, "{ fence; <statement> fence; }"
//     for both.
//   - A point after a statement alone on its line gets "fence;" on a new
//     line right after that line, indented like the line the statement
//     starts on, labels counting as indentation ("L:  x = 1;" puts the
//     fence under x). Alone means: before it on its line only whitespace,
//     comments and labels ("L:"); after its end (';' or '}') only
//     whitespace, comments closed on that line and a trailing "//"
//     comment, which stay on the statement's line. The new line ends like
//     the statement's line ("\n" or "\r\n"); at the end of a file without
//     a final newline the fence becomes the new last line, also without
//     one. So a point between "}" and the next statement gets a line of
//     its own.
//   - Any other point after a statement (another statement or a brace
//     before or after it on its line, or a "/*" comment after it that
//     continues on later lines) gets " fence;" right after it on the same
//     line.
//   - A point before a statement (the first of a body) that starts its
//     line gets a line "fence;" of its own just above, indented like it;
//     otherwise "fence; " right before the statement.
//
// Nothing else changes. FenceEdits panics if a site does not lie within
// src.
func FenceEdits(src []byte, sites []*cs.Site) []Edit {
	return FenceEditsWith(src, sites, nil)
}

// FenceEditsWith is FenceEdits with the fence statement of each site given
// by text ("fence;" when text is nil or returns ""), e.g. "fence store;".
func FenceEditsWith(src []byte, sites []*cs.Site, text func(*cs.Site) string) []Edit {
	stmt := func(s *cs.Site) string {
		if text != nil {
			if t := text(s); t != "" {
				return t
			}
		}
		return "fence;"
	}
	sorted := slices.Clone(sites)
	slices.SortStableFunc(sorted, func(a, b *cs.Site) int { return a.Offset() - b.Offset() })
	sc := newLineScanner(src)
	var edits []Edit
	type wrap struct {
		start, end    int
		before, after string
	}
	var wraps []*wrap
	bare := map[int]*wrap{}
	done := map[[2]int]bool{}
	for _, s := range sorted {
		if s.Start < 0 || s.Start >= s.End || s.End > len(src) || (src[s.End-1] != ';' && src[s.End-1] != '}') {
			panic(fmt.Sprintf("fences: site %d [%d,%d) is not a statement of the source (%d bytes)", s.ID, s.Start, s.End, len(src)))
		}
		k := [2]int{s.Start, int(s.Place)}
		if done[k] {
			continue
		}
		done[k] = true
		switch {
		case s.BareBody:
			// The points before and after one body share its end; the one
			// after a labelled body starts after the labels, which then
			// stay outside the braces unless a fence goes before them.
			w := bare[s.End]
			if w == nil {
				w = &wrap{start: s.Start, end: s.End}
				bare[s.End] = w
				wraps = append(wraps, w)
			}
			w.start = min(w.start, s.Start)
			if s.Place == cs.Before {
				w.before = stmt(s)
			} else {
				w.after = stmt(s)
			}
		case s.Place == cs.Before:
			if sc.aloneBefore(s.Start) && sc.skipBlank(sc.lineStart(s.Start), s.Start) >= s.Start {
				ls := sc.lineStart(s.Start)
				edits = append(edits, Edit{ls, ls, sc.fenceLine(s.Start, ls, sc.lineEOL(s.Start), stmt(s))})
				break
			}
			edits = append(edits, Edit{s.Start, s.Start, stmt(s) + " "})
		case sc.aloneBefore(s.Start):
			if at, eol, ok := sc.aloneAfter(s.End); ok {
				edits = append(edits, Edit{at, at, sc.fenceLine(s.Start, at, eol, stmt(s))})
				break
			}
			fallthrough
		default:
			edits = append(edits, Edit{s.End, s.End, " " + stmt(s)})
		}
	}
	for _, w := range wraps {
		text := string(src[w.start:w.end])
		if w.before != "" {
			text = w.before + " " + text
		}
		if w.after != "" {
			text += " " + w.after
		}
		edits = append(edits, Edit{w.start, w.end, "{ " + text + " }"})
	}
	SortEdits(edits)
	return edits
}

// SortEdits sorts edits by position, insertions before a replacement that
// starts at the same offset, as Apply wants them.
func SortEdits(edits []Edit) {
	slices.SortStableFunc(edits, func(a, b Edit) int {
		if a.Pos != b.Pos {
			return a.Pos - b.Pos
		}
		return a.End - b.End
	})
}

// RemoveEdits returns the edits that delete the fence statements of sites
// (cs.Site.Fence: points lowered from a "fence;" of the source with
// cs.Options.Reconsider) from src. A fence alone on its line goes with its
// line; a fence that is the whole body of an if, else, while or for becomes
// "{ }" (the body must stay a statement), a labelled one "skip;" (the label
// must stay where it is); any other loses itself and the
// blanks before it on its line (or after it, at the start of a line).
// Nothing else changes. RemoveEdits panics if a site is not a fence
// statement of src.
func RemoveEdits(src []byte, sites []*cs.Site) []Edit {
	sc := newLineScanner(src)
	var edits []Edit
	done := map[int]bool{}
	for _, s := range sites {
		if s.Start < 0 || s.End > len(src) || s.Start >= s.End || !bytes.HasPrefix(src[s.Start:], []byte("fence")) || src[s.End-1] != ';' {
			panic(fmt.Sprintf("fences: site %d [%d,%d) is not a fence statement of the source", s.ID, s.Start, s.End))
		}
		if done[s.Start] {
			continue
		}
		done[s.Start] = true
		ls := sc.lineStart(s.Start)
		switch {
		case s.BareBody:
			edits = append(edits, Edit{s.Start, s.End, "{ }"})
		case afterLabel(src, s.Start):
			// "L: fence;" keeps its label on a statement of its own.
			edits = append(edits, Edit{s.Start, s.End, "skip;"})
		case sc.skipBlank(ls, s.Start) >= s.Start && !sc.hasComment(ls, s.Start):
			if at, _, ok := sc.aloneAfter(s.End); ok && !sc.hasComment(s.End, at) {
				edits = append(edits, Edit{ls, at, ""})
				break
			}
			end := s.End
			for end < len(src) && (src[end] == ' ' || src[end] == '\t') {
				end++
			}
			edits = append(edits, Edit{s.Start, end, ""})
		default:
			from := s.Start
			for from > ls && (src[from-1] == ' ' || src[from-1] == '\t') {
				from--
			}
			edits = append(edits, Edit{from, s.End, ""})
		}
	}
	SortEdits(edits)
	return edits
}

// afterLabel reports whether the statement at start is labelled: the last
// non-blank byte before it is the ':' of a label.
func afterLabel(src []byte, start int) bool {
	i := start - 1
	for i >= 0 && (isSpace(src[i]) || src[i] == '\n') {
		i--
	}
	return i >= 0 && src[i] == ':'
}

// hasComment reports whether a comment starts in [from, to).
func (sc *lineScanner) hasComment(from, to int) bool {
	for _, c := range sc.comments {
		if c[0] >= from && c[0] < to {
			return true
		}
	}
	return false
}

// Apply returns a copy of src with edits applied. The edits must be sorted by
// position and must not overlap (insertions at the same offset are applied
// in order); otherwise, or when an edit lies outside src, Apply returns an
// error and no output. src is not modified.
func Apply(src []byte, edits []Edit) ([]byte, error) {
	size := len(src)
	for i, e := range edits {
		if e.Pos < 0 || e.Pos > e.End || e.End > len(src) {
			return nil, fmt.Errorf("fences: edit %d [%d,%d) is outside the source (%d bytes)", i, e.Pos, e.End, len(src))
		}
		if i > 0 {
			prev := edits[i-1]
			if e.Pos < prev.Pos {
				return nil, fmt.Errorf("fences: edit %d at %d comes after edit %d at %d: edits are not sorted", i, e.Pos, i-1, prev.Pos)
			}
			if e.Pos < prev.End {
				return nil, fmt.Errorf("fences: edit %d [%d,%d) overlaps edit %d [%d,%d)", i, e.Pos, e.End, i-1, prev.Pos, prev.End)
			}
		}
		size += len(e.NewText) - (e.End - e.Pos)
	}
	out := make([]byte, 0, size)
	last := 0
	for _, e := range edits {
		out = append(out, src[last:e.Pos]...)
		out = append(out, e.NewText...)
		last = e.End
	}
	return append(out, src[last:]...), nil
}

// lineScanner answers questions about the lines of a source: where comments
// are, what is before and after a statement on its line.
type lineScanner struct {
	src      []byte
	comments [][2]int // [start, end) of every comment, in order
	eol      string   // the file's line ending: "\r\n" if its first line has one
}

func newLineScanner(src []byte) *lineScanner {
	sc := &lineScanner{src: src, eol: "\n"}
	for i := 0; i+1 < len(src); i++ {
		if src[i] == '\n' {
			break
		}
		if src[i] == '\r' && src[i+1] == '\n' {
			sc.eol = "\r\n"
			break
		}
	}
	for i := 0; i+1 < len(src); {
		switch {
		case src[i] == '/' && src[i+1] == '/':
			end := i + 2
			for end < len(src) && src[end] != '\n' {
				end++
			}
			sc.comments = append(sc.comments, [2]int{i, end})
			i = end
		case src[i] == '/' && src[i+1] == '*':
			end := i + 2
			for end < len(src) && !(src[end-1] == '*' && src[end] == '/' && end-1 >= i+2) {
				end++
			}
			end = min(end+1, len(src)) // an unclosed comment runs to the end
			sc.comments = append(sc.comments, [2]int{i, end})
			i = end
		default:
			i++
		}
	}
	return sc
}

// commentAt returns the end of the comment containing offset i, or -1.
func (sc *lineScanner) commentAt(i int) int {
	k := sort.Search(len(sc.comments), func(k int) bool { return sc.comments[k][1] > i })
	if k < len(sc.comments) && sc.comments[k][0] <= i {
		return sc.comments[k][1]
	}
	return -1
}

func (sc *lineScanner) lineStart(i int) int {
	for i > 0 && sc.src[i-1] != '\n' {
		i--
	}
	return i
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v' }

func isIdent(c byte, first bool) bool {
	return c == '_' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || !first && '0' <= c && c <= '9'
}

// skipBlank returns the first offset at or after i and before limit that is
// not whitespace (other than a newline) or inside a comment. A comment that
// runs past limit is skipped too, so the result can exceed limit.
func (sc *lineScanner) skipBlank(i, limit int) int {
	for i < limit {
		if isSpace(sc.src[i]) {
			i++
		} else if end := sc.commentAt(i); end >= 0 {
			i = end
		} else {
			break
		}
	}
	return i
}

// aloneBefore reports whether only whitespace, comments and labels precede
// offset start on its line.
func (sc *lineScanner) aloneBefore(start int) bool {
	i := sc.lineStart(start)
	for {
		i = sc.skipBlank(i, start)
		if i >= start {
			return true
		}
		if !isIdent(sc.src[i], true) {
			return false
		}
		for i < start && isIdent(sc.src[i], false) {
			i++
		}
		i = sc.skipBlank(i, start)
		if i >= start || sc.src[i] != ':' {
			return false
		}
		i++
	}
}

// aloneAfter reports whether only whitespace and comments follow offset end
// up to the end of its line, every "/*" comment closing on that line. It
// returns where the next line starts (len(src) at the end of the file) and
// the line ending to use for an inserted line: that of end's line, or "" when
// it is the last line and has none.
func (sc *lineScanner) aloneAfter(end int) (at int, eol string, ok bool) {
	src := sc.src
	i := end
	for i < len(src) && src[i] != '\n' {
		switch {
		case isSpace(src[i]):
			i++
		case i+1 < len(src) && src[i] == '/' && src[i+1] == '/':
			i = sc.commentAt(i) // runs to the newline
		case i+1 < len(src) && src[i] == '/' && src[i+1] == '*':
			close := sc.commentAt(i)
			for j := i; j < close; j++ {
				if src[j] == '\n' {
					return 0, "", false
				}
			}
			if close == len(src) && !(close-i >= 4 && src[close-2] == '*' && src[close-1] == '/') {
				return 0, "", false // unclosed comment
			}
			i = close
		default:
			return 0, "", false
		}
	}
	if i == len(src) {
		return i, "", true
	}
	if i > 0 && src[i-1] == '\r' {
		return i + 1, "\r\n", true
	}
	return i + 1, "\n", true
}

// lineEOL returns the line ending of the line holding offset i: "\r\n",
// "\n", or the file's when it is the last line.
func (sc *lineScanner) lineEOL(i int) string {
	for i < len(sc.src) && sc.src[i] != '\n' {
		i++
	}
	switch {
	case i == len(sc.src):
		return sc.eol
	case i > 0 && sc.src[i-1] == '\r':
		return "\r\n"
	}
	return "\n"
}

// fenceLine returns the text of a fence line inserted at offset at for the
// write starting at offset start; eol is the line ending from aloneAfter.
func (sc *lineScanner) fenceLine(start, at int, eol, stmt string) string {
	// The line's indentation, extended over the labels that start the line
	// ("L:  x = 1;"): a label is not a statement, so the fence lines up
	// with the write even after an outdented label. Tabs stay tabs.
	ls := sc.lineStart(start)
	spaces := func(i int) int {
		for i < start && isSpace(sc.src[i]) {
			i++
		}
		return i
	}
	n := spaces(ls)
	for n < start && isIdent(sc.src[n], true) {
		i := n
		for i < start && isIdent(sc.src[i], false) {
			i++
		}
		if i = spaces(i); i >= start || sc.src[i] != ':' {
			break
		}
		n = spaces(i + 1)
	}
	indent := string(bytes.Map(func(r rune) rune {
		if r == '\t' {
			return '\t'
		}
		return ' '
	}, sc.src[ls:n]))
	if eol == "" { // after a last line without a newline
		return sc.eol + indent + stmt
	}
	return indent + stmt + eol
}
