package readkit

import (
	"strings"
	"testing"

	"fencer/cs"
)

func TestLexIntRange(t *testing.T) {
	tok := LexInt([]byte("x 9223372036854775807;"), 2)
	if tok.Kind != Int || tok.Text != "9223372036854775807" || tok.Pos != 2 || tok.End != 21 {
		t.Errorf("LexInt: %+v", tok)
	}
	defer func() {
		se, ok := recover().(SyntaxError)
		if !ok || se.Off != 2 || !strings.Contains(se.Msg, "out of range") {
			t.Errorf("LexInt of 2^63: recovered %#v", se)
		}
	}()
	LexInt([]byte("x 9223372036854775808"), 2)
	t.Error("LexInt accepted 2^63")
}

func TestCursor(t *testing.T) {
	c := &Cursor{Toks: []Token{
		{Kind: Op, Text: "-", Pos: 0, End: 1},
		{Kind: Int, Text: "42", Pos: 1, End: 3},
		{Kind: Ident, Text: "x", Pos: 4, End: 5},
		{Kind: EOF, Pos: 5, End: 5},
	}}
	if c.Peek().Text != "42" {
		t.Errorf("Peek: %v", c.Peek())
	}
	if v := c.IntLit(); v != -42 {
		t.Errorf("IntLit: %d", v)
	}
	if tok := c.ExpectIdent("a name"); tok.Text != "x" {
		t.Errorf("ExpectIdent: %v", tok)
	}
	// The cursor stays on EOF.
	c.Next()
	if c.Tok().Kind != EOF || c.Peek().Kind != EOF {
		t.Errorf("past the end: %v %v", c.Tok(), c.Peek())
	}
}

func TestReadErrors(t *testing.T) {
	file := cs.NewFile("m.rmm", []byte("line one\nline two\n"))
	_, err := Read(file, func() int { panic(ErrAt(14, "expected %s, found %s", "';'", Token{Kind: Ident, Text: "two"})) })
	if err == nil || err.Error() != "m.rmm:2:6: expected ';', found identifier two" {
		t.Errorf("Read: %v", err)
	}
	v, err := Read(file, func() int { return 7 })
	if v != 7 || err != nil {
		t.Errorf("Read ok: %d %v", v, err)
	}
	big := cs.NewFile("big.rmm", make([]byte, cs.MaxInputSize+1))
	if _, err := Read(big, func() int { t.Error("read a file over the size limit"); return 0 }); err == nil || !strings.Contains(err.Error(), "input too large") {
		t.Errorf("Read of a large file: %v", err)
	}
	// A panic that is not a syntax error is not swallowed.
	defer func() {
		if r := recover(); r != "bug" {
			t.Errorf("recovered %v", r)
		}
	}()
	Read(file, func() int { panic("bug") })
}
