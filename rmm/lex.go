package rmm

import (
	"fmt"
	"strconv"

	"fencer/cs"
)

// tokKind is the kind of a token of an .rmm file.
type tokKind uint8

const (
	tEOF   tokKind = iota
	tIdent         // forbidden, CS, read (keywords are identifiers here)
	tReg           // $r0
	tInt           // 42
	tOp            // := = != < > <= >= && || + - * ( ) [ ] { } ; : , @
)

// token is one token. pos and end are byte offsets into the source. A
// token copied out of a macro body keeps the position of its definition, an
// argument token the position of the call.
type token struct {
	kind     tokKind
	text     string
	pos, end int
	origin   int // 0 for the text of the file, k for the body of the k-th macro
}

func (t token) String() string {
	switch t.kind {
	case tEOF:
		return "end of file"
	case tIdent:
		return "identifier " + t.text
	case tReg:
		return "register " + t.text
	case tInt:
		return "integer " + t.text
	}
	return "'" + t.text + "'"
}

func (t token) is(text string) bool { return (t.kind == tIdent || t.kind == tOp) && t.text == text }

// syntaxError is raised (panicked) by the lexer and the parser and
// recovered at the entry points: the first error ends the reading.
type syntaxError struct {
	off int
	msg string
}

func errAt(off int, format string, args ...any) syntaxError {
	return syntaxError{off, fmt.Sprintf(format, args...)}
}

// lex splits src into tokens. Comments are /* ... */ (Memorax's) and // to
// the end of the line (so that fencer's expectation lines fit in).
func lex(src []byte) []token {
	var toks []token
	i := 0
	for {
		for i < len(src) {
			c := src[i]
			if c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v' {
				i++
				continue
			}
			if c == '/' && i+1 < len(src) && src[i+1] == '*' {
				j := i + 2
				for j+1 < len(src) && !(src[j] == '*' && src[j+1] == '/') {
					j++
				}
				if j+1 >= len(src) {
					panic(errAt(i, "comment not terminated"))
				}
				i = j + 2
				continue
			}
			if c == '/' && i+1 < len(src) && src[i+1] == '/' {
				for i < len(src) && src[i] != '\n' {
					i++
				}
				continue
			}
			break
		}
		if i >= len(src) {
			toks = append(toks, token{kind: tEOF, pos: len(src), end: len(src)})
			return toks
		}
		start := i
		c := src[i]
		switch {
		case isLetter(c):
			for i < len(src) && (isLetter(src[i]) || isDigit(src[i])) {
				i++
			}
			toks = append(toks, token{kind: tIdent, text: string(src[start:i]), pos: start, end: i})
		case c == '$':
			i++
			for i < len(src) && (isLetter(src[i]) || isDigit(src[i])) {
				i++
			}
			if i == start+1 {
				panic(errAt(start, "'$' must be followed by a register name"))
			}
			toks = append(toks, token{kind: tReg, text: string(src[start:i]), pos: start, end: i})
		case isDigit(c):
			for i < len(src) && isDigit(src[i]) {
				i++
			}
			if _, err := strconv.ParseInt(string(src[start:i]), 10, 64); err != nil {
				panic(errAt(start, "integer %s out of range", src[start:i]))
			}
			toks = append(toks, token{kind: tInt, text: string(src[start:i]), pos: start, end: i})
		default:
			op := ""
			if i+1 < len(src) {
				switch two := string(src[i : i+2]); two {
				case ":=", "!=", "<=", ">=", "&&", "||":
					op = two
				}
			}
			if op == "" {
				switch c {
				case '=', '<', '>', '+', '-', '*', '(', ')', '[', ']', '{', '}', ';', ':', ',', '@':
					op = string(c)
				default:
					if c >= ' ' && c < 0x7f {
						panic(errAt(start, "unexpected character %q", c))
					}
					panic(errAt(start, "unexpected byte 0x%02x", c))
				}
			}
			i += len(op)
			toks = append(toks, token{kind: tOp, text: op, pos: start, end: i})
		}
	}
}

