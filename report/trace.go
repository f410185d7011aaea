package report

import (
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"

	"fencer/cs"
	"fencer/expr"
	"fencer/formats"
	"fencer/memmodel"
)

// This file turns a trace of the automaton (memmodel.Trace, replayed into its
// states) into rows a person can read: one row per step that the program
// text shows, with the statement as written, what the step read or wrote,
// the store buffers and the memory after it, and at the end the property
// that the last state violates. Rows never show the front end's
// temporaries: a read into one is shown as the read of the shared variable
// it is (the statement around it is in the row), an atomic step as its
// reads, writes and assignments of named variables.

// Trace is a trace as printed and as put in the JSON report.
type Trace struct {
	Model    string    `json:"model"`
	Steps    []Step    `json:"steps"`
	Property *Property `json:"property"` // null when the last state is not bad
	// Reorderings are the writes of the trace that a later step of their
	// process overtakes: what the trace needs of the memory model (empty
	// for a run that is also a run under SC).
	Reorderings []Reordering `json:"reorderings"`

	vars  []string // the shared variables in declaration order, for printing
	procs []string // the processes in declaration order, for printing
}

// Vars are the shared variables of the trace's program in declaration
// order (the keys of every step's Memory).
func (tr *Trace) Vars() []string { return tr.vars }

// Procs are the processes of the trace's program in declaration order.
func (tr *Trace) Procs() []string { return tr.procs }

// Step is one step of a trace.
type Step struct {
	Step      int    `json:"step"`
	Process   string `json:"process"`
	Line      int    `json:"line"`      // the statement (for a flush: the write that reaches memory); 0 if unknown
	Statement string `json:"statement"` // its source text
	// Action is read, write, flush, fence, atomic, assign, havoc, branch,
	// assume, assert or goto.
	Action string `json:"action"`
	Effect string `json:"effect"` // what happened, in words
	// Variable and Value: the shared variable read, written or flushed and
	// its value (absent for the other actions).
	Variable  string           `json:"variable,omitempty"`
	Value     *int64           `json:"value,omitempty"`
	OwnBuffer bool             `json:"own_buffer,omitempty"` // a read served by the process's own store buffer
	Buffers   []Buffer         `json:"buffers"`              // after the step; only non-empty buffers
	Memory    map[string]int64 `json:"memory"`               // after the step; every shared variable

	// touched are the shared variables the step reads, writes or flushes
	// (an atomic step: all those of its body), for the touched layout.
	touched []string
}

// Touched are the shared variables the step reads, writes or flushes (for
// an atomic step, every one its body reads or writes), in the order the
// step touches them.
func (s *Step) Touched() []string { return s.touched }

// Buffer is one store buffer after a step: under TSO one per process
// (Variable absent), under PSO one per process and variable.
type Buffer struct {
	Process  string          `json:"process"`
	Variable string          `json:"variable,omitempty"`
	Writes   []BufferedWrite `json:"writes"` // oldest first
}

type BufferedWrite struct {
	Variable string `json:"variable"`
	Value    int64  `json:"value"`
	Line     int    `json:"line,omitempty"` // the write statement
}

// Property is the property the last state of a trace violates.
type Property struct {
	Kind        string   `json:"kind"` // assert, mutex or forbidden
	Line        int      `json:"line"`
	Text        string   `json:"text"`      // its source text
	Processes   []string `json:"processes"` // the processes in the bad state
	Description string   `json:"description"`

	// reads are the shared variables the property's expression names (an
	// assert on memory); a mutex or forbidden reads none.
	reads []string
}

// Reads are the shared variables the property names (an assert that reads
// memory); none for mutex and forbidden, and none for an assert on locals.
func (p *Property) Reads() []string { return p.reads }

// pending is a write in a store buffer, with the statement that made it.
type pending struct {
	x    int
	val  int64
	line int
	text string
	site int // the fence site of the write, or -1
	step int // the engine step that wrote it
}

