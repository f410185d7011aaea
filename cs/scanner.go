package cs

import (
	"fmt"
	"unicode/utf8"
)

// Token is a lexical token of the .cs language.
type Token int

// The tokens.
const (
	ILLEGAL Token = iota
	EOF
	COMMENT // /* ... */ or // ... (only with KeepComments)

	literal_beg
	IDENT // flag
	INT   // 42
	literal_end

	operator_beg
	ADD // +
	SUB // -
	MUL // *
	QUO // /
	REM // %

	EQL // ==
	NEQ // !=
	LSS // <
	LEQ // <=
	GTR // >
	GEQ // >=

	NOT  // !
	LAND // &&
	LOR  // ||

	ASSIGN    // =
	LPAREN    // (
	RPAREN    // )
	LBRACK    // [
	RBRACK    // ]
	LBRACE    // {
	RBRACE    // }
	COMMA     // ,
	SEMICOLON // ;
	COLON     // :
	AT        // @
	RANGE     // ..
	operator_end

	keyword_beg
	SHARED
	LOCAL
	CONST
	PROCESS
	IN
	IF
	ELSE
	WHILE
	FOR
	GOTO
	FENCE
	ASSUME
	ASSERT
	ATOMIC
	TRUE
	FALSE
	FORBIDDEN
	MUTEX
	SKIP
	keyword_end
)

var tokens = [...]string{
	ILLEGAL: "ILLEGAL",
	EOF:     "EOF",
	COMMENT: "COMMENT",
	IDENT:   "IDENT",
	INT:     "INT",

	ADD: "+",
	SUB: "-",
	MUL: "*",
	QUO: "/",
	REM: "%",

	EQL: "==",
	NEQ: "!=",
	LSS: "<",
	LEQ: "<=",
	GTR: ">",
	GEQ: ">=",

	NOT:  "!",
	LAND: "&&",
	LOR:  "||",

	ASSIGN:    "=",
	LPAREN:    "(",
	RPAREN:    ")",
	LBRACK:    "[",
	RBRACK:    "]",
	LBRACE:    "{",
	RBRACE:    "}",
	COMMA:     ",",
	SEMICOLON: ";",
	COLON:     ":",
	AT:        "@",
	RANGE:     "..",

	SHARED:    "shared",
	LOCAL:     "local",
	CONST:     "const",
	PROCESS:   "process",
	IN:        "in",
	IF:        "if",
	ELSE:      "else",
	WHILE:     "while",
	FOR:       "for",
	GOTO:      "goto",
	FENCE:     "fence",
	ASSUME:    "assume",
	ASSERT:    "assert",
	ATOMIC:    "atomic",
	TRUE:      "true",
	FALSE:     "false",
	FORBIDDEN: "forbidden",
	MUTEX:     "mutex",
	SKIP:      "skip",
}

func (t Token) String() string {
	if 0 <= t && int(t) < len(tokens) && tokens[t] != "" {
		return tokens[t]
	}
	return fmt.Sprintf("token(%d)", int(t))
}

// IsLiteral reports whether t is an identifier or an integer literal.
func (t Token) IsLiteral() bool { return literal_beg < t && t < literal_end }

// IsOperator reports whether t is an operator or a delimiter.
func (t Token) IsOperator() bool { return operator_beg < t && t < operator_end }

// IsKeyword reports whether t is a keyword.
func (t Token) IsKeyword() bool { return keyword_beg < t && t < keyword_end }

// Operator precedences, as in C. LowestPrec is that of non-operators.
const (
	LowestPrec = 0
	UnaryPrec  = 7
)

// Precedence returns the precedence of t as a binary operator:
// || (1) < && (2) < == != (3) < < <= > >= (4) < + - (5) < * / % (6).
func (t Token) Precedence() int {
	switch t {
	case LOR:
		return 1
	case LAND:
		return 2
	case EQL, NEQ:
		return 3
	case LSS, LEQ, GTR, GEQ:
		return 4
	case ADD, SUB:
		return 5
	case MUL, QUO, REM:
		return 6
	}
	return LowestPrec
}

var keywords map[string]Token

func init() {
	keywords = make(map[string]Token, keyword_end-keyword_beg)
	for t := keyword_beg + 1; t < keyword_end; t++ {
		keywords[tokens[t]] = t
	}
}

// Lookup returns the keyword token of ident, or IDENT.
func Lookup(ident string) Token {
	if t, ok := keywords[ident]; ok {
		return t
	}
	return IDENT
}

// An ErrorHandler is called by the Scanner for every lexical error.
type ErrorHandler func(pos Pos, msg string)

// Scanner turns the bytes of a File into tokens, skipping white space and
// comments. It never stops at an error: it reports it through the handler
// and carries on with the next byte.
type Scanner struct {
	src  []byte
	err  ErrorHandler
	off  int // the next byte to read
	keep bool

	ErrorCount int
}

