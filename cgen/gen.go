package cgen

import (
	"bytes"
	"fmt"
	"regexp"
	"strings"

	"fencer/cs"
	"fencer/expr"
)

// mode is the kind of C program being written.
type mode int

const (
	plainMode   mode = iota // fencer show --c: C11 atomics, no harness
	harnessMode             // fencer run --hw: volatile accesses, x86 instructions, counters
)

// slot is one (process, location) pair that a bad state names: the
// harness records the intervals of time during which the process was there
// as far as the other processes can tell: from its arrival to its next
// write or atomic step (a read, a local step, a fence, or another visit of
// the location changes nothing the others see, so the process may as well
// have stayed), or to the end of the round.
type slot struct {
	proc int
	loc  cs.Loc
}

// assertBad is a bad state of the harness made of the failed asserts of
// one source position in one process.
type assertBad struct {
	proc int
	pos  cs.Pos
}

// gen writes one C program.
type gen struct {
	sys  *cs.System
	mode mode
	buf  bytes.Buffer

	shared map[string]string // model name -> C lvalue
	procFn []string          // C function of each process
	// global holds the file-scope names (shared variables, functions, the
	// harness's own), which no local may hide.
	global *namer

	// Harness only.
	parent   *parent // the process that runs before and after the threads, or nil
	slots    []slot
	slotOf   map[[2]int]int
	asserts  []assertBad
	warnings []string
}

func (g *gen) printf(format string, args ...any) { fmt.Fprintf(&g.buf, format, args...) }

// procGen writes the function of one process.
type procGen struct {
	*gen
	pi     int
	p      *cs.Process
	sh     shape
	local  map[string]string // model local name -> C name
	tmp    *namer            // names of the function's own variables
	slotAt map[cs.Loc][]int
	mine   []int // slots of this process
	nTemp  int
}

func (g *gen) newProc(pi int) *procGen {
	p := g.sys.Procs[pi]
	reserved := []string{"t", "arg", "iters", "spins", "done", "resume"}
	for n := range g.global.used {
		reserved = append(reserved, n)
	}
	for s := range g.slots {
		reserved = append(reserved, fmt.Sprintf("e%d", s))
	}
	pg := &procGen{gen: g, pi: pi, p: p, sh: analyse(p), local: map[string]string{},
		tmp: newNamer(reserved...), slotAt: map[cs.Loc][]int{}}
	for _, v := range p.Locals {
		pg.local[v.Name] = pg.tmp.name(v.Name)
	}
	for s, sl := range g.slots {
		if sl.proc == pi {
			pg.slotAt[sl.loc] = append(pg.slotAt[sl.loc], s)
			pg.mine = append(pg.mine, s)
		}
	}
	return pg
}

// isParent reports whether the process is the harness's parent.
func (pg *procGen) isParent() bool {
	return pg.mode == harnessMode && pg.parent != nil && pg.parent.proc == pg.pi
}

// fresh returns a new C variable name for the generated code.
func (pg *procGen) fresh(base string) string {
	pg.nTemp++
	return pg.tmp.name(fmt.Sprintf("%s%d", base, pg.nTemp))
}

func (pg *procGen) localName(n string) string {
	if c, ok := pg.local[n]; ok {
		return c
	}
	panic(genError(fmt.Sprintf("%s: an expression names %s, which is not a local of the process", pg.p.Name, n)))
}

// genError is a System the generator cannot translate, raised as a panic
// deep in the printing and returned as an error by NewHarness and Plain.
type genError string

// catch turns a genError panic into *err.
func catch(err *error) {
	if r := recover(); r != nil {
		ge, ok := r.(genError)
		if !ok {
			panic(r)
		}
		*err = fmt.Errorf("cgen: %s", string(ge))
	}
}

func (pg *procGen) expr(e expr.Expr) string { return cExpr(e, pg.localName) }

