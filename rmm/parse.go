package rmm

import "fencer/readkit"

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
// parser reads a model's tokens (readkit's cursor).
type parser struct{ readkit.Cursor }

// sectionWords end a list at the top level.
func isSection(t token) bool {
	return t.Kind == tIdent && (t.Text == "data" || t.Text == "process" || t.Text == "predicates" ||
		t.Text == "registers" || t.Text == "text")
}

func parseModel(toks []token) *model {
	p := &parser{readkit.Cursor{Toks: toks}}
	m := &model{}
	p.Expect("forbidden", "'forbidden' (an .rmm model starts with its forbidden states)")
	for {
		start := p.Tok()
		var list []token
		for {
			t := p.Tok()
			if t.Kind == tIdent && !isSection(t) || t.Is("*") {
				list = append(list, p.Next())
				continue
			}
			break
		}
		if len(list) == 0 {
			panic(errAt(start.Pos, "expected a label or '*' for each process, found %s", start))
		}
		m.forbidden = append(m.forbidden, list)
		m.forbidPos = append(m.forbidPos, start.Pos)
		if !p.Tok().Is(";") {
			break
		}
		p.Next()
	}
	if p.Tok().Is("predicates") {
		// Predicates are hints for Memorax's predicate abstraction; fencer
		// finds its own. Skip to the next section.
		p.Next()
		for p.Tok().Kind != tEOF && !(p.Tok().Is("data") || p.Tok().Is("process")) {
			p.Next()
		}
	}
	if p.Tok().Is("data") {
		p.Next()
		m.globals = p.varDecls(false)
	}
	for p.Tok().Is("process") {
		m.procs = append(m.procs, p.process())
	}
	if len(m.procs) == 0 {
		panic(errAt(p.Tok().Pos, "expected 'process', found %s", p.Tok()))
	}
	return m
}

// varDecls reads "name = init [: domain]" declarations, with optional
// commas between them, until a section word.
func (p *parser) varDecls(regs bool) []*varDecl {
	var out []*varDecl
	for {
		t := p.Tok()
		if regs && t.Kind != tReg || !regs && (t.Kind != tIdent || isSection(t)) {
			if len(out) == 0 {
				what := "a variable name"
				if regs {
					what = "a register ($name)"
				}
				panic(errAt(t.Pos, "expected %s, found %s", what, t))
			}
			return out
		}
		d := &varDecl{name: p.Next()}
		p.Expect("=", "'=' and an initial value")
		switch {
		case p.Tok().Is("*"):
			p.Next()
			d.nondet = true
		default:
			d.value = p.IntLit()
		}
		if p.Tok().Is(":") {
			p.Next()
			d.hasDomain = true
			if p.Tok().Is("Z") {
				p.Next()
				d.hasDomain = false
			} else {
				lb := p.Expect("[", "'[' or Z (a domain is [lo:hi] or Z)")
				d.lo = p.IntLit()
				p.Expect(":", "':'")
				d.hi = p.IntLit()
				p.Expect("]", "']'")
				if d.lo > d.hi {
					panic(errAt(lb.Pos, "empty domain [%d:%d]", d.lo, d.hi))
				}
				if !d.nondet && (d.value < d.lo || d.value > d.hi) {
					panic(errAt(d.name.Pos, "initial value %d of %s is outside its domain [%d:%d]", d.value, d.name.Text, d.lo, d.hi))
				}
			}
		}
		out = append(out, d)
		if p.Tok().Is(",") {
			p.Next()
		}
	}
}

// maxCount bounds process(N).
const maxCount = 64

func (p *parser) process() *procDecl {
	d := &procDecl{kw: p.Next(), count: 1}
	if p.Tok().Is("(") {
		p.Next()
		t := p.Tok()
		n := p.IntLit()
		if n < 1 || n > maxCount {
			panic(errAt(t.Pos, "process count %d out of range (1 to %d)", n, maxCount))
		}
		d.count = int(n)
		p.Expect(")", "')'")
	}
	if p.Tok().Is("data") {
		p.Next()
		d.data = p.varDecls(false)
	}
	if p.Tok().Is("registers") {
		p.Next()
		d.regs = p.varDecls(true)
	}
	p.Expect("text", "'text' (the statements of the process)")
	start := p.I
	for p.Tok().Kind != tEOF && !p.Tok().Is("process") {
		p.Next()
	}
	d.text = append(append([]token(nil), p.Toks[start:p.I]...), token{Kind: tEOF, Pos: p.Tok().Pos, End: p.Tok().Pos})
	return d
}
