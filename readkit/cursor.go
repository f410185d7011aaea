package readkit

import "strconv"

// Cursor walks a token list that ends with an EOF token (it stays there).
type Cursor struct {
	Toks []Token
	I    int
}

// Tok returns the current token.
func (c *Cursor) Tok() Token { return c.Toks[c.I] }

// Peek returns the token after the current one.
func (c *Cursor) Peek() Token {
	if c.I+1 < len(c.Toks) {
		return c.Toks[c.I+1]
	}
	return c.Toks[len(c.Toks)-1]
}

// Next returns the current token and moves past it.
func (c *Cursor) Next() Token {
	t := c.Toks[c.I]
	if c.I < len(c.Toks)-1 {
		c.I++
	}
	return t
}

// Expect moves past the name or operator text, or fails naming what.
func (c *Cursor) Expect(text, what string) Token {
	if t := c.Tok(); !t.Is(text) {
		panic(ErrAt(t.Pos, "expected %s, found %s", what, t))
	}
	return c.Next()
}

// ExpectIdent moves past a name, or fails naming what.
func (c *Cursor) ExpectIdent(what string) Token {
	if t := c.Tok(); t.Kind != Ident {
		panic(ErrAt(t.Pos, "expected %s, found %s", what, t))
	}
	return c.Next()
}

// IntLit reads an integer literal, possibly negative ("-" then an Int).
func (c *Cursor) IntLit() int64 {
	neg := c.Tok().Is("-")
	if neg {
		c.Next()
	}
	t := c.Tok()
	if t.Kind != Int {
		panic(ErrAt(t.Pos, "expected an integer, found %s", t))
	}
	c.Next()
	// The lexer (LexInt) refused literals out of range at their position.
	v, _ := strconv.ParseInt(t.Text, 10, 64)
	if neg {
		v = -v
	}
	return v
}
