package rmm

import (
	"fmt"
	"sort"
	"strings"

	"fencer/cs"
)

// edit inserts text at off.
type edit struct {
	off  int
	text string
}

// InsertFences returns the model src with a fence after each write
// statement of sites (sites of the System Parse built from src), the rest
// of the text unchanged:
//
//   - a write followed by ';' alone on its line (comments aside) gets a
//     "fence;" line after that line, indented like the write;
//   - a write followed by ';' and more statements on its line gets
//     " fence;" after the ';';
//   - a write that ends a list (before '}', 'or' or the end of the
//     process) gets ';' and then a "fence" line (no ';': Memorax separates
//     statements, it does not end them);
//   - a write that is the whole body of an if, else or while becomes
//     "{ write: ...; fence }";
//   - a write in a macro body gets "; fence" right after it, in the body
//     (so every use of the macro has the fence; the write is one site for
//     all of them). A write made of body text and argument text cannot be
//     patched (an error).
func InsertFences(src []byte, sites []*cs.Site) ([]byte, error) {
	_, info, err := read(cs.NewFile("", src), Options{})
	if err != nil {
		return nil, err
	}
	var edits []edit
	done := map[int]bool{}
	for _, s := range sites {
		if done[s.Start] {
			continue
		}
		done[s.Start] = true
		w := info[s.Start]
		if w == nil {
			return nil, fmt.Errorf("no write statement at offset %d", s.Start)
		}
		if w.mixed || w.lastEnd <= w.write.Pos || !w.inMacro && w.next.Kind != tEOF && w.next.Pos < w.lastEnd {
			return nil, fmt.Errorf("%s: cannot place a fence after this write: it is made of a macro's text and a call's arguments", position(cs.NewFile("", src), w.write.Pos))
		}
		switch {
		case w.bare:
			edits = append(edits, edit{w.wrapStart, "{ "}, edit{w.lastEnd, "; fence }"})
		case w.inMacro:
			// In a macro body: right after the write, for every use.
			edits = append(edits, edit{w.lastEnd, "; fence"})
		case w.next.Is(";"):
			at := w.next.End
			if eol, ok := restOfLine(src, at); ok {
				edits = append(edits, edit{eol, newline(src, eol) + indent(src, w.write.Pos) + "fence;"})
			} else {
				edits = append(edits, edit{at, " fence;"})
			}
		default:
			if eol, ok := restOfLine(src, w.lastEnd); ok {
				edits = append(edits, edit{w.lastEnd, ";"}, edit{eol, newline(src, eol) + indent(src, w.write.Pos) + "fence"})
			} else {
				edits = append(edits, edit{w.lastEnd, "; fence"})
			}
		}
	}
	sort.SliceStable(edits, func(i, j int) bool { return edits[i].off < edits[j].off })
	var b strings.Builder
	last := 0
	for _, e := range edits {
		b.Write(src[last:e.off])
		b.WriteString(e.text)
		last = e.off
	}
	b.Write(src[last:])
	return []byte(b.String()), nil
}

// restOfLine reports whether src from off to the end of its line holds
// only blanks and comments that end on the line, and returns the offset of
// the line's end (its '\n', or '\r' of "\r\n", or the end of src).
func restOfLine(src []byte, off int) (int, bool) {
	i := off
	for i < len(src) {
		switch c := src[i]; {
		case c == '\n':
			return i, true
		case c == '\r' && i+1 < len(src) && src[i+1] == '\n':
			return i, true
		case c == ' ' || c == '\t':
			i++
		case c == '/' && i+1 < len(src) && src[i+1] == '/':
			for i < len(src) && src[i] != '\n' {
				i++
			}
			if i > off && i <= len(src) && i > 0 && src[i-1] == '\r' {
				i--
			}
			return i, true
		case c == '/' && i+1 < len(src) && src[i+1] == '*':
			j := i + 2
			for j+1 < len(src) && !(src[j] == '*' && src[j+1] == '/') {
				if src[j] == '\n' {
					return 0, false
				}
				j++
			}
			if j+1 >= len(src) {
				return 0, false
			}
			i = j + 2
		default:
			return 0, false
		}
	}
	return i, true
}

// newline is the line ending to put before the new line at eol.
func newline(src []byte, eol int) string {
	if eol < len(src) && src[eol] == '\r' {
		return "\r\n"
	}
	return "\n"
}

// indent is the indentation of a line whose text starts where the
// statement at off starts: the blanks of its line, then a space for every
// other byte before off (labels count as indentation).
func indent(src []byte, off int) string {
	start := off
	for start > 0 && src[start-1] != '\n' {
		start--
	}
	var b strings.Builder
	for i := start; i < off; i++ {
		if src[i] == '\t' {
			b.WriteByte('\t')
		} else {
			b.WriteByte(' ')
		}
	}
	return b.String()
}