func (pg *procGen) exprIn(e expr.Expr, sub map[string]string) string {
	return cExpr(e, func(n string) string {
		if c, ok := sub[n]; ok {
			return c
		}
		return pg.localName(n)
	})
}

// sharedName is the C lvalue of the shared variable x.
func (pg *procGen) sharedName(x string) string {
	if c, ok := pg.shared[x]; ok {
		return c
	}
	panic(genError(fmt.Sprintf("%s: a step on %s, which is not a shared variable", pg.p.Name, x)))
}

func (pg *procGen) load(x string) string {
	if pg.mode == plainMode {
		return "atomic_load_explicit(&" + pg.sharedName(x) + ", memory_order_relaxed)"
	}
	return pg.sharedName(x)
}

func (pg *procGen) store(x, v string) string {
	if pg.mode == plainMode {
		return "atomic_store_explicit(&" + pg.sharedName(x) + ", " + v + ", memory_order_relaxed);"
	}
	return pg.sharedName(x) + " = " + v + ";"
}

func (pg *procGen) havoc() string {
	if pg.mode == plainMode {
		return "__VERIFIER_nondet_long()"
	}
	return "rnd_val(t)"
}

func locLabel(l cs.Loc) string { return fmt.Sprintf("L%d_", l) }

// cLabel is the C spelling of a source label: a C keyword gets a "_".
func cLabel(name string) string {
	if cKeywords[name] || locLabelRe.MatchString(name) {
		return name + "_"
	}
	return name
}

var locLabelRe = regexp.MustCompile(`^L\d+_$`)

// function writes the C function of the process.
func (pg *procGen) function() error {
	p := pg.p
	start := pg.buf.Len()
	defer func() { tidy(&pg.buf, start) }()
	if pg.mode == plainMode {
		pg.printf("\nvoid *%s(void *arg)\n{\n", pg.procFn[pg.pi])
	} else if pg.isParent() {
		// Called twice a round: resume 0 runs it up to where it waits
		// for the threads, resume 1 from there on; its locals last from
		// one call to the other.
		pg.printf("\nstatic void %s(struct thr *t, int resume)\n{\n", pg.procFn[pg.pi])
		pg.printf("\tlong iters = 0, spins = 0;\n")
		for _, v := range p.Locals {
			pg.printf("\tstatic long %s;\n", pg.local[v.Name])
		}
		pg.printf("\tif (resume) goto %s;\n", locLabel(pg.parent.wait))
	} else {
		pg.printf("\nstatic void %s(struct thr *t)\n{\n", pg.procFn[pg.pi])
		pg.printf("\tlong iters = 0, spins = 0;\n")
		for _, s := range pg.mine {
			pg.printf("\tlong e%d = -1; /* at %s */\n", s, pg.slotDesc(s))
		}
	}
	for _, v := range p.Locals {
		init := fmt.Sprintf("%dL", v.Init.Value)
		if v.Init.Nondet {
			init = pg.havoc()
		}
		if pg.isParent() {
			pg.printf("\t%s = %s;\n", pg.local[v.Name], init)
		} else {
			pg.printf("\tlong %s = %s;\n", pg.local[v.Name], init)
		}
	}
	if pg.mode == plainMode {
		pg.printf("\t(void)arg;\n")
	} else {
		pg.printf("\t(void)iters; (void)spins;\n")
	}
	reach := reachable(p)
	for l := 0; l < p.NumLocs; l++ {
		if !reach[l] {
			continue
		}
		if err := pg.location(cs.Loc(l)); err != nil {
			return err
		}
	}
	if pg.mode == harnessMode {
		pg.printf("done:\n")
		for _, s := range pg.mine {
			pg.printf("\tif (e%d >= 0) REC(t, %d, e%d, STAMP_INF);\n", s, s, s)
		}
		pg.printf("\treturn;\n")
	}
	pg.printf("}\n")
	return nil
}

