package litmus

import (
	"strconv"
	"strings"
)

// test is a parsed litmus test.
type test struct {
	name    string
	threads int
	init    []initEntry
	header  []token  // P0, P1, ...: the first token of each column header
	rows    [][]cell // rows[r][thread]
	// tableStart, tableEnd delimit the program table (the header line's
	// start to just after the last row's ';').
	tableStart, tableEnd int
	quant                token // exists, forall, or the '~' of ~exists
	neg                  bool  // ~exists
	cond                 prop
}

// initEntry is "x=1" (thread -1) or "0:EAX=1" of the initial state.
type initEntry struct {
	thread int
	name   token
	value  int64
}

// cell is one instruction of the table (or an empty cell: no tokens).
type cell struct {
	toks       []token
	start, end int // byte span of the instruction (empty: 0, 0)
}

// prop is a proposition of the final condition.
type prop interface{}

type (
	propAnd  struct{ x, y prop }
	propOr   struct{ x, y prop }
	propNot  struct{ x prop }
	propBool struct {
		v   bool
		pos int
	}
	// propEq is loc = value; thread -1 for a memory location.
	propEq struct {
		thread int
		name   token
		value  int64
		neq    bool
	}
)

type parser struct {
	toks []token
	i    int
}

func (p *parser) tok() token { return p.toks[p.i] }
func (p *parser) next() token {
	t := p.toks[p.i]
	if p.i < len(p.toks)-1 {
		p.i++
	}
	return t
}
func (p *parser) expect(text, what string) token {
	if !p.tok().is(text) {
		panic(errAt(p.tok().pos, "expected %s, found %s", what, p.tok()))
	}
	return p.next()
}

// maxThreads bounds the columns.
const maxThreads = 64

func parseTest(src []byte) *test {
	// First line: architecture and name.
	i := 0
	for i < len(src) && (src[i] == ' ' || src[i] == '\t' || src[i] == '\n' || src[i] == '\r') {
		i++
	}
	lineEnd := i
	for lineEnd < len(src) && src[lineEnd] != '\n' {
		lineEnd++
	}
	fields := strings.Fields(string(src[i:lineEnd]))
	if len(fields) == 0 || !strings.EqualFold(fields[0], "X86") {
		found := "end of file"
		if len(fields) > 0 {
			found = fields[0]
		}
		panic(errAt(i, "expected X86 (the architecture of a herd litmus test; only x86 tests are read), found %s", found))
	}
	t := &test{}
	if len(fields) > 1 {
		t.name = strings.Join(fields[1:], " ")
	}
	p := &parser{toks: lex(src, lineEnd)}
	// Skip the doc string and "key=value" lines up to the initial state.
	for !p.tok().is("{") {
		if p.tok().kind == tEOF {
			panic(errAt(p.tok().pos, "expected '{' (the initial state), found end of file"))
		}
		p.next()
	}
	p.next()
	for !p.tok().is("}") {
		if p.tok().is(";") {
			p.next()
			continue
		}
		t.init = append(t.init, p.initEntry())
		if !p.tok().is(";") && !p.tok().is("}") {
			panic(errAt(p.tok().pos, "expected ';' or '}', found %s", p.tok()))
		}
	}
	p.next()
	p.table(t, src)
	p.condition(t)
	return t
}

func (p *parser) intValue() int64 {
	neg := false
	if p.tok().is("-") {
		p.next()
		neg = true
	}
	t := p.tok()
	if t.kind != tInt {
		panic(errAt(t.pos, "expected an integer, found %s", t))
	}
	p.next()
	v, _ := strconv.ParseInt(t.text, 10, 64)
	if neg {
		v = -v
	}
	return v
}

// location reads x, [x] or P:REG and returns the thread (-1 for memory).
func (p *parser) location() (int, token) {
	t := p.tok()
	switch {
	case t.kind == tInt:
		p.next()
		n, _ := strconv.Atoi(t.text)
		p.expect(":", "':' (thread:register)")
		r := p.tok()
		if r.kind != tIdent {
			panic(errAt(r.pos, "expected a register, found %s", r))
		}
		p.next()
		return n, r
	case t.is("["):
		p.next()
		x := p.tok()
		if x.kind != tIdent {
			panic(errAt(x.pos, "expected a location, found %s", x))
		}
		p.next()
		p.expect("]", "']'")
		return -1, x
	case t.kind == tIdent:
		p.next()
		return -1, t
	}
	panic(errAt(t.pos, "expected a location (x, [x] or thread:register), found %s", t))
}

func (p *parser) initEntry() initEntry {
	// An optional type: "int x = 0", "uint32_t x = 0".
	if p.tok().kind == tIdent && p.toks[p.i+1].kind == tIdent && (p.i+2 >= len(p.toks) || !p.toks[p.i+1].is(":")) {
		p.next()
	}
	th, name := p.location()
	p.expect("=", "'='")
	if p.tok().kind == tIdent {
		panic(errAt(p.tok().pos, "initial value %s: only integer values are supported (no addresses)", p.tok().text))
	}
	return initEntry{thread: th, name: name, value: p.intValue()}
}

