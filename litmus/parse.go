package litmus

import (
	"strconv"
	"strings"

	"fencer/readkit"
)

// test is a parsed litmus test.
type test struct {
	arch    dialect
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
	filter               prop // nil: no filter clause
	// The weak dialects (AArch64, RISCV), filled by the builder: the
	// instruction of each cell, w[thread][row] (weak.go), and the
	// exclusive pairs of each thread, the rows of a load-exclusive and of
	// the store-exclusive that makes one atomic step with it.
	w     [][]winsn
	pairs [][][2]int
}

// initEntry is "x=1" (thread -1) or "0:EAX=1" of the initial state, with
// an optional type ("int x=1", "uint64_t y", "int64_t 0:rcx"); "0:EBX=x"
// makes a register hold the address of x (addr), and "int64_t t[2]={1,-1}"
// declares an array of n elements (values).
type initEntry struct {
	thread int
	name   token
	value  int64
	addr   *token  // the location whose address the register holds
	typ    string  // the declared type, "" when none
	n      int     // > 0 for an array of n elements
	values []int64 // the array's initial values (the rest are 0)
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

// parser reads a test's tokens (readkit's cursor) into a test.
type parser struct{ readkit.Cursor }

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
	t := &test{}
	switch {
	case len(fields) > 0 && strings.EqualFold(fields[0], "X86"):
		t.arch = intel
	case len(fields) > 0 && strings.EqualFold(fields[0], "X86_64"):
		t.arch = att
	case len(fields) > 0 && strings.EqualFold(fields[0], "AArch64"):
		t.arch = arm64
	case len(fields) > 0 && strings.EqualFold(fields[0], "RISCV"):
		t.arch = riscv
	default:
		found := "end of file"
		if len(fields) > 0 {
			found = fields[0]
		}
		panic(errAt(i, "expected X86, X86_64, AArch64 or RISCV (the architecture of a herd litmus test; no other is read), found %s", found))
	}
	if len(fields) > 1 {
		t.name = strings.Join(fields[1:], " ")
	}
	p := &parser{readkit.Cursor{Toks: lex(src, lineEnd)}}
	// Skip the doc string and "key=value" lines up to the initial state.
	for !p.Tok().Is("{") {
		if p.Tok().Kind == tEOF {
			panic(errAt(p.Tok().Pos, "expected '{' (the initial state), found end of file"))
		}
		p.Next()
	}
	p.Next()
	for !p.Tok().Is("}") {
		if p.Tok().Is(";") {
			p.Next()
			continue
		}
		t.init = append(t.init, p.initEntry())
		if !p.Tok().Is(";") && !p.Tok().Is("}") {
			panic(errAt(p.Tok().Pos, "expected ';' or '}', found %s", p.Tok()))
		}
	}
	p.Next()
	p.table(t, src)
	p.condition(t)
	return t
}

// location reads x, [x] or P:REG and returns the thread (-1 for memory).
func (p *parser) location() (int, token) {
	t := p.Tok()
	switch {
	case t.Kind == tInt:
		p.Next()
		n, _ := strconv.Atoi(t.Text)
		p.Expect(":", "':' (thread:register)")
		r := p.Tok()
		if r.Kind != tIdent {
			panic(errAt(r.Pos, "expected a register, found %s", r))
		}
		p.Next()
		return n, r
	case t.Is("["):
		p.Next()
		x := p.Tok()
		if x.Kind != tIdent {
			panic(errAt(x.Pos, "expected a location, found %s", x))
		}
		p.Next()
		p.Expect("]", "']'")
		return -1, x
	case t.Kind == tIdent:
		p.Next()
		return -1, t
	}
	panic(errAt(t.Pos, "expected a location (x, [x] or thread:register), found %s", t))
}

func (p *parser) initEntry() initEntry {
	var e initEntry
	// An optional type: "int x = 0", "uint64_t y", "int64_t 0:rcx".
	if p.Tok().Kind == tIdent && (p.Peek().Kind == tIdent || p.Peek().Kind == tInt || p.Peek().Is("[")) {
		e.typ = p.Next().Text
	}
	e.thread, e.name = p.location()
	if e.thread < 0 && p.Tok().Is("[") {
		// An array: t[n], its values in braces.
		p.Next()
		n := p.Tok()
		v := p.IntLit()
		if v < 1 || v > maxArray {
			panic(errAt(n.Pos, "array size %d out of range (1 to %d)", v, maxArray))
		}
		e.n = int(v)
		p.Expect("]", "']'")
		if e.typ == "" {
			panic(errAt(e.name.Pos, "array %s needs a type (int64_t %s[%d])", e.name.Text, e.name.Text, e.n))
		}
		if p.Tok().Is("=") {
			p.Next()
			p.Expect("{", "'{' (the values of the array)")
			for !p.Tok().Is("}") {
				if len(e.values) > 0 {
					p.Expect(",", "',' or '}'")
				}
				at := p.Tok().Pos
				e.values = append(e.values, p.IntLit())
				if len(e.values) > e.n {
					panic(errAt(at, "more values than the %d elements of %s", e.n, e.name.Text))
				}
			}
			p.Next()
		}
		return e
	}
	if !p.Tok().Is("=") {
		if e.typ == "" {
			panic(errAt(p.Tok().Pos, "expected '=', found %s", p.Tok()))
		}
		return e // a typed declaration without a value: 0
	}
	p.Next()
	if p.Tok().Kind == tIdent {
		if e.thread < 0 {
			panic(errAt(p.Tok().Pos, "initial value %s: a memory location holds integers only (no addresses)", p.Tok().Text))
		}
		a := p.Next()
		e.addr = &a
		return e
	}
	e.value = p.IntLit()
	return e
}