// tracer builds the rows of one trace.
type tracer struct {
	sys    *cs.System
	m      memmodel.Model
	c      *memmodel.Concrete
	ix     *sourceIndex
	tr     *memmodel.Trace
	states []*memmodel.State
	// bufs mirrors the store buffers with the statements that wrote each
	// entry: under TSO bufs[p], under PSO bufs[p*ns+x].
	bufs [][]pending
	// before[i] is a copy of bufs before engine step i.
	before [][][]pending
	// rows are the rows built; rowOf[i] is the index in rows of engine
	// step i, or -1 when the step has no row.
	rows  []Step
	rowOf []int
}

func newTracer(sys *cs.System, m memmodel.Model, tr *memmodel.Trace, states []*memmodel.State) *tracer {
	t := &tracer{sys: sys, m: m, c: memmodel.NewConcrete(sys, m), ix: newSourceIndex(sys), tr: tr, states: states}
	switch m.Layout() {
	case memmodel.PerProcess:
		t.bufs = make([][]pending, len(sys.Procs))
	case memmodel.PerVariable:
		t.bufs = make([][]pending, len(sys.Procs)*t.c.NumShared())
	}
	return t
}

// BuildTrace describes a replayed trace: states[i] is the state after i
// steps of tr.
func BuildTrace(sys *cs.System, m memmodel.Model, tr *memmodel.Trace, states []*memmodel.State) *Trace {
	t := newTracer(sys, m, tr, states)
	rep := t.build()
	rep.Reorderings = t.reorderings()
	return rep
}

func (t *tracer) build() *Trace {
	rep := &Trace{Model: t.m.String(), Steps: []Step{}}
	for x := 0; x < t.c.NumShared(); x++ {
		rep.vars = append(rep.vars, t.c.Name(x))
	}
	for _, p := range t.sys.Procs {
		rep.procs = append(rep.procs, p.Name)
	}
	for i, st := range t.tr.Steps {
		t.before = append(t.before, t.snapshot())
		row, ok := t.row(i, st)
		if !ok {
			t.rowOf = append(t.rowOf, -1)
			continue
		}
		t.rowOf = append(t.rowOf, len(rep.Steps))
		row.Step = len(rep.Steps) + 1
		row.Buffers = t.buffers(t.states[i+1])
		row.Memory = t.memory(t.states[i+1])
		rep.Steps = append(rep.Steps, row)
	}
	rep.Property = t.property()
	t.rows = rep.Steps
	return rep
}

func (t *tracer) snapshot() [][]pending {
	out := make([][]pending, len(t.bufs))
	for i, b := range t.bufs {
		out[i] = append([]pending(nil), b...)
	}
	return out
}

// bufIndex is the index in bufs of p's buffer for variable x.
func (t *tracer) bufIndex(p, x int) int {
	if t.m.Layout() == memmodel.PerVariable {
		return p*t.c.NumShared() + x
	}
	return p
}

// env reads the variables of a state by name.
func (t *tracer) env(s *memmodel.State) func(string) (int64, bool) {
	return func(n string) (int64, bool) {
		if i := t.c.Slot(n); i >= 0 {
			return s.Vals[i], true
		}
		return 0, false
	}
}

func shortName(name string) string {
	if i := strings.LastIndexByte(name, '.'); i >= 0 {
		return name[i+1:]
	}
	return name
}

func i64(v int64) *int64 { return &v }

