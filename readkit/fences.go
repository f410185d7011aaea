package readkit

import (
	"fmt"
	"sort"

	"fencer/cs"
)

// LowerWith lowers the syntax tree a reader built from file into its
// System with the lowering options opt, and attaches the reader (for
// writing fences back in its format).
func LowerWith(file *cs.File, prog *cs.Program, r cs.Reader, opt cs.Options) (*cs.System, error) {
	sys, err := cs.LowerWith(file, prog, opt)
	if err != nil {
		return nil, err
	}
	sys.Reader = r
	return sys, nil
}

// Edit replaces src[Off:End] with Text (End == Off: an insertion).
type Edit struct {
	Off, End int
	Text     string
}

// ApplyEdits applies edits to src, in order of offset (insertions at one
// offset in the order given); overlapping edits are an error.
func ApplyEdits(src []byte, edits []Edit) ([]byte, error) {
	sort.SliceStable(edits, func(i, j int) bool { return edits[i].Off < edits[j].Off })
	out := make([]byte, 0, len(src))
	last := 0
	for _, e := range edits {
		if e.Off < last || e.End < e.Off || e.End > len(src) {
			return nil, fmt.Errorf("overlapping edits at offset %d", e.Off)
		}
		out = append(out, src[last:e.Off]...)
		out = append(out, e.Text...)
		last = e.End
	}
	return append(out, src[last:]...), nil
}

// Newline is the line ending to put before a new line at eol, the end of
// a line of src: the file's own ("\r\n" or "\n").
func Newline(src []byte, eol int) string {
	if eol < len(src) && src[eol] == '\r' {
		return "\r\n"
	}
	return "\n"
}

// RestOfLine reports whether src from off to the end of its line holds
// only blanks and comments that end on the line, and returns the offset of
// the line's end (its '\n', or the '\r' of "\r\n", or the end of src): where a
// fence can go on a new line after a statement ending at off.
func RestOfLine(src []byte, off int) (int, bool) {
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
			if i > off && src[i-1] == '\r' {
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