// maxArray bounds the elements of an array of the initial state.
const maxArray = 64

func isCondWord(t token) bool {
	return t.Kind == tEOF || t.Is("exists") || t.Is("forall") || t.Is("~") || t.Is("locations") || t.Is("filter")
}

// table reads "P0 | P1 | ... ;" and the rows.
func (p *parser) table(t *test, src []byte) {
	first := p.Tok()
	// The table starts at the start of the header's line when only blanks
	// come before the header on it.
	t.tableStart = first.Pos
	for t.tableStart > 0 && (src[t.tableStart-1] == ' ' || src[t.tableStart-1] == '\t') {
		t.tableStart--
	}
	if t.tableStart > 0 && src[t.tableStart-1] != '\n' {
		t.tableStart = first.Pos
	}
	for {
		h := p.Tok()
		if h.Kind != tIdent || h.Text != "P"+strconv.Itoa(len(t.header)) {
			panic(errAt(h.Pos, "expected P%d (the column of thread %d), found %s", len(t.header), len(t.header), h))
		}
		p.Next()
		t.header = append(t.header, h)
		if len(t.header) > maxThreads {
			panic(errAt(h.Pos, "too many threads (more than %d)", maxThreads))
		}
		if p.Tok().Is(";") {
			t.tableEnd = p.Next().End
			break
		}
		p.Expect("|", "'|' or ';'")
	}
	t.threads = len(t.header)
	for !isCondWord(p.Tok()) {
		var row []cell
		for col := 0; ; col++ {
			c := cell{}
			for !p.Tok().Is("|") && !p.Tok().Is(";") {
				if isCondWord(p.Tok()) {
					panic(errAt(p.Tok().Pos, "expected ';' at the end of the row, found %s", p.Tok()))
				}
				c.toks = append(c.toks, p.Next())
			}
			if len(c.toks) > 0 {
				c.start, c.end = c.toks[0].Pos, c.toks[len(c.toks)-1].End
			}
			row = append(row, c)
			sep := p.Next()
			if sep.Is(";") {
				t.tableEnd = sep.End
				break
			}
		}
		if len(row) != t.threads {
			panic(errAt(p.Toks[p.I-1].Pos, "row has %d columns, the test has %d threads", len(row), t.threads))
		}
		t.rows = append(t.rows, row)
	}
}

// condition reads the final condition (after optional locations and
// filter clauses, which are skipped: fencer answers for the condition).
func (p *parser) condition(t *test) {
	for p.Tok().Is("locations") || p.Tok().Is("filter") {
		kw := p.Next()
		if kw.Text == "filter" {
			// herd keeps only the executions whose final state satisfies
			// the filter: it is a conjunct of the outcome.
			if t.filter != nil {
				panic(errAt(kw.Pos, "a second filter clause"))
			}
			t.filter = p.disj(0)
			continue
		}
		p.Expect("[", "'['")
		for !p.Tok().Is("]") {
			if p.Tok().Kind == tEOF {
				panic(errAt(kw.Pos, "locations not closed"))
			}
			p.Next()
		}
		p.Next()
	}
	t.quant = p.Tok()
	switch {
	case p.Tok().Is("~"):
		p.Next()
		p.Expect("exists", "exists after '~'")
		t.neg = true
	case p.Tok().Is("exists"), p.Tok().Is("forall"):
		p.Next()
	default:
		panic(errAt(p.Tok().Pos, "expected the final condition (exists, ~exists or forall), found %s", p.Tok()))
	}
	t.cond = p.disj(0)
	if p.Tok().Is(";") {
		p.Next()
	}
	if p.Tok().Kind != tEOF {
		panic(errAt(p.Tok().Pos, "expected the end of the test after the condition, found %s", p.Tok()))
	}
}

const maxDepth = 200

func (p *parser) disj(d int) prop {
	x := p.conj(d)
	for p.Tok().Is(`\/`) {
		p.Next()
		x = propOr{x, p.conj(d)}
	}
	return x
}

func (p *parser) conj(d int) prop {
	x := p.neg(d)
	for p.Tok().Is(`/\`) {
		p.Next()
		x = propAnd{x, p.neg(d)}
	}
	return x
}

func (p *parser) neg(d int) prop {
	if d > maxDepth {
		panic(errAt(p.Tok().Pos, "condition nested too deeply"))
	}
	t := p.Tok()
	switch {
	case t.Is("~") || t.Is("not"):
		p.Next()
		return propNot{p.neg(d + 1)}
	case t.Is("("):
		p.Next()
		x := p.disj(d + 1)
		p.Expect(")", "')'")
		return x
	case t.Is("true"), t.Is("false"):
		p.Next()
		return propBool{t.Text == "true", t.Pos}
	}
	th, name := p.location()
	eq := propEq{thread: th, name: name}
	switch {
	case p.Tok().Is("="):
		p.Next()
	case p.Tok().Is("!="):
		p.Next()
		eq.neq = true
	default:
		panic(errAt(p.Tok().Pos, "expected '=', found %s", p.Tok()))
	}
	if p.Tok().Kind == tIdent {
		panic(errAt(p.Tok().Pos, "value %s: only integer values are supported", p.Tok().Text))
	}
	eq.value = p.IntLit()
	return eq
}
