package rmm

import (
	"strconv"
)

// This file reads the structure of a model: the forbidden states, the
// global data, and per process declaration its count, data, registers and
// the tokens of its text. The text is parsed later, once per process
// instance (build.go), because what x[0] names depends on the process.

// model is a parsed .rmm file before lowering.
type model struct {
	forbidden [][]token // one list per forbidden state: a label or "*" per process
	forbidPos []int     // the first token of each list
	globals   []*varDecl
	procs     []*procDecl
}

// varDecl is "name = init : [lo:hi]" of data or registers.
type varDecl struct {
	name      token
	nondet    bool
	value     int64
	hasDomain bool
	lo, hi    int64
}

// procDecl is one "process" or "process(N)" section.
type procDecl struct {
	kw    token // "process"
	count int   // N of process(N), else 1
	data  []*varDecl
	regs  []*varDecl
	text  []token // the statements, ending with an EOF token
}

// parser walks the expanded tokens.
type parser struct {
	toks []token
	i    int
}

func (p *parser) tok() token { return p.toks[p.i] }
func (p *parser) peek() token {
	if p.i+1 < len(p.toks) {
		return p.toks[p.i+1]
	}
	return p.toks[len(p.toks)-1]
}
func (p *parser) next() token {
	t := p.toks[p.i]
	if p.i < len(p.toks)-1 {
		p.i++
	}
	return t
}

func (p *parser) expect(text, what string) token {
	t := p.tok()
	if !t.is(text) {
		panic(errAt(t.pos, "expected %s, found %s", what, t))
	}
	return p.next()
}

func (p *parser) expectIdent(what string) token {
	t := p.tok()
	if t.kind != tIdent {
		panic(errAt(t.pos, "expected %s, found %s", what, t))
	}
	return p.next()
}

// sectionWords end a list at the top level.
func isSection(t token) bool {
	return t.kind == tIdent && (t.text == "data" || t.text == "process" || t.text == "predicates" ||
		t.text == "registers" || t.text == "text")
}

func parseModel(toks []token) *model {
	p := &parser{toks: toks}
	m := &model{}
	p.expect("forbidden", "'forbidden' (an .rmm model starts with its forbidden states)")
	for {
		start := p.tok()
		var list []token
		for {
			t := p.tok()
			if t.kind == tIdent && !isSection(t) || t.is("*") {
				list = append(list, p.next())
				continue
			}
			break
		}
		if len(list) == 0 {
			panic(errAt(start.pos, "expected a label or '*' for each process, found %s", start))
		}
		m.forbidden = append(m.forbidden, list)
		m.forbidPos = append(m.forbidPos, start.pos)
		if !p.tok().is(";") {
			break
		}
		p.next()
	}
	if p.tok().is("predicates") {
		// Predicates are hints for Memorax's predicate abstraction; fencer
		// finds its own. Skip to the next section.
		p.next()
		for p.tok().kind != tEOF && !(p.tok().is("data") || p.tok().is("process")) {
			p.next()
		}
	}
	if p.tok().is("data") {
		p.next()
		m.globals = p.varDecls(false)
	}
	for p.tok().is("process") {
		m.procs = append(m.procs, p.process())
	}
	if len(m.procs) == 0 {
		panic(errAt(p.tok().pos, "expected 'process', found %s", p.tok()))
	}
	return m
}

// varDecls reads "name = init [: domain]" declarations, with optional
// commas between them, until a section word.
func (p *parser) varDecls(regs bool) []*varDecl {
	var out []*varDecl
	for {
		t := p.tok()
		if regs && t.kind != tReg || !regs && (t.kind != tIdent || isSection(t)) {
			if len(out) == 0 {
				what := "a variable name"
				if regs {
					what = "a register ($name)"
				}
				panic(errAt(t.pos, "expected %s, found %s", what, t))
			}
			return out
		}
		d := &varDecl{name: p.next()}
		p.expect("=", "'=' and an initial value")
		switch {
		case p.tok().is("*"):
			p.next()
			d.nondet = true
		default:
			d.value = p.intLit()
		}
		if p.tok().is(":") {
			p.next()
			d.hasDomain = true
			if p.tok().is("Z") {
				p.next()
				d.hasDomain = false
			} else {
				lb := p.expect("[", "'[' or Z (a domain is [lo:hi] or Z)")
				d.lo = p.intLit()
				p.expect(":", "':'")
				d.hi = p.intLit()
				p.expect("]", "']'")
				if d.lo > d.hi {
					panic(errAt(lb.pos, "empty domain [%d:%d]", d.lo, d.hi))
				}
				if !d.nondet && (d.value < d.lo || d.value > d.hi) {
					panic(errAt(d.name.pos, "initial value %d of %s is outside its domain [%d:%d]", d.value, d.name.text, d.lo, d.hi))
				}
			}
		}
		out = append(out, d)
		if p.tok().is(",") {
			p.next()
		}
	}
}

// intLit reads an integer, possibly negative.
func (p *parser) intLit() int64 {
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

// maxCount bounds process(N).
const maxCount = 64

func (p *parser) process() *procDecl {
	d := &procDecl{kw: p.next(), count: 1}
	if p.tok().is("(") {
		p.next()
		t := p.tok()
		n := p.intLit()
		if n < 1 || n > maxCount {
			panic(errAt(t.pos, "process count %d out of range (1 to %d)", n, maxCount))
		}
		d.count = int(n)
		p.expect(")", "')'")
	}
	if p.tok().is("data") {
		p.next()
		d.data = p.varDecls(false)
	}
	if p.tok().is("registers") {
		p.next()
		d.regs = p.varDecls(true)
	}
	p.expect("text", "'text' (the statements of the process)")
	start := p.i
	for p.tok().kind != tEOF && !p.tok().is("process") {
		p.next()
	}
	d.text = append(append([]token(nil), p.toks[start:p.i]...), token{kind: tEOF, pos: p.tok().pos, end: p.tok().pos})
	return d
}
