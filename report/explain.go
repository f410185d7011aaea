package report

import (
	"fmt"
	"io"
	"slices"
	"sort"
	"strings"

	"fencer/cegar"
	"fencer/cs"
	"fencer/memmodel"
)

// This file explains results at the level of the source: for each fence,
// the reordering of the witness trace that it forbids, in words; for a
// trace to a bad state, the reorderings it depends on (none under SC).

// Reordering is one reordering of a trace: a write of a process
// still in its store buffer when the same process performs a later read of
// another variable from memory (TSO and PSO) or a later write of another
// variable (PSO). Steps are row numbers of the trace.
type Reordering struct {
	Description string  `json:"description"`
	Process     string  `json:"process"`
	Kind        string  `json:"kind"` // write-read, write-write, or write-other (a fence's witness without either: the fence waits before the next step)
	Write       StepRef `json:"write"`
	Later       StepRef `json:"later"`
	FlushedAt   int     `json:"flushed_at,omitempty"` // the row where the buffered write reaches memory, if in the trace
	LaterFlush  int     `json:"later_flushed_at,omitempty"`
}

// StepRef points at one row of a trace.
type StepRef struct {
	Step      int    `json:"step"`
	Line      int    `json:"line"`
	Statement string `json:"statement"`
	Variable  string `json:"variable"`
	Value     int64  `json:"value"`
}

// overtaken finds, from engine step i on (a write of process p, entry w
// in its buffer), the first later step of p that the write is reordered
// with: a read of another variable from memory while w is still buffered,
// or under PSO a write of another variable made while w is still buffered
// that reaches memory before w does (a later write that reaches memory
// after w is no reordering: the writes were seen in program order). It
// returns -1 when there is none before w reaches memory.
func (t *tracer) overtaken(i, p int, w pending) int {
	steps := t.tr.Steps
	for j := i + 1; j < len(steps); j++ {
		st := steps[j]
		if st.Proc != p {
			continue
		}
		if !t.stillBuffered(j, p, i) {
			return -1
		}
		if st.IsFlush() {
			continue
		}
		op := t.sys.Procs[p].Edges[st.Edge].Op
		switch {
		case op.Kind == cs.OpRead && t.c.Slot(op.Shared) != w.x && !t.bufferedBefore(j, p, t.c.Slot(op.Shared)):
			return j
		case op.Kind == cs.OpWrite && t.m.Layout() == memmodel.PerVariable && t.c.Slot(op.Shared) != w.x:
			if later := t.flushStep(j, p); later >= 0 {
				if own := t.flushStep(i, p); own < 0 || later < own {
					return j
				}
			}
		}
	}
	return -1
}

// stillBuffered reports whether the write of engine step i is in p's
// buffers before engine step j.
func (t *tracer) stillBuffered(j, p, i int) bool {
	for bi, b := range t.before[j] {
		if t.owner(bi) != p {
			continue
		}
		for _, e := range b {
			if e.step == i {
				return true
			}
		}
	}
	return false
}

// bufferedBefore reports whether p has a write of x buffered before engine
// step j (a read of x is then served by the buffer: no reordering).
func (t *tracer) bufferedBefore(j, p, x int) bool {
	for bi, b := range t.before[j] {
		if t.owner(bi) != p {
			continue
		}
		for _, e := range b {
			if e.x == x {
				return true
			}
		}
	}
	return false
}

// owner is the process of buffer bi.
func (t *tracer) owner(bi int) int {
	if t.m.Layout() == memmodel.PerVariable {
		return bi / t.c.NumShared()
	}
	return bi
}

// flushStep returns the engine step at which the write of engine step i
// (a write of process p) reaches memory, or -1 when it does not in the
// trace.
func (t *tracer) flushStep(i, p int) int {
	for j := i + 1; j < len(t.tr.Steps) && j < len(t.before); j++ {
		st := t.tr.Steps[j]
		if st.Proc != p || !st.IsFlush() {
			continue
		}
		// A flush moves the oldest entry of the buffer of its variable
		// (under TSO, of the process) to memory.
		if b := t.before[j][t.bufIndex(p, st.Var)]; len(b) > 0 && b[0].step == i {
			return j
		}
	}
	return -1
}

// flushRow returns the row where the write of engine step i reaches
// memory (0 if not in the trace).
func (t *tracer) flushRow(i, p int) int {
	if j := t.flushStep(i, p); j >= 0 && t.rowOf[j] >= 0 {
		return t.rowOf[j] + 1
	}
	return 0
}

// pendingOf returns the buffered entry that engine step i wrote.
func (t *tracer) pendingOf(i int) (pending, bool) {
	if i+1 < len(t.before) {
		for _, b := range t.before[i+1] {
			for _, e := range b {
				if e.step == i {
					return e, true
				}
			}
		}
	}
	// The last step: look in the buffers after it.
	for _, b := range t.bufs {
		for _, e := range b {
			if e.step == i {
				return e, true
			}
		}
	}
	return pending{}, false
}

