package readkit

import (
	"strconv"
)

// Kind is the kind of a token.
type Kind uint8

const (
	EOF   Kind = iota
	Ident      // a name or keyword: x, MOV, forbidden
	Reg        // an .rmm register: $r0
	Int        // 42 (a minus sign is a separate Op)
	Str        // a quoted string: "Fre PodWR"
	Op         // punctuation and operators
)

// Token is one token. Pos and End are byte offsets into the source; Origin
// says where a token copied out of a macro came from (0: the file itself).
type Token struct {
	Kind     Kind
	Text     string
	Pos, End int
	Origin   int
}

func (t Token) String() string {
	switch t.Kind {
	case EOF:
		return "end of file"
	case Ident:
		return "identifier " + t.Text
	case Reg:
		return "register " + t.Text
	case Int:
		return "integer " + t.Text
	case Str:
		return "string"
	}
	return "'" + t.Text + "'"
}

// Is reports whether t is the name or operator text.
func (t Token) Is(text string) bool { return (t.Kind == Ident || t.Kind == Op) && t.Text == text }

// IsLetter and IsDigit are the character classes both formats use.
func IsLetter(c byte) bool { return c == '_' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' }
func IsDigit(c byte) bool  { return '0' <= c && c <= '9' }

// LexInt reads the digits of src starting at start (a digit) as an Int
// token, refusing at its position a literal that does not fit in an int64.
func LexInt(src []byte, start int) Token {
	i := start
	for i < len(src) && IsDigit(src[i]) {
		i++
	}
	if _, err := strconv.ParseInt(string(src[start:i]), 10, 64); err != nil {
		panic(ErrAt(start, "integer %s out of range", src[start:i]))
	}
	return Token{Kind: Int, Text: string(src[start:i]), Pos: start, End: i}
}
