package readkit

import (
	"fmt"

	"fencer/cs"
)

// SyntaxError is panicked by a reader's lexer and parser and recovered by
// Read: the first error ends the reading.
type SyntaxError struct {
	Off int
	Msg string
}

// ErrAt returns the error at byte offset off.
func ErrAt(off int, format string, args ...any) SyntaxError {
	return SyntaxError{off, fmt.Sprintf(format, args...)}
}

// Position converts a byte offset of file for an error.
func Position(file *cs.File, off int) cs.Position { return file.Position(cs.PosAt(off)) }

// Read runs read over file (refusing inputs over cs.MaxInputSize) and
// turns a SyntaxError it panics with into a one-entry cs.ErrorList; other
// panics go on.
func Read[T any](file *cs.File, read func() T) (v T, err error) {
	if len(file.Src) > cs.MaxInputSize {
		return v, cs.ErrorList{{Pos: Position(file, 0), Msg: "input too large"}}
	}
	defer func() {
		if r := recover(); r != nil {
			se, ok := r.(SyntaxError)
			if !ok {
				panic(r)
			}
			var zero T
			v, err = zero, cs.ErrorList{{Pos: Position(file, se.Off), Msg: se.Msg}}
		}
	}()
	return read(), nil
}