// row describes engine step i; ok is false for a step that no row shows
// (a condition that is trivially true, a choice of a temporary).
func (t *tracer) row(i int, st memmodel.Step) (Step, bool) {
	proc := t.sys.Procs[st.Proc]
	row := Step{Process: proc.Name}
	before, after := t.states[i], t.states[i+1]
	if st.IsFlush() {
		bi := t.bufIndex(st.Proc, st.Var)
		if bi < len(t.bufs) && len(t.bufs[bi]) > 0 {
			// Under TSO the oldest entry is the one flushed; under PSO the
			// oldest of the variable's buffer.
			w := t.bufs[bi][0]
			t.bufs[bi] = t.bufs[bi][1:]
			row.Line, row.Statement = w.line, w.text
		}
		name := t.c.Name(st.Var)
		v := after.Vals[st.Var]
		row.Action, row.Variable, row.Value = "flush", name, i64(v)
		row.touched = []string{name}
		row.Effect = fmt.Sprintf("flush: %s = %d reaches memory", name, v)
		return row, true
	}
	e := proc.Edges[st.Edge]
	s := t.ix.stmtAt(e.Pos)
	switch {
	case t.ix != nil && t.ix.mode == formats.TextLine && e.Pos.IsValid():
		// A reader whose statements do not span the file's text (.rmm, C):
		// the step's own line is what the user wrote (the syntax tree's
		// statement around it may be a construct that starts lines
		// earlier).
		row.Line, row.Statement = t.sys.File.Line(e.Pos), shorten(t.ix.lineText(e.Pos))
	case s != nil:
		row.Line, row.Statement = t.ix.line(s.Pos()), t.ix.stmtText(s)
	default:
		row.Line, row.Statement = t.sys.File.Line(e.Pos), e.Op.String()
	}
	op := e.Op
	switch op.Kind {
	case cs.OpRead:
		x := t.c.Slot(op.Shared)
		v := after.Vals[t.c.Slot(op.Local)]
		row.Action, row.Variable, row.Value = "read", op.Shared, i64(v)
		row.touched = []string{op.Shared}
		row.OwnBuffer = t.inOwnBuffer(st.Proc, x)
		row.Effect = fmt.Sprintf("read %s = %d", op.Shared, v)
		if row.OwnBuffer {
			row.Effect += " (own buffer)"
		}
	case cs.OpWrite:
		x := t.c.Slot(op.Shared)
		v, err := expr.Eval(op.Val, t.env(before))
		if err != nil {
			v = after.Vals[x]
		}
		row.Action, row.Variable, row.Value = "write", op.Shared, i64(v)
		row.touched = []string{op.Shared}
		row.Effect = fmt.Sprintf("write %s = %d", op.Shared, v)
		if t.bufs != nil {
			bi := t.bufIndex(st.Proc, x)
			t.bufs[bi] = append(t.bufs[bi], pending{x: x, val: v, line: row.Line, text: row.Statement, site: writeSite(t.sys, e), step: i})
			row.Effect += " (buffered)"
		}
	case cs.OpFence:
		row.Action, row.Effect = "fence", "fence: the buffer is empty"
		text := "fence;"
		if op.Fence == cs.StoreFence {
			// It waits for nothing: later writes queue behind the earlier
			// ones (under TSO it orders nothing at all).
			row.Effect, text = "fence store: later writes stay behind the buffered ones", "fence store;"
		}
		if _, ok := s.(*cs.FenceStmt); !ok {
			// A fence inserted after a write (cs.System.WithFences).
			row.Statement = text + " (inserted after " + row.Statement + ")"
		}
	case cs.OpAtomic:
		row.Action, row.Effect = "atomic", t.atomicEffect(op, e, proc, before, st.Val)
		for _, b := range op.Body {
			if (b.Kind == cs.OpRead || b.Kind == cs.OpWrite) && !slices.Contains(row.touched, b.Shared) {
				row.touched = append(row.touched, b.Shared)
			}
		}
	case cs.OpAssign:
		if cs.IsTemp(op.Local) {
			return row, false
		}
		v := after.Vals[t.c.Slot(op.Local)]
		row.Action, row.Effect = "assign", fmt.Sprintf("%s = %d", shortName(op.Local), v)
	case cs.OpHavoc:
		if cs.IsTemp(op.Local) {
			return row, false // the write that follows shows the value
		}
		v := after.Vals[t.c.Slot(op.Local)]
		row.Action, row.Effect = "havoc", fmt.Sprintf("%s = %d (any value)", shortName(op.Local), v)
	case cs.OpAssume:
		return t.assumeRow(row, s, e, st, proc)
	}
	return row, true
}