func (pg *procGen) slotDesc(s int) string {
	sl := pg.slots[s]
	name := fmt.Sprintf("location %d", sl.loc)
	if ls := labelsAt(pg.sys.Procs[sl.proc], sl.loc); len(ls) > 0 {
		name = ls[0]
	}
	return name
}

// location writes the code of control location l: its label, the entry
// stamps of the harness, and the choice of the edge to take.
func (pg *procGen) location(l cs.Loc) error {
	p := pg.p
	pg.printf("%s:\n", locLabel(l))
	if pg.isParent() && l == pg.parent.wait {
		pg.printf("\tif (!resume) {\n\t\tparent_parked = 1; /* the threads run now */\n\t\treturn;\n\t}\n")
	}
	if pg.mode == plainMode {
		labels := labelsAt(p, l)
		for _, name := range labels {
			pg.printf("%s:\n", cLabel(name))
		}
		if out := p.Out[l]; len(labels) > 0 && len(out) == 1 && p.Edges[out[0]].Op.Kind == cs.OpAssume && p.Edges[out[0]].Op.Val == expr.True {
			// A labelled skip: its no-op step keeps the label a point of
			// its own (C-INPUT: a labelled empty statement).
			pg.printf("\t;\n")
		}
	}
	for _, s := range pg.slotAt[l] {
		pg.printf("\tif (e%d < 0) e%d = STAMP();\n", s, s)
	}
	out := p.Out[l]
	if len(out) == 0 {
		pg.end()
		return nil
	}
	atomic := 0
	for _, ei := range out {
		if p.Edges[ei].Op.Kind == cs.OpAtomic {
			atomic++
		}
	}
	if atomic > 0 {
		if atomic < len(out) {
			return fmt.Errorf("%s: location %d mixes atomic steps with other steps", p.Name, l)
		}
		return pg.atomicGroup(l, out)
	}
	conds := make([]expr.Expr, len(out))
	for i, ei := range out {
		conds[i] = expr.True
		if op := p.Edges[ei].Op; op.Kind == cs.OpAssume {
			conds[i] = op.Val
		}
	}
	if len(out) == 1 {
		if c := conds[0]; c != expr.True {
			if pg.mode == plainMode {
				pg.printf("\t__VERIFIER_assume(%s);\n", pg.expr(c))
			} else {
				pg.printf("\tif (!%s) goto done; /* blocked for good: it reads only locals */\n", pg.expr(c))
			}
		}
		pg.edge(out[0])
		return nil
	}
	if len(out) == 2 && complementary(conds[0], conds[1]) {
		a, b := out[0], out[1]
		ca := conds[0]
		if pg.mode == plainMode && p.Edges[a].To == p.ErrLoc && p.Edges[b].To != p.ErrLoc {
			a, b, ca = b, a, conds[1]
		}
		if v, ok := expr.BoolValue(ca); ok { // while (true): one way only
			if !v {
				a = b
			}
			pg.edge(a)
			return nil
		}
		if pg.mode == plainMode && p.Edges[b].To == p.ErrLoc && p.Edges[a].To != p.ErrLoc {
			pg.printf("\tassert(%s);\n", pg.expr(ca))
			pg.edge(a)
			return nil
		}
		pg.printf("\tif (%s) {\n", pg.expr(ca))
		pg.edge(a)
		pg.printf("\t}\n")
		pg.edge(b)
		return nil
	}
	if len(out) > 64 {
		return fmt.Errorf("%s: location %d has %d steps to choose from (at most 64)", p.Name, l, len(out))
	}
	k := pg.fresh("k")
	if pg.mode == plainMode {
		pg.printf("\t{\n\tlong %s = __VERIFIER_nondet_long();\n\t__VERIFIER_assume(0", k)
		for i, c := range conds {
			pg.printf(" || (%s == %d && %s)", k, i, pg.expr(c))
		}
		pg.printf(");\n")
	} else {
		pg.printf("\t{\n\tunsigned long %s = 0;\n", k)
		for i, c := range conds {
			pg.printf("\tif (%s) %s |= 1UL << %d;\n", pg.expr(c), k, i)
		}
		pg.printf("\tif (!%s) goto done; /* blocked for good: it reads only locals */\n", k)
		pg.printf("\t%s = pick(t, %s);\n", k, k)
	}
	for i, ei := range out {
		pg.printf("\tif (%s == %d) {\n", k, i)
		pg.edge(ei)
		pg.printf("\t}\n")
	}
	pg.printf("\t}\n")
	pg.end() // not reached: one of the steps was taken
	return nil
}

