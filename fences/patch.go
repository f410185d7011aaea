package fences

import (
	"bytes"
	"fmt"
	"sort"

	"fencer/cs"
)

// Edit replaces the bytes [Pos, End) of the original source with NewText
// (Pos == End inserts).
type Edit struct {
	Pos, End int
	NewText  string
}

// FenceEdits returns the edits that put a fence after each site (LANGUAGE.md,
// "Fences in the output"): on its own line right after the write, with the
// write's indentation; right after it on the same line when the write
// shares its line with other statements; and `{ <write> fence; }` when the
// write is the whole body of an if, else, while or for without braces.
func FenceEdits(src []byte, sites []*cs.Site) []Edit {
	var edits []Edit
	for _, s := range sites {
		if s.BareBody {
			edits = append(edits, Edit{Pos: s.Start, End: s.End, NewText: "{ " + string(src[s.Start:s.End]) + " fence; }"})
			continue
		}
		lineStart := bytes.LastIndexByte(src[:s.Start], '\n') + 1
		if !aloneBefore(src[lineStart:s.Start]) {
			edits = append(edits, Edit{Pos: s.End, End: s.End, NewText: " fence;"})
			continue
		}
		eol, ok := restOfLineEnd(src, s.End)
		if !ok {
			edits = append(edits, Edit{Pos: s.End, End: s.End, NewText: " fence;"})
			continue
		}
		indent := leadingSpace(src[lineStart:])
		nl := "\n"
		if eol > 0 && eol < len(src) && src[eol-1] == '\r' {
			eol--
			nl = "\r\n"
		}
		if eol == len(src) || src[eol] != '\r' && src[eol] != '\n' { // last line, no newline
			edits = append(edits, Edit{Pos: eol, End: eol, NewText: nl + indent + "fence;"})
			continue
		}
		edits = append(edits, Edit{Pos: eol, End: eol, NewText: nl + indent + "fence;"})
	}
	return edits
}

// aloneBefore reports whether what precedes a statement on its line is
// only white space and labels ("L:").
func aloneBefore(b []byte) bool {
	b = bytes.TrimSpace(b)
	for len(b) > 0 {
		i := 0
		for i < len(b) && (b[i] == '_' || b[i] >= 'a' && b[i] <= 'z' || b[i] >= 'A' && b[i] <= 'Z' || i > 0 && b[i] >= '0' && b[i] <= '9') {
			i++
		}
		if i == 0 {
			return false
		}
		rest := bytes.TrimLeft(b[i:], " \t")
		if len(rest) == 0 || rest[0] != ':' {
			return false
		}
		b = bytes.TrimSpace(rest[1:])
	}
	return true
}

// restOfLineEnd returns the offset of the end of the line that contains off
// (the newline, or len(src)) if the rest of the line after off holds only
// white space and comments that close on that line.
func restOfLineEnd(src []byte, off int) (int, bool) {
	i := off
	for i < len(src) {
		switch c := src[i]; {
		case c == '\n':
			return i, true
		case c == ' ' || c == '\t' || c == '\r':
			i++
		case c == '/' && i+1 < len(src) && src[i+1] == '/':
			for i < len(src) && src[i] != '\n' {
				i++
			}
			return i, true
		case c == '/' && i+1 < len(src) && src[i+1] == '*':
			end := bytes.Index(src[i+2:], []byte("*/"))
			if end < 0 || bytes.IndexByte(src[i+2:i+2+end], '\n') >= 0 {
				return 0, false
			}
			i += 2 + end + 2
		default:
			return 0, false
		}
	}
	return len(src), true
}

func leadingSpace(line []byte) string {
	n := 0
	for n < len(line) && (line[n] == ' ' || line[n] == '\t') {
		n++
	}
	return string(line[:n])
}

// Apply applies edits to src. Edits must not overlap; insertions at the
// same offset keep their order.
func Apply(src []byte, edits []Edit) ([]byte, error) {
	sorted := append([]Edit(nil), edits...)
	sort.SliceStable(sorted, func(i, j int) bool { return sorted[i].Pos < sorted[j].Pos })
	var out bytes.Buffer
	last := 0
	for _, e := range sorted {
		if e.Pos < last || e.End < e.Pos || e.End > len(src) {
			return nil, fmt.Errorf("edit [%d,%d) overlaps another or is out of range", e.Pos, e.End)
		}
		out.Write(src[last:e.Pos])
		out.WriteString(e.NewText)
		last = e.End
	}
	out.Write(src[last:])
	return out.Bytes(), nil
}
