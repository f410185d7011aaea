package rmm

import "fencer/readkit"

// The tokens of an .rmm file are readkit's: identifiers (forbidden, CS,
// read: keywords are identifiers here), registers ($r0), integers and
// operators (:= = != < > <= >= && || + - * ( ) [ ] { } ; : , @). A token
// copied out of a macro body keeps the position of its definition and has
// Origin k for the body of the k-th macro; an argument token keeps the
// position of the call.
type token = readkit.Token

const (
	tEOF   = readkit.EOF
	tIdent = readkit.Ident
	tReg   = readkit.Reg
	tInt   = readkit.Int
	tOp    = readkit.Op
)

var errAt = readkit.ErrAt

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
			toks = append(toks, token{Kind: tEOF, Pos: len(src), End: len(src)})
			return toks
		}
		start := i
		c := src[i]
		switch {
		case isLetter(c):
			for i < len(src) && (isLetter(src[i]) || isDigit(src[i])) {
				i++
			}
			toks = append(toks, token{Kind: tIdent, Text: string(src[start:i]), Pos: start, End: i})
		case c == '$':
			i++
			for i < len(src) && (isLetter(src[i]) || isDigit(src[i])) {
				i++
			}
			if i == start+1 {
				panic(errAt(start, "'$' must be followed by a register name"))
			}
			toks = append(toks, token{Kind: tReg, Text: string(src[start:i]), Pos: start, End: i})
		case isDigit(c):
			t := readkit.LexInt(src, start)
			toks = append(toks, t)
			i = t.End
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
			toks = append(toks, token{Kind: tOp, Text: op, Pos: start, End: i})
		}
	}
}

var isLetter, isDigit = readkit.IsLetter, readkit.IsDigit

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
			if t.Kind == tIdent && t.Text == "macro" {
				if len(active) > 0 {
					panic(errAt(t.Pos, "macro definition inside a macro"))
				}
				i = define(toks, i, macros)
				continue
			}
			m := macros[t.Text]
			if t.Kind != tIdent || m == nil {
				if t.Kind == tIdent && t.Text == "endmacro" {
					panic(errAt(t.Pos, "endmacro without macro"))
				}
				out = append(out, t)
				if len(out) > maxTokens {
					panic(errAt(t.Pos, "program too large: more than %d tokens after macro expansion", maxTokens))
				}
				continue
			}
			for _, a := range active {
				if a == m.name {
					panic(errAt(t.Pos, "cyclic call of macro %s", m.name))
				}
			}
			args, next := callArgs(toks, i)
			if len(args) != len(m.params) {
				panic(errAt(t.Pos, "macro %s takes %d arguments, not %d", m.name, len(m.params), len(args)))
			}
			var body []token
			for _, b := range m.body {
				k := -1
				if b.Kind == tIdent {
					for j, p := range m.params {
						if p == b.Text {
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
					panic(errAt(t.Pos, "program too large: more than %d tokens after macro expansion", maxTokens))
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
	if name.Kind != tIdent {
		panic(errAt(name.Pos, "expected a macro name, found %s", name))
	}
	if macros[name.Text] != nil {
		panic(errAt(name.Pos, "macro %s defined twice", name.Text))
	}
	m := &macro{name: name.Text}
	i++
	if !toks[i].Is("(") {
		panic(errAt(toks[i].Pos, "expected '(' after the macro name, found %s", toks[i]))
	}
	i++
	seen := map[string]bool{}
	for !toks[i].Is(")") {
		p := toks[i]
		if p.Kind != tIdent {
			panic(errAt(p.Pos, "expected a parameter name, found %s", p))
		}
		if seen[p.Text] {
			panic(errAt(p.Pos, "parameter %s listed twice", p.Text))
		}
		seen[p.Text] = true
		m.params = append(m.params, p.Text)
		i++
		if toks[i].Is(",") {
			i++
		} else if !toks[i].Is(")") {
			panic(errAt(toks[i].Pos, "expected ',' or ')', found %s", toks[i]))
		}
	}
	i++
	for ; !(toks[i].Kind == tIdent && toks[i].Text == "endmacro"); i++ {
		switch {
		case toks[i].Kind == tEOF:
			panic(errAt(name.Pos, "macro %s has no endmacro", name.Text))
		case toks[i].Kind == tIdent && toks[i].Text == "macro":
			panic(errAt(toks[i].Pos, "macro definition inside a macro"))
		}
		t := toks[i]
		t.Origin = len(macros) + 1
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
	if i >= len(toks) || !toks[i].Is("(") {
		at := call.End
		if i < len(toks) {
			at = toks[i].Pos
		}
		panic(errAt(at, "expected '(' after macro %s", call.Text))
	}
	i++
	var args [][]token
	var cur []token
	depth := 1
	for ; ; i++ {
		if i >= len(toks) || toks[i].Kind == tEOF {
			panic(errAt(call.Pos, "arguments of macro %s not closed", call.Text))
		}
		t := toks[i]
		switch {
		case t.Is("("):
			depth++
		case t.Is(")"):
			depth--
			if depth == 0 {
				if len(cur) > 0 || len(args) > 0 {
					if len(cur) == 0 {
						panic(errAt(t.Pos, "empty macro argument"))
					}
					args = append(args, cur)
				}
				return args, i + 1
			}
		case t.Is(",") && depth == 1:
			if len(cur) == 0 {
				panic(errAt(t.Pos, "empty macro argument"))
			}
			args = append(args, cur)
			cur = nil
			continue
		}
		cur = append(cur, t)
	}
}

// position converts a byte offset for an error.
var position = readkit.Position