func isCondWord(t token) bool {
	return t.kind == tEOF || t.is("exists") || t.is("forall") || t.is("~") || t.is("locations") || t.is("filter")
}

// table reads "P0 | P1 | ... ;" and the rows.
func (p *parser) table(t *test, src []byte) {
	first := p.tok()
	// The table starts at the start of the header's line when only blanks
	// come before the header on it.
	t.tableStart = first.pos
	for t.tableStart > 0 && (src[t.tableStart-1] == ' ' || src[t.tableStart-1] == '\t') {
		t.tableStart--
	}
	if t.tableStart > 0 && src[t.tableStart-1] != '\n' {
		t.tableStart = first.pos
	}
	for {
		h := p.tok()
		if h.kind != tIdent || h.text != "P"+strconv.Itoa(len(t.header)) {
			panic(errAt(h.pos, "expected P%d (the column of thread %d), found %s", len(t.header), len(t.header), h))
		}
		p.next()
		t.header = append(t.header, h)
		if len(t.header) > maxThreads {
			panic(errAt(h.pos, "too many threads (more than %d)", maxThreads))
		}
		if p.tok().is(";") {
			t.tableEnd = p.next().end
			break
		}
		p.expect("|", "'|' or ';'")
	}
	t.threads = len(t.header)
	for !isCondWord(p.tok()) {
		var row []cell
		for col := 0; ; col++ {
			c := cell{}
			for !p.tok().is("|") && !p.tok().is(";") {
				if isCondWord(p.tok()) {
					panic(errAt(p.tok().pos, "expected ';' at the end of the row, found %s", p.tok()))
				}
				c.toks = append(c.toks, p.next())
			}
			if len(c.toks) > 0 {
				c.start, c.end = c.toks[0].pos, c.toks[len(c.toks)-1].end
			}
			row = append(row, c)
			sep := p.next()
			if sep.is(";") {
				t.tableEnd = sep.end
				break
			}
		}
		if len(row) != t.threads {
			panic(errAt(p.toks[p.i-1].pos, "row has %d columns, the test has %d threads", len(row), t.threads))
		}
		t.rows = append(t.rows, row)
	}
}

// condition reads the final condition (after optional locations and
// filter clauses, which are skipped: fencer answers for the condition).
func (p *parser) condition(t *test) {
	for p.tok().is("locations") || p.tok().is("filter") {
		kw := p.next()
		if kw.text == "filter" {
			panic(errAt(kw.pos, "filter is not supported"))
		}
		p.expect("[", "'['")
		for !p.tok().is("]") {
			if p.tok().kind == tEOF {
				panic(errAt(kw.pos, "locations not closed"))
			}
			p.next()
		}
		p.next()
	}
	t.quant = p.tok()
	switch {
	case p.tok().is("~"):
		p.next()
		p.expect("exists", "exists after '~'")
		t.neg = true
	case p.tok().is("exists"), p.tok().is("forall"):
		p.next()
	default:
		panic(errAt(p.tok().pos, "expected the final condition (exists, ~exists or forall), found %s", p.tok()))
	}
	t.cond = p.disj(0)
	if p.tok().is(";") {
		p.next()
	}
	if p.tok().kind != tEOF {
		panic(errAt(p.tok().pos, "expected the end of the test after the condition, found %s", p.tok()))
	}
}

const maxDepth = 200

func (p *parser) disj(d int) prop {
	x := p.conj(d)
	for p.tok().is(`\/`) {
		p.next()
		x = propOr{x, p.conj(d)}
	}
	return x
}

func (p *parser) conj(d int) prop {
	x := p.neg(d)
	for p.tok().is(`/\`) {
		p.next()
		x = propAnd{x, p.neg(d)}
	}
	return x
}

func (p *parser) neg(d int) prop {
	if d > maxDepth {
		panic(errAt(p.tok().pos, "condition nested too deeply"))
	}
	t := p.tok()
	switch {
	case t.is("~") || t.is("not"):
		p.next()
		return propNot{p.neg(d + 1)}
	case t.is("("):
		p.next()
		x := p.disj(d + 1)
		p.expect(")", "')'")
		return x
	case t.is("true"), t.is("false"):
		p.next()
		return propBool{t.text == "true", t.pos}
	}
	th, name := p.location()
	eq := propEq{thread: th, name: name}
	switch {
	case p.tok().is("="):
		p.next()
	case p.tok().is("!="):
		p.next()
		eq.neq = true
	default:
		panic(errAt(p.tok().pos, "expected '=', found %s", p.tok()))
	}
	if p.tok().kind == tIdent {
		panic(errAt(p.tok().pos, "value %s: only integer values are supported", p.tok().text))
	}
	eq.value = p.intValue()
	return eq
}