func isLetter(c byte) bool { return c == '_' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' }
func isDigit(c byte) bool  { return '0' <= c && c <= '9' }

// maxTokens bounds the token stream after macro expansion.
const maxTokens = 1 << 20

// macro is one "macro NAME(p, ...) ... endmacro" definition.
type macro struct {
	name   string
	params []string
	body   []token
}

// expand replaces macro definitions (which it removes) and macro calls
// "NAME(arg, ...)" (each replaced by the body with the parameters replaced
// by the argument tokens) in toks, as Memorax's preprocessor does: a macro
// is known from its definition on, arguments are split at top-level commas,
// and a macro that calls itself, directly or not, is an error.
func expand(toks []token) []token {
	macros := map[string]*macro{}
	var out []token
	var run func(toks []token, active []string)
	run = func(toks []token, active []string) {
		for i := 0; i < len(toks); i++ {
			t := toks[i]
			if t.kind == tIdent && t.text == "macro" {
				if len(active) > 0 {
					panic(errAt(t.pos, "macro definition inside a macro"))
				}
				i = define(toks, i, macros)
				continue
			}
			m := macros[t.text]
			if t.kind != tIdent || m == nil {
				if t.kind == tIdent && t.text == "endmacro" {
					panic(errAt(t.pos, "endmacro without macro"))
				}
				out = append(out, t)
				if len(out) > maxTokens {
					panic(errAt(t.pos, "program too large: more than %d tokens after macro expansion", maxTokens))
				}
				continue
			}
			for _, a := range active {
				if a == m.name {
					panic(errAt(t.pos, "cyclic call of macro %s", m.name))
				}
			}
			args, next := callArgs(toks, i)
			if len(args) != len(m.params) {
				panic(errAt(t.pos, "macro %s takes %d arguments, not %d", m.name, len(m.params), len(args)))
			}
			var body []token
			for _, b := range m.body {
				k := -1
				if b.kind == tIdent {
					for j, p := range m.params {
						if p == b.text {
							k = j
						}
					}
				}
				if k >= 0 {
					body = append(body, args[k]...)
				} else {
					body = append(body, b)
				}
				if len(body) > maxTokens {
					panic(errAt(t.pos, "program too large: more than %d tokens after macro expansion", maxTokens))
				}
			}
			run(body, append(active, m.name))
			i = next - 1
		}
	}
	run(toks, nil)
	return out
}

// define reads the definition starting at toks[i] ("macro") and returns
// the index of its "endmacro".
func define(toks []token, i int, macros map[string]*macro) int {
	i++
	name := toks[i]
	if name.kind != tIdent {
		panic(errAt(name.pos, "expected a macro name, found %s", name))
	}
	if macros[name.text] != nil {
		panic(errAt(name.pos, "macro %s defined twice", name.text))
	}
	m := &macro{name: name.text}
	i++
	if !toks[i].is("(") {
		panic(errAt(toks[i].pos, "expected '(' after the macro name, found %s", toks[i]))
	}
	i++
	seen := map[string]bool{}
	for !toks[i].is(")") {
		p := toks[i]
		if p.kind != tIdent {
			panic(errAt(p.pos, "expected a parameter name, found %s", p))
		}
		if seen[p.text] {
			panic(errAt(p.pos, "parameter %s listed twice", p.text))
		}
		seen[p.text] = true
		m.params = append(m.params, p.text)
		i++
		if toks[i].is(",") {
			i++
		} else if !toks[i].is(")") {
			panic(errAt(toks[i].pos, "expected ',' or ')', found %s", toks[i]))
		}
	}
	i++
	for ; !(toks[i].kind == tIdent && toks[i].text == "endmacro"); i++ {
		switch {
		case toks[i].kind == tEOF:
			panic(errAt(name.pos, "macro %s has no endmacro", name.text))
		case toks[i].kind == tIdent && toks[i].text == "macro":
			panic(errAt(toks[i].pos, "macro definition inside a macro"))
		}
		t := toks[i]
		t.origin = len(macros) + 1
		m.body = append(m.body, t)
	}
	macros[m.name] = m
	return i
}

// callArgs reads the arguments of the call at toks[i] (the macro's name)
// and returns them and the index after the closing ')'.
func callArgs(toks []token, i int) ([][]token, int) {
	call := toks[i]
	i++
	if i >= len(toks) || !toks[i].is("(") {
		at := call.end
		if i < len(toks) {
			at = toks[i].pos
		}
		panic(errAt(at, "expected '(' after macro %s", call.text))
	}
	i++
	var args [][]token
	var cur []token
	depth := 1
	for ; ; i++ {
		if i >= len(toks) || toks[i].kind == tEOF {
			panic(errAt(call.pos, "arguments of macro %s not closed", call.text))
		}
		t := toks[i]
		switch {
		case t.is("("):
			depth++
		case t.is(")"):
			depth--
			if depth == 0 {
				if len(cur) > 0 || len(args) > 0 {
					if len(cur) == 0 {
						panic(errAt(t.pos, "empty macro argument"))
					}
					args = append(args, cur)
				}
				return args, i + 1
			}
		case t.is(",") && depth == 1:
			if len(cur) == 0 {
				panic(errAt(t.pos, "empty macro argument"))
			}
			args = append(args, cur)
			cur = nil
			continue
		}
		cur = append(cur, t)
	}
}

// position converts a byte offset for an error.
func position(f *cs.File, off int) cs.Position { return f.Position(cs.PosAt(off)) }
