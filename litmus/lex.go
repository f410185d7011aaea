package litmus

import (
	"fmt"
	"strconv"
)

// tokKind is the kind of a token of a .litmus file.
type tokKind uint8

const (
	tEOF   tokKind = iota
	tIdent         // MOV, EAX, x, P0, exists
	tInt           // 42
	tStr           // "Fre PodWR Fre PodWR"
	tOp            // [ ] ( ) { } | ; , : = $ ~ /\ \/ and any other character
)

// token is one token; pos and end are byte offsets into the source.
type token struct {
	kind     tokKind
	text     string
	pos, end int
}

func (t token) String() string {
	switch t.kind {
	case tEOF:
		return "end of file"
	case tIdent:
		return "identifier " + t.text
	case tInt:
		return "integer " + t.text
	case tStr:
		return "string"
	}
	return "'" + t.text + "'"
}

func (t token) is(text string) bool { return (t.kind == tIdent || t.kind == tOp) && t.text == text }

// syntaxError is panicked by the lexer and the parser and recovered at the
// entry points: the first error ends the reading.
type syntaxError struct {
	off int
	msg string
}

func errAt(off int, format string, args ...any) syntaxError {
	return syntaxError{off, fmt.Sprintf(format, args...)}
}

// lex splits src[from:] into tokens. Comments are (* ... *).
func lex(src []byte, from int) []token {
	var toks []token
	i := from
	for {
		for i < len(src) {
			c := src[i]
			if c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v' {
				i++
				continue
			}
			if c == '(' && i+1 < len(src) && src[i+1] == '*' {
				depth, j := 1, i+2
				for j < len(src) && depth > 0 {
					switch {
					case src[j] == '(' && j+1 < len(src) && src[j+1] == '*':
						depth++
						j += 2
					case src[j] == '*' && j+1 < len(src) && src[j+1] == ')':
						depth--
						j += 2
					default:
						j++
					}
				}
				if depth > 0 {
					panic(errAt(i, "comment not terminated"))
				}
				i = j
				continue
			}
			break
		}
		if i >= len(src) {
			return append(toks, token{kind: tEOF, pos: len(src), end: len(src)})
		}
		start := i
		c := src[i]
		switch {
		case isLetter(c):
			for i < len(src) && (isLetter(src[i]) || isDigit(src[i]) || src[i] == '.') {
				i++
			}
			toks = append(toks, token{tIdent, string(src[start:i]), start, i})
		case isDigit(c):
			for i < len(src) && isDigit(src[i]) {
				i++
			}
			if _, err := strconv.ParseInt(string(src[start:i]), 10, 64); err != nil {
				panic(errAt(start, "integer %s out of range", src[start:i]))
			}
			toks = append(toks, token{tInt, string(src[start:i]), start, i})
		case c == '"':
			j := i + 1
			for j < len(src) && src[j] != '"' {
				j++
			}
			if j >= len(src) {
				panic(errAt(i, "string not terminated"))
			}
			i = j + 1
			toks = append(toks, token{tStr, string(src[start:i]), start, i})
		default:
			op := string(c)
			if i+1 < len(src) {
				switch two := string(src[i : i+2]); two {
				case `/\`, `\/`, "!=":
					op = two
				}
			}
			i += len(op)
			toks = append(toks, token{tOp, op, start, i})
		}
	}
}

func isLetter(c byte) bool { return c == '_' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' }
func isDigit(c byte) bool  { return '0' <= c && c <= '9' }