// complementary reports whether b is the negation of a (the two branches
// of an if, a while or an assert).
func complementary(a, b expr.Expr) bool {
	return expr.Key(negate(a)) == expr.Key(b) || expr.Key(negate(b)) == expr.Key(a)
}

// negations are the comparisons that negate each other.
var negations = map[expr.Op]expr.Op{expr.OpEq: expr.OpNe, expr.OpNe: expr.OpEq, expr.OpLt: expr.OpGe,
	expr.OpGe: expr.OpLt, expr.OpGt: expr.OpLe, expr.OpLe: expr.OpGt}

// negate is expr.Not, with a comparison negated in place (cas lowers its
// two paths to x == e and x != e).
func negate(e expr.Expr) expr.Expr {
	if a, ok := e.(*expr.App); ok {
		if n, ok := negations[a.Op]; ok {
			return &expr.App{Op: n, Args: a.Args}
		}
	}
	return expr.Not(e)
}

// end writes the end of the process (or its error sink).
func (pg *procGen) end() {
	if pg.mode == plainMode {
		pg.printf("\treturn NULL;\n")
	} else {
		pg.printf("\tgoto done;\n")
	}
}

// leave writes what the harness does when the process takes edge ei out of
// its location: the bound on loops, then, before a write, the end of the
// intervals of the slots the process is at (closeSlots).
func (pg *procGen) leave(ei int) {
	if pg.mode != harnessMode {
		return
	}
	if pg.sh.back[ei] {
		if pg.sh.work[ei] {
			pg.printf("\tif (++iters > ITERATIONS) goto done;\n")
		} else {
			pg.printf("\tif ((++spins & 255) == 0 && spin_stop(t, spins)) goto done;\n")
		}
	}
	if pg.p.Edges[ei].Op.Kind == cs.OpWrite {
		pg.closeSlots()
	}
}

// closeSlots ends the open intervals of the process with a stamp taken
// before the step that follows (a write or an atomic step), so that each
// interval ends before the step can have an effect another thread sees.
func (pg *procGen) closeSlots() {
	if pg.mode != harnessMode || len(pg.mine) == 0 {
		return
	}
	open := make([]string, len(pg.mine))
	for i, s := range pg.mine {
		open[i] = fmt.Sprintf("e%d >= 0", s)
	}
	pg.printf("\tif (%s) {\n\t\tlong xs = STAMP();\n", strings.Join(open, " || "))
	for _, s := range pg.mine {
		pg.printf("\t\tif (e%d >= 0) { REC(t, %d, e%d, xs); e%d = -1; }\n", s, s, s, s)
	}
	pg.printf("\t}\n")
}

// arrive writes the jump to the target of edge ei (after its operation).
func (pg *procGen) arrive(ei int) {
	e := pg.p.Edges[ei]
	if e.To == pg.p.ErrLoc {
		if pg.mode == plainMode {
			pg.printf("\tassert(0);\n")
		} else {
			pg.printf("\tt->err = %d;\n", pg.assertCode(e.Pos)+1)
		}
	}
	pg.printf("\tgoto %s;\n", locLabel(e.To))
}