// Init prepares s to scan src; err may be nil.
func (s *Scanner) Init(src []byte, err ErrorHandler) {
	*s = Scanner{src: src, err: err}
}

// KeepComments makes Scan return each comment as a COMMENT token whose text
// is the whole comment (an unterminated one runs to the end of the input),
// for tools that edit the source around them (the fence patcher).
func (s *Scanner) KeepComments() { s.keep = true }

func (s *Scanner) error(off int, msg string) {
	if s.err != nil {
		s.err(PosAt(off), msg)
	}
	s.ErrorCount++
}

func isLetter(c byte) bool { return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || c == '_' }
func isDigit(c byte) bool  { return '0' <= c && c <= '9' }

// skip skips white space and, unless they are kept, comments.
func (s *Scanner) skip() {
	for s.off < len(s.src) {
		c := s.src[s.off]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v':
			s.off++
		case s.atComment():
			if s.keep {
				return
			}
			s.skipComment()
		default:
			return
		}
	}
}

// atComment reports whether a comment starts at the next byte.
func (s *Scanner) atComment() bool {
	return s.off+1 < len(s.src) && s.src[s.off] == '/' && (s.src[s.off+1] == '/' || s.src[s.off+1] == '*')
}

// skipComment skips the comment that starts at the next byte.
func (s *Scanner) skipComment() {
	start := s.off
	if s.src[s.off+1] == '/' {
		for s.off < len(s.src) && s.src[s.off] != '\n' {
			s.off++
		}
		return
	}
	s.off += 2
	for {
		if s.off+1 >= len(s.src) {
			s.off = len(s.src)
			s.error(start, "comment not terminated")
			return
		}
		if s.src[s.off] == '*' && s.src[s.off+1] == '/' {
			s.off += 2
			return
		}
		s.off++
	}
}

// Scan returns the next token, its position and, for IDENT, INT and ILLEGAL,
// its text. At the end of the input it returns EOF.
func (s *Scanner) Scan() (pos Pos, tok Token, lit string) {
	s.skip()
	start := s.off
	pos = PosAt(start)
	if s.off >= len(s.src) {
		return pos, EOF, ""
	}
	c := s.src[s.off]
	if s.keep && s.atComment() {
		s.skipComment()
		return pos, COMMENT, string(s.src[start:s.off])
	}
	switch {
	case isLetter(c):
		for s.off < len(s.src) && (isLetter(s.src[s.off]) || isDigit(s.src[s.off])) {
			s.off++
		}
		lit = string(s.src[start:s.off])
		return pos, Lookup(lit), lit
	case isDigit(c):
		bad := false
		for s.off < len(s.src) && (isLetter(s.src[s.off]) || isDigit(s.src[s.off])) {
			bad = bad || !isDigit(s.src[s.off])
			s.off++
		}
		lit = string(s.src[start:s.off])
		if bad {
			s.error(start, fmt.Sprintf("invalid integer literal %q", lit))
		}
		return pos, INT, lit
	}
	s.off++
	two := func(next byte, yes, no Token) Token {
		if s.off < len(s.src) && s.src[s.off] == next {
			s.off++
			return yes
		}
		return no
	}
	switch c {
	case '+':
		tok = ADD
	case '-':
		tok = SUB
	case '*':
		tok = MUL
	case '/':
		tok = QUO
	case '%':
		tok = REM
	case '=':
		tok = two('=', EQL, ASSIGN)
	case '!':
		tok = two('=', NEQ, NOT)
	case '<':
		tok = two('=', LEQ, LSS)
	case '>':
		tok = two('=', GEQ, GTR)
	case '&':
		if tok = two('&', LAND, ILLEGAL); tok == ILLEGAL {
			s.error(start, "unexpected '&' (did you mean '&&'?)")
			lit = "&"
		}
	case '|':
		if tok = two('|', LOR, ILLEGAL); tok == ILLEGAL {
			s.error(start, "unexpected '|' (did you mean '||'?)")
			lit = "|"
		}
	case '.':
		if tok = two('.', RANGE, ILLEGAL); tok == ILLEGAL {
			s.error(start, "unexpected '.' (a range is written A..B)")
			lit = "."
		}
	case '(':
		tok = LPAREN
	case ')':
		tok = RPAREN
	case '[':
		tok = LBRACK
	case ']':
		tok = RBRACK
	case '{':
		tok = LBRACE
	case '}':
		tok = RBRACE
	case ',':
		tok = COMMA
	case ';':
		tok = SEMICOLON
	case ':':
		tok = COLON
	case '@':
		tok = AT
	default:
		tok = ILLEGAL
		r, size := utf8.DecodeRune(s.src[start:])
		if r == utf8.RuneError && size <= 1 {
			s.error(start, fmt.Sprintf("illegal byte 0x%02x", c))
		} else {
			s.off = start + size
			s.error(start, fmt.Sprintf("illegal character %#U", r))
		}
		lit = string(s.src[start:s.off])
	}
	return pos, tok, lit
}
