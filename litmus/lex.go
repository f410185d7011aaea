package litmus

import (
	"strconv"

	"fencer/readkit"
)

// The tokens of a .litmus file are readkit's: identifiers (MOV, EAX, x,
// P0, exists), integers, strings ("Fre PodWR Fre PodWR") and operators
// ([ ] ( ) { } | ; , : = $ ~ /\ \/ and any other character).
type token = readkit.Token

const (
	tEOF   = readkit.EOF
	tIdent = readkit.Ident
	tInt   = readkit.Int
	tStr   = readkit.Str
	tOp    = readkit.Op
)

var errAt = readkit.ErrAt

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
			return append(toks, token{Kind: tEOF, Pos: len(src), End: len(src)})
		}
		start := i
		c := src[i]
		switch {
		case isLetter(c):
			for i < len(src) && (isLetter(src[i]) || isDigit(src[i]) || src[i] == '.') {
				i++
			}
			toks = append(toks, token{Kind: tIdent, Text: string(src[start:i]), Pos: start, End: i})
		case c == '0' && i+1 < len(src) && (src[i+1] == 'x' || src[i+1] == 'X'):
			// A hexadecimal literal (0x202), kept as a decimal Int token.
			j := i + 2
			for j < len(src) && (isDigit(src[j]) || 'a' <= src[j]|32 && src[j]|32 <= 'f') {
				j++
			}
			v, err := strconv.ParseInt(string(src[i+2:j]), 16, 64)
			if j == i+2 {
				panic(errAt(i, "expected hexadecimal digits after 0x"))
			}
			if err != nil {
				panic(errAt(i, "integer %s out of range", src[i:j]))
			}
			toks = append(toks, token{Kind: tInt, Text: strconv.FormatInt(v, 10), Pos: start, End: j})
			i = j
		case isDigit(c):
			t := readkit.LexInt(src, start)
			toks = append(toks, t)
			i = t.End
		case c == '"':
			j := i + 1
			for j < len(src) && src[j] != '"' {
				j++
			}
			if j >= len(src) {
				panic(errAt(i, "string not terminated"))
			}
			i = j + 1
			toks = append(toks, token{Kind: tStr, Text: string(src[start:i]), Pos: start, End: i})
		default:
			op := string(c)
			if i+1 < len(src) {
				switch two := string(src[i : i+2]); two {
				case `/\`, `\/`, "!=":
					op = two
				}
			}
			i += len(op)
			toks = append(toks, token{Kind: tOp, Text: op, Pos: start, End: i})
		}
	}
}

var isLetter, isDigit = readkit.IsLetter, readkit.IsDigit