// reorderingAt describes the reordering of the write at engine step i
// with a later step of its process, or returns nil.
func (t *tracer) reorderingAt(i int) *Reordering {
	st := t.tr.Steps[i]
	if st.IsFlush() {
		return nil
	}
	p := st.Proc
	e := t.sys.Procs[p].Edges[st.Edge]
	if e.Op.Kind != cs.OpWrite {
		return nil
	}
	w, ok := t.pendingOf(i)
	if !ok {
		return nil
	}
	j := t.overtaken(i, p, w)
	if j < 0 || t.rowOf[i] < 0 || t.rowOf[j] < 0 {
		return nil
	}
	wr, lr := t.rows[t.rowOf[i]], t.rows[t.rowOf[j]]
	r := &Reordering{
		Process: wr.Process,
		Write:   StepRef{Step: wr.Step, Line: wr.Line, Statement: wr.Statement, Variable: wr.Variable, Value: *wr.Value},
		Later:   StepRef{Step: lr.Step, Line: lr.Line, Statement: lr.Statement, Variable: lr.Variable, Value: *lr.Value},
	}
	r.FlushedAt = t.flushRow(i, p)
	proc := wr.Process
	r.Description = fmt.Sprintf("%s's write %s = %d (line %d) is still in its store buffer when %s ", proc, wr.Variable, *wr.Value, wr.Line, proc)
	if lr.Action == "read" {
		r.Kind = "write-read"
		r.Description += fmt.Sprintf("reads %s = %d from memory (line %d)", lr.Variable, *lr.Value, lr.Line)
	} else {
		r.Kind = "write-write"
		r.Description += fmt.Sprintf("writes %s = %d (line %d)", lr.Variable, *lr.Value, lr.Line)
		r.LaterFlush = t.flushRow(j, p)
		if r.LaterFlush > 0 && (r.FlushedAt == 0 || r.LaterFlush < r.FlushedAt) {
			r.Description += fmt.Sprintf(", which reaches memory first (step %d)", r.LaterFlush)
		}
	}
	return r
}

// fenceReordering is the reordering that the fence at site forbids in its
// witness: the first step that passes the site (a program point,
// cs.Edge.Points) whose write a later step of its process overtakes (the
// fence would wait for the buffer there).
func (t *tracer) fenceReordering(site int) *Reordering {
	for i, st := range t.tr.Steps {
		if st.IsFlush() {
			continue
		}
		e := t.sys.Procs[st.Proc].Edges[st.Edge]
		if e.Op.Kind != cs.OpWrite || !slices.Contains(e.Points, site) {
			continue
		}
		if r := t.reorderingAt(i); r != nil {
			return r
		}
	}
	return t.waitAt(site)
}

// waitAt is the weaker description when no write at site is overtaken by
// a read or write: the first write at site that is still buffered (it or
// an older write of its process) when its process takes its next shown
// step. That is where the fence would wait (fences.Candidates).
func (t *tracer) waitAt(site int) *Reordering {
	steps := t.tr.Steps
	for i, st := range steps {
		if st.IsFlush() || !slices.Contains(t.sys.Procs[st.Proc].Edges[st.Edge].Points, site) || t.rowOf[i] < 0 {
			continue
		}
		p := st.Proc
		for j := i + 1; j < len(steps); j++ {
			if steps[j].Proc != p || steps[j].IsFlush() {
				continue
			}
			if t.rowOf[j] < 0 {
				continue // a step no row shows: look at the next one
			}
			if !t.anyBuffered(j, p) {
				break
			}
			wr, lr := t.rows[t.rowOf[i]], t.rows[t.rowOf[j]]
			if wr.Value == nil {
				break // the point is not right after a write: no write to name
			}
			r := &Reordering{
				Process: wr.Process, Kind: "write-other",
				Write: StepRef{Step: wr.Step, Line: wr.Line, Statement: wr.Statement, Variable: wr.Variable, Value: *wr.Value},
				Later: StepRef{Step: lr.Step, Line: lr.Line, Statement: lr.Statement},
			}
			r.FlushedAt = t.flushRow(i, p)
			r.Description = fmt.Sprintf("%s's write %s = %d (line %d) may still be in its store buffer when %s goes on to %s (line %d)",
				wr.Process, wr.Variable, *wr.Value, wr.Line, wr.Process, lr.Statement, lr.Line)
			return r
		}
	}
	return nil
}

// anyBuffered reports whether p has a buffered write before engine step j.
func (t *tracer) anyBuffered(j, p int) bool {
	for bi, b := range t.before[j] {
		if t.owner(bi) == p && len(b) > 0 {
			return true
		}
	}
	return false
}

