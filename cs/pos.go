package cs

import (
	"fmt"
	"sort"
)

// Pos is a byte offset into a File plus one; NoPos (0) means "no position".
// It is expanded to line and column only when printed.
type Pos int

// NoPos is the zero Pos.
const NoPos Pos = 0

// IsValid reports whether p is a real position.
func (p Pos) IsValid() bool { return p != NoPos }

// Offset returns the byte offset of p (p must be valid).
func (p Pos) Offset() int { return int(p) - 1 }

// PosAt returns the Pos of byte offset off.
func PosAt(off int) Pos { return Pos(off + 1) }

// File is one source file: its name, its bytes and where its lines start.
type File struct {
	Name  string
	Src   []byte
	lines []int // byte offset of the start of each line
}

// NewFile indexes src.
func NewFile(name string, src []byte) *File {
	f := &File{Name: name, Src: src, lines: []int{0}}
	for i, c := range src {
		if c == '\n' {
			f.lines = append(f.lines, i+1)
		}
	}
	return f
}

// Position is a printable source position. Line and Col count from 1; Col
// counts bytes.
type Position struct {
	Filename  string
	Line, Col int
}

func (p Position) String() string {
	if p.Line == 0 {
		return p.Filename
	}
	return fmt.Sprintf("%s:%d:%d", p.Filename, p.Line, p.Col)
}

// Position expands p.
func (f *File) Position(p Pos) Position {
	if f == nil || !p.IsValid() {
		if f == nil {
			return Position{}
		}
		return Position{Filename: f.Name}
	}
	off := p.Offset()
	i := sort.Search(len(f.lines), func(i int) bool { return f.lines[i] > off }) - 1
	return Position{Filename: f.Name, Line: i + 1, Col: off - f.lines[i] + 1}
}

// Line returns the line number of p (0 if p is not valid).
func (f *File) Line(p Pos) int { return f.Position(p).Line }

// Error is one positioned error.
type Error struct {
	Pos Position
	Msg string
}

func (e *Error) Error() string { return e.Pos.String() + ": " + e.Msg }

// ErrorList is a list of errors sorted by position.
type ErrorList []*Error

// Add appends an error.
func (l *ErrorList) Add(pos Position, msg string) { *l = append(*l, &Error{pos, msg}) }

// Sort orders the list by file, line, column and message.
func (l ErrorList) Sort() {
	sort.SliceStable(l, func(i, j int) bool {
		a, b := l[i].Pos, l[j].Pos
		if a.Filename != b.Filename {
			return a.Filename < b.Filename
		}
		if a.Line != b.Line {
			return a.Line < b.Line
		}
		if a.Col != b.Col {
			return a.Col < b.Col
		}
		return l[i].Msg < l[j].Msg
	})
}

// RemoveMultiples sorts the list and keeps the first error of each line.
func (l *ErrorList) RemoveMultiples() {
	l.Sort()
	var out ErrorList
	last := Position{Line: -1}
	for _, e := range *l {
		if e.Pos.Filename != last.Filename || e.Pos.Line != last.Line {
			out = append(out, e)
			last = e.Pos
		}
	}
	*l = out
}

// Error prints the first error and how many more there are.
func (l ErrorList) Error() string {
	switch len(l) {
	case 0:
		return "no errors"
	case 1:
		return l[0].Error()
	}
	return fmt.Sprintf("%s (and %d more errors)", l[0], len(l)-1)
}

// Err returns nil for an empty list, else the list itself.
func (l ErrorList) Err() error {
	if len(l) == 0 {
		return nil
	}
	return l
}