// inOwnBuffer reports whether p's read of x is served by its own buffer.
func (t *tracer) inOwnBuffer(p, x int) bool {
	if t.bufs == nil {
		return false
	}
	for _, w := range t.bufs[t.bufIndex(p, x)] {
		if w.x == x {
			return true
		}
	}
	return false
}

// assumeRow describes a step that tests a condition: the branch of an if
// or a while, an assume, an assert, a goto. A condition that is
// constantly true (while (true), a label's no-op step, a branch that the
// template index decides) has no row.
func (t *tracer) assumeRow(row Step, s cs.Stmt, e cs.Edge, st memmodel.Step, proc *cs.Process) (Step, bool) {
	always, isConst := expr.BoolValue(e.Op.Val)
	trivial := isConst && always
	yes := t.firstBranch(proc, st.Edge)
	switch s := s.(type) {
	case *cs.IfStmt:
		row.Action = "branch"
		switch {
		case isStar(s.Cond) && yes:
			row.Effect = "choose the then branch"
		case isStar(s.Cond):
			row.Effect = "choose the else branch"
		case trivial:
			return row, false
		case yes:
			row.Effect = "condition true"
		default:
			row.Effect = "condition false"
		}
	case *cs.WhileStmt:
		row.Action = "branch"
		switch {
		case isStar(s.Cond) && yes:
			row.Effect = "choose to run the loop body"
		case isStar(s.Cond):
			row.Effect = "choose to leave the loop"
		case trivial:
			return row, false
		case yes:
			row.Effect = "condition true: run the loop body"
		default:
			row.Effect = "condition false: leave the loop"
		}
	case *cs.AssertStmt:
		row.Action = "assert"
		if e.To == proc.ErrLoc {
			row.Effect = "assertion fails"
		} else {
			row.Effect = "assertion holds"
		}
	case *cs.AssumeStmt:
		row.Action, row.Effect = "assume", "holds"
	case *cs.GotoStmt:
		row.Action, row.Effect = "goto", "jump to "+s.Label.Name
	default:
		if trivial {
			return row, false
		}
		row.Action, row.Effect = "assume", "holds"
	}
	return row, true
}

func isStar(e cs.Expr) bool {
	_, ok := e.(*cs.StarExpr)
	return ok
}

// firstBranch reports whether edge ei is the first of the assume edges that
// leave its location from the same statement: cs emits the edge of a true
// condition before that of a false one.
func (t *tracer) firstBranch(proc *cs.Process, ei int) bool {
	e := proc.Edges[ei]
	for _, j := range proc.Out[e.From] {
		f := proc.Edges[j]
		if j < ei && f.Op.Kind == cs.OpAssume && f.Pos == e.Pos {
			return false
		}
	}
	return true
}

// atomicEffect lists the reads, writes and named assignments of an atomic
// step in order, evaluating its body again from the state before it (an
// atomic step reads and writes memory: its process's buffers are empty).
func (t *tracer) atomicEffect(op cs.Op, e cs.Edge, proc *cs.Process, before *memmodel.State, choice int64) string {
	vals := map[string]int64{}
	env := func(n string) (int64, bool) {
		if v, ok := vals[n]; ok {
			return v, true
		}
		return t.env(before)(n)
	}
	var parts []string
	for _, b := range op.Body {
		switch b.Kind {
		case cs.OpRead:
			v, _ := env(b.Shared)
			vals[b.Local] = v
			parts = append(parts, fmt.Sprintf("read %s = %d", b.Shared, v))
		case cs.OpWrite:
			v, err := expr.Eval(b.Val, env)
			if err != nil {
				parts = append(parts, "write "+b.Shared)
				continue
			}
			vals[b.Shared] = v
			parts = append(parts, fmt.Sprintf("write %s = %d", b.Shared, v))
		case cs.OpAssign:
			v, err := expr.Eval(b.Val, env)
			if err == nil {
				vals[b.Local] = v
			}
			if !cs.IsTemp(b.Local) && err == nil {
				parts = append(parts, fmt.Sprintf("%s = %d", shortName(b.Local), v))
			}
		case cs.OpHavoc:
			vals[b.Local] = choice
			if !cs.IsTemp(b.Local) {
				parts = append(parts, fmt.Sprintf("%s = %d (any value)", shortName(b.Local), choice))
			}
		}
	}
	if e.To == proc.ErrLoc {
		parts = append(parts, "assertion fails")
	}
	if len(parts) == 0 {
		return "atomic step"
	}
	return strings.Join(parts, ", ")
}