// assertCode is the index of the harness's bad state for a failed assert
// at pos in this process.
func (pg *procGen) assertCode(pos cs.Pos) int {
	for i, a := range pg.asserts {
		if a.proc == pg.pi && a.pos == pos {
			return len(pg.sys.Bad) + i
		}
	}
	panic(genError("an assert the harness did not collect"))
}

// edge writes a non-atomic edge: leave, the operation, arrive.
func (pg *procGen) edge(ei int) {
	pg.leave(ei)
	op := pg.p.Edges[ei].Op
	switch op.Kind {
	case cs.OpRead:
		pg.printf("\t%s = %s;\n", pg.localName(op.Local), pg.load(op.Shared))
	case cs.OpWrite:
		pg.printf("\t%s\n", pg.store(op.Shared, pg.expr(op.Val)))
	case cs.OpFence:
		switch {
		case pg.mode == plainMode && op.Fence == cs.StoreFence:
			pg.printf("\tatomic_thread_fence(memory_order_release);\n")
		case pg.mode == plainMode:
			pg.printf("\tatomic_thread_fence(memory_order_seq_cst);\n")
		case op.Fence == cs.StoreFence:
			pg.printf("\t__asm__ __volatile__(\"\" ::: \"memory\"); /* fence store: x86 keeps stores in order */\n")
		default:
			pg.printf("\t__asm__ __volatile__(\"mfence\" ::: \"memory\");\n")
		}
	case cs.OpAssign:
		pg.printf("\t%s = %s;\n", pg.localName(op.Local), pg.expr(op.Val))
	case cs.OpHavoc:
		pg.printf("\t%s = %s;\n", pg.localName(op.Local), pg.havoc())
	case cs.OpAssume:
		// the condition was tested when the edge was chosen
	}
	pg.arrive(ei)
}

var (
	gotoNext = regexp.MustCompile(`\tgoto (L\d+_);\n(L\d+_):\n`)
	locDef   = regexp.MustCompile(`(?m)^(L\d+_):\n`)
)

// tidy drops from the function written in buf from start the jumps to the
// location that follows and the labels no jump uses.
func tidy(buf *bytes.Buffer, start int) {
	text := buf.String()[start:]
	text = gotoNext.ReplaceAllStringFunc(text, func(m string) string {
		g := gotoNext.FindStringSubmatch(m)
		if g[1] != g[2] {
			return m
		}
		return g[2] + ":\n"
	})
	text = locDef.ReplaceAllStringFunc(text, func(m string) string {
		if strings.Contains(text, "goto "+m[:len(m)-2]+";") {
			return m
		}
		return ""
	})
	buf.Truncate(start)
	buf.WriteString(indent(text))
}

var cLabelLine = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*:$`)

// indent indents C text by its braces, labels at the left margin.
func indent(text string) string {
	lines := strings.Split(text, "\n")
	depth := 0
	for i, line := range lines {
		t := strings.TrimLeft(line, "\t")
		if t == "" {
			lines[i] = ""
			continue
		}
		d := depth
		if strings.HasPrefix(t, "}") {
			d--
		}
		if cLabelLine.MatchString(t) {
			d = 0
		}
		lines[i] = strings.Repeat("\t", max(d, 0)) + t
		depth += strings.Count(t, "{") - strings.Count(t, "}")
	}
	return strings.Join(lines, "\n")
}

// reachable returns the locations of p that control can reach.
func reachable(p *cs.Process) []bool {
	seen := make([]bool, p.NumLocs)
	todo := []cs.Loc{0}
	seen[0] = true
	for len(todo) > 0 {
		l := todo[len(todo)-1]
		todo = todo[:len(todo)-1]
		for _, ei := range p.Out[l] {
			if op := p.Edges[ei].Op; op.Kind == cs.OpAssume && op.Val == expr.False {
				continue // while (true)'s exit
			}
			if to := p.Edges[ei].To; !seen[to] {
				seen[to] = true
				todo = append(todo, to)
			}
		}
	}
	return seen
}