// reorderings lists every reordering of the trace, in the order of the
// writes (empty under SC).
func (t *tracer) reorderings() []Reordering {
	out := []Reordering{}
	for i := range t.tr.Steps {
		if r := t.reorderingAt(i); r != nil {
			out = append(out, *r)
		}
	}
	return out
}

// explained is a trace with its reorderings, built once for the report
// and the text.
type explained struct {
	trace  *Trace
	tracer *tracer
}

func explainWitness(w *cegar.Witness) *explained {
	if w == nil {
		return nil
	}
	t := newTracer(w.Sys, w.Model, w.Trace, w.States)
	rep := t.build()
	rep.Reorderings = t.reorderings()
	return &explained{trace: rep, tracer: t}
}

// PrintFenceExplanations writes, per fence, what it forbids and its
// witness trace (insert --explain).
func PrintFenceExplanations(w io.Writer, name string, rep *Report, lay Layout) {
	for i, f := range rep.Fences {
		what := "after"
		if f.Kind == "store" {
			what = "fence store; after"
		}
		fmt.Fprintf(w, "\nfence %d of %d: %s:%d: %s %s\n", i+1, len(rep.Fences), name, f.Line, what, f.Statement)
		if f.Witness == nil {
			fmt.Fprintf(w, "  no counterexample needs it: it makes the program robust (every %s run equivalent to an SC run)\n", rep.Model)
			continue
		}
		if f.Reordering != nil {
			fmt.Fprintf(w, "  forbids: %s\n", f.Reordering.Description)
		}
		fmt.Fprintf(w, "  a run under %s that goes wrong without it (%s):\n", strings.ToUpper(rep.Model), plural(len(f.Witness.Steps), "step"))
		PrintTrace(w, name, f.Witness, lay)
	}
}

// PrintTraceExplanation writes the reorderings a trace to a bad state
// depends on (verify --explain, insert --explain on an SC bug).
func PrintTraceExplanation(w io.Writer, model string, rs []Reordering) {
	if len(rs) == 0 {
		if model == "sc" {
			fmt.Fprintln(w, "why: the trace is a run under SC (no write waits in a store buffer): no fence can prevent it")
		} else {
			fmt.Fprintln(w, "why: no write in this trace is overtaken by a later read (or, under PSO, write) of another variable by its process")
		}
		return
	}
	fmt.Fprintln(w, "why: in this trace a later step of the same process overtakes these writes (a fence right after the write forbids each):")
	for _, r := range rs {
		fmt.Fprintf(w, "  - %s\n", r.Description)
	}
}

// ExplainCorrect says what a correct verdict covers: the properties
// checked, and how it was proved.
func ExplainCorrect(w io.Writer, sys *cs.System, r *cegar.Result) {
	props := Properties(sys)
	if len(props) == 0 {
		fmt.Fprintln(w, "why: the program states no property (no assert, forbidden or mutex): every run is correct")
		return
	}
	fmt.Fprintf(w, "why: no run under %s reaches a bad state of these properties:\n", Upper(r.Model))
	for _, p := range props {
		fmt.Fprintf(w, "  - %s\n", p)
	}
	if r.Stats.Robust != "" {
		fmt.Fprintf(w, "proof: correct under SC, and %s\n", r.Stats.Robust)
	} else {
		fmt.Fprintf(w, "proof: the abstraction with %s (k=%d) has no reachable bad state\n", plural(r.Stats.Predicates, "predicate"), r.Stats.K)
	}
}

// Properties lists the properties of sys in source order: each assert,
// forbidden and mutex, with its line.
func Properties(sys *cs.System) []string {
	ix := newSourceIndex(sys)
	if ix == nil {
		return nil
	}
	type prop struct {
		pos  cs.Pos
		text string
	}
	var ps []prop
	for _, s := range ix.stmts {
		if a, ok := s.(*cs.AssertStmt); ok {
			ps = append(ps, prop{a.Pos(), ix.text(a.Pos(), a.End())})
		}
		if a, ok := s.(*cs.AtomicStmt); ok {
			cs.Inspect(a, func(n cs.Node) bool {
				if x, ok := n.(*cs.AssertStmt); ok {
					ps = append(ps, prop{x.Pos(), ix.text(x.Pos(), x.End())})
				}
				return true
			})
		}
	}
	for _, d := range ix.decls {
		switch d.(type) {
		case *cs.MutexDecl, *cs.ForbiddenDecl:
			ps = append(ps, prop{d.Pos(), ix.text(d.Pos(), d.End())})
		}
	}
	sort.Slice(ps, func(i, j int) bool { return ps[i].pos < ps[j].pos })
	out := make([]string, len(ps))
	for i, p := range ps {
		out[i] = fmt.Sprintf("%s (line %d)", strings.TrimSuffix(p.text, ";"), ix.line(p.pos))
	}
	return out
}