// buffers lists the non-empty store buffers of s, the state after a step:
// the values are the replayed state's; each write's line comes from the
// mirror in t.bufs, which holds the same entries.
func (t *tracer) buffers(s *memmodel.State) []Buffer {
	out := []Buffer{}
	for bi, b := range s.Buf {
		if len(b) == 0 {
			continue
		}
		br := Buffer{}
		if t.m.Layout() == memmodel.PerVariable {
			ns := t.c.NumShared()
			br.Process, br.Variable = t.sys.Procs[bi/ns].Name, t.c.Name(bi%ns)
		} else {
			br.Process = t.sys.Procs[bi].Name
		}
		var mirror []pending
		if bi < len(t.bufs) && len(t.bufs[bi]) == len(b) {
			mirror = t.bufs[bi]
		}
		for j, w := range b {
			bw := BufferedWrite{Variable: t.c.Name(w.Var), Value: w.Val}
			if mirror != nil && mirror[j].x == w.Var && mirror[j].val == w.Val {
				bw.Line = mirror[j].line
			}
			br.Writes = append(br.Writes, bw)
		}
		out = append(out, br)
	}
	return out
}

func (t *tracer) memory(s *memmodel.State) map[string]int64 {
	out := make(map[string]int64, t.c.NumShared())
	for x := 0; x < t.c.NumShared(); x++ {
		out[t.c.Name(x)] = s.Vals[x]
	}
	return out
}

// property names what the last state violates: a failed assert, a mutex
// or a forbidden combination of labels. nil if the last state is not bad
// (explore's traces can end anywhere).
func (t *tracer) property() *Property {
	last := t.states[len(t.states)-1]
	for p, proc := range t.sys.Procs {
		if proc.ErrLoc < 0 || last.PC[p] != proc.ErrLoc {
			continue
		}
		return t.assertProperty(p, last)
	}
	for _, b := range t.sys.Bad {
		all := true
		for j, pi := range b.Procs {
			if last.PC[pi] != b.Locs[j] {
				all = false
			}
		}
		if all {
			return t.badProperty(b)
		}
	}
	return nil
}

// assertProperty describes the failed assert of process p: the statement
// of the step that entered its error location, with the values of the
// named locals it mentions.
func (t *tracer) assertProperty(p int, last *memmodel.State) *Property {
	proc := t.sys.Procs[p]
	pr := &Property{Kind: "assert", Processes: []string{proc.Name}}
	var pos cs.Pos
	for i := len(t.tr.Steps) - 1; i >= 0; i-- {
		if st := t.tr.Steps[i]; st.Proc == p && !st.IsFlush() {
			pos = proc.Edges[st.Edge].Pos
			break
		}
	}
	s := t.ix.stmtAt(pos)
	if a, ok := s.(*cs.AtomicStmt); ok {
		// The failed assert is one of the block's; name it when there is one.
		var asserts []*cs.AssertStmt
		cs.Inspect(a, func(n cs.Node) bool {
			if x, ok := n.(*cs.AssertStmt); ok {
				asserts = append(asserts, x)
			}
			return true
		})
		if len(asserts) == 1 {
			s = asserts[0]
		}
	}
	pr.Line = t.sys.File.Line(pos)
	if s == nil {
		pr.Text = "assert"
		pr.Description = fmt.Sprintf("%s: an assertion fails (line %d)", proc.Name, pr.Line)
		return pr
	}
	pr.Line = t.ix.line(s.Pos())
	pr.Text = t.ix.text(s.Pos(), s.End())
	what := strings.TrimSuffix(pr.Text, ";")
	var vals []string
	seen := map[string]bool{}
	if a, ok := s.(*cs.AssertStmt); ok {
		cs.Inspect(a.X, func(n cs.Node) bool {
			id, ok := n.(*cs.Ident)
			if !ok || seen[id.Name] {
				return true
			}
			seen[id.Name] = true
			if i := t.c.Slot(proc.Name + "." + id.Name); i >= 0 {
				vals = append(vals, fmt.Sprintf("%s = %d", id.Name, last.Vals[i]))
			} else if t.c.Slot(id.Name) >= 0 {
				pr.reads = append(pr.reads, id.Name)
			}
			return true
		})
	} else {
		what = "an assertion in " + what
	}
	pr.Description = fmt.Sprintf("%s: %s fails (line %d)", proc.Name, what, pr.Line)
	if len(vals) > 0 {
		pr.Description += " with " + strings.Join(vals, ", ")
	}
	return pr
}

// badProperty describes a forbidden or mutex declaration that holds in
// the last state.
func (t *tracer) badProperty(b cs.BadState) *Property {
	pr := &Property{Line: t.sys.File.Line(b.Pos)}
	var labels []string
	for j, pi := range b.Procs {
		proc := t.sys.Procs[pi]
		pr.Processes = append(pr.Processes, proc.Name)
		labels = append(labels, labelAt(proc, b.Locs[j]))
	}
	d := t.ix.declAt(b.Pos)
	if d != nil {
		pr.Text = t.ix.text(d.Pos(), d.End())
	}
	if m, ok := d.(*cs.MutexDecl); ok {
		pr.Kind = "mutex"
		pr.Description = fmt.Sprintf("mutex %s: %s both at %s (line %d)", m.Label.Name, andList(pr.Processes), m.Label.Name, pr.Line)
		return pr
	}
	pr.Kind = "forbidden"
	if t.ix != nil && t.ix.mode == formats.TextCell {
		// A .litmus test's condition is its exists clause.
		pr.Text = t.ix.cell(b.Pos)
		pr.Description = fmt.Sprintf("%s (line %d)", pr.Text, pr.Line)
		return pr
	}
	var items []string
	for j := range b.Procs {
		items = append(items, pr.Processes[j]+"@"+labels[j])
	}
	pr.Description = fmt.Sprintf("forbidden %s (line %d)", strings.Join(items, ", "), pr.Line)
	if pr.Text == "" {
		pr.Text = "forbidden " + strings.Join(items, ", ") + ";"
	}
	return pr
}

// labelAt names a label at location l (the first in name order), or the
// location number.
func labelAt(proc *cs.Process, l cs.Loc) string {
	var names []string
	for n, at := range proc.Labels {
		if at == l {
			names = append(names, n)
		}
	}
	if len(names) == 0 {
		return strconv.Itoa(int(l))
	}
	sort.Strings(names)
	return names[0]
}

// andList says "A and B", "A, B and C".
func andList(xs []string) string {
	if len(xs) <= 1 {
		return strings.Join(xs, "")
	}
	return strings.Join(xs[:len(xs)-1], ", ") + " and " + xs[len(xs)-1]
}

// writeSite is the fence site right after the write edge e (the point
// after its statement), or -1.
func writeSite(sys *cs.System, e cs.Edge) int {
	for _, id := range e.Points {
		if s := sys.Sites[id]; s.AfterAWrite() {
			return id
		}
	}
	return -1
}
