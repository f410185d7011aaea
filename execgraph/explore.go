package execgraph

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"

	"fencer/cs"
	"fencer/expr"
	"fencer/memmodel"
)

// DefaultUnroll is the default bound on loops: a run passes each control
// location at most this many times.
const DefaultUnroll = 3

// Options bound the exploration.
type Options struct {
	// Unroll bounds every loop: a run passes each location at most Unroll
	// times (0: DefaultUnroll).
	Unroll int
	// MaxChecks bounds the candidate executions checked (0: 2,000,000).
	MaxChecks int
	// MaxPaths bounds the paths enumerated per process (0: 50,000).
	MaxPaths int
	// Changes are the fences and raises to check the program with.
	Changes Changes
	// NoDeps: dependencies order nothing (a C program: the compiler may
	// remove them).
	NoDeps bool
}

func (o *Options) defaults() {
	if o.Unroll <= 0 {
		o.Unroll = DefaultUnroll
	}
	if o.MaxChecks <= 0 {
		o.MaxChecks = 2_000_000
	}
	if o.MaxPaths <= 0 {
		o.MaxPaths = 50_000
	}
}

// Verdict is what the exploration found.
type Verdict uint8

const (
	// NoBad: no execution the model allows reaches a bad state, among the
	// runs within the bound (Result.Bounded says whether one was cut).
	NoBad Verdict = iota
	// Bad: an execution the model allows, and SC does not, reaches a bad
	// state (Result.Witness).
	Bad
	// SCBug: an SC execution reaches a bad state: no fence can help.
	SCBug
	// Unknown: a limit was hit (Result.Reason).
	Unknown
)

var verdictNames = [...]string{"no-bad", "bad", "sc-bug", "unknown"}

func (v Verdict) String() string { return verdictNames[v] }

// Result is the answer of Explore.
type Result struct {
	Verdict Verdict
	Witness *Execution
	// Bounded: some run was cut by the unroll bound, so NoBad holds only
	// for runs within it.
	Bounded bool
	// Approx: a nondeterministic value (r = *) was drawn from a finite
	// set of interesting values, so NoBad holds only for those.
	Approx bool
	Unroll int
	Reason string
	Checks int // candidate executions checked
}

// Explorer holds the runs of a program, enumerated once: changes (fences,
// raises) change no run, so Check can be called with several.
type Explorer struct {
	sys    *cs.System
	m      memmodel.Model
	opt    Options
	runs   [][]*Run // per process: every prefix kept
	inits  map[string][]int64
	cut    bool
	approx bool
	scDone *Result // the SC check, made once
	// choices are, per target, the runs each process may take
	// (choices), smallest first: the same for every Check.
	choices [][][]*Run
}

// New enumerates the runs of sys under the bound of opt. An error is a
// program the explorer cannot run (an atomic step over two variables, a
// value out of range, a nondeterministic initial value).
func New(ctx context.Context, sys *cs.System, m memmodel.Model, opt Options) (*Explorer, error) {
	if m.Axioms() == nil {
		return nil, fmt.Errorf("execgraph: %s is not an axiomatic model", m.Name())
	}
	opt.defaults()
	e := &Explorer{sys: sys, m: m, opt: opt, inits: map[string][]int64{}}
	values := map[string][]int64{}
	havoc := havocValues(sys)
	for _, v := range sys.Shared {
		switch {
		case !v.Init.Nondet:
			e.inits[v.Name] = []int64{v.Init.Value}
		case v.Init.Values(64) != nil:
			e.inits[v.Name] = v.Init.Values(64)
		default:
			// any integer: the interesting values, as for r = *
			e.inits[v.Name] = havoc
			e.approx = true
		}
		values[v.Name] = append([]int64(nil), e.inits[v.Name]...)
	}
	// The values a read may return: the initial ones, then every value a
	// run writes, until no run writes a new one, or for as many rounds as
	// an execution has writes: a value first written in round k needs a
	// chain of k writes, each reading the one before (the models forbid
	// values out of thin air: dependencies are ordered), so a value of a
	// later round is written by no execution.
	for round := 0; ; round++ {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		e.runs = make([][]*Run, len(sys.Procs))
		e.cut = false
		grew := false
		for p := range sys.Procs {
			r := &runner{sys: sys, proc: sys.Procs[p], values: values, havoc: havoc, unroll: opt.Unroll,
				budget: opt.MaxPaths, ctx: ctx}
			r.start()
			if r.err != nil {
				if errors.Is(r.err, errBudget) {
					return nil, fmt.Errorf("process %s has more than %d paths within the unroll bound", sys.Procs[p].Name, opt.MaxPaths)
				}
				return nil, r.err
			}
			e.runs[p] = r.out
			e.cut = e.cut || r.cut
			e.approx = e.approx || r.approx
			for _, run := range r.out {
				for _, ev := range run.Events {
					if ev.Kind == Write && !contains(values[ev.Var], ev.Val) {
						values[ev.Var] = append(values[ev.Var], ev.Val)
						grew = true
					}
				}
			}
		}
		if !grew || round > e.maxWrites() {
			break
		}
	}
	return e, nil
}

// maxWrites bounds the write events of one execution: per process the
// most writes of a run.
func (e *Explorer) maxWrites() int {
	total := 0
	for _, runs := range e.runs {
		most := 0
		for _, r := range runs {
			n := 0
			for _, ev := range r.Events {
				if ev.Kind == Write {
					n++
				}
			}
			most = max(most, n)
		}
		total += most
	}
	return total
}

func contains(xs []int64, v int64) bool {
	for _, x := range xs {
		if x == v {
			return true
		}
	}
	return false
}

// havocValues are the values "r = *" and "shared y = *" may take: every
// constant of the program, each plus and minus one, and 0, 1 and -1 (as
// the reference semantics draws them).
func havocValues(sys *cs.System) []int64 {
	set := map[int64]bool{0: true, 1: true, -1: true}
	add := func(v int64) {
		set[v], set[v-1], set[v+1] = true, true, true
	}
	var walk func(op cs.Op)
	walk = func(op cs.Op) {
		if op.Val != nil {
			expr.Walk(op.Val, func(x expr.Expr) {
				if v, ok := expr.IntValue(x); ok {
					add(v)
				}
			})
		}
		for _, b := range op.Body {
			walk(b)
		}
	}
	for _, v := range sys.Shared {
		if !v.Init.Nondet {
			add(v.Init.Value)
		}
	}
	for _, p := range sys.Procs {
		for _, e := range p.Edges {
			walk(e.Op)
		}
	}
	var out []int64
	for v := range set {
		out = append(out, v)
	}
	sort.Slice(out, func(i, j int) bool { return out[i] < out[j] })
	return out
}

// target is one bad state: the processes that must stand at given
// locations; the others may be anywhere.
type target struct {
	procs []int
	locs  []cs.Loc
}

func (e *Explorer) targets() []target {
	var ts []target
	for p, proc := range e.sys.Procs {
		if proc.ErrLoc >= 0 {
			ts = append(ts, target{[]int{p}, []cs.Loc{proc.ErrLoc}})
		}
	}
	for _, b := range e.sys.Bad {
		ts = append(ts, target{b.Procs, b.Locs})
	}
	return ts
}

// Explore looks for an execution of sys under m that reaches a bad state,
// with opt.Changes installed.
func Explore(ctx context.Context, sys *cs.System, m memmodel.Model, opt Options) (*Result, error) {
	e, err := New(ctx, sys, m, opt)
	if err != nil {
		return nil, err
	}
	return e.Check(ctx, opt.Changes)
}

// Check looks for a bad execution with changes ch installed: first one
// that SC allows (SCBug: no change can forbid it), then one the model
// allows (Bad).
func (e *Explorer) Check(ctx context.Context, ch Changes) (*Result, error) {
	if e.scDone == nil {
		r, err := e.check(ctx, ch, true)
		if err != nil {
			return nil, err
		}
		e.scDone = r
	}
	if e.scDone.Verdict != NoBad {
		r := *e.scDone
		return &r, nil
	}
	return e.check(ctx, ch, false)
}

func (e *Explorer) check(ctx context.Context, ch Changes, sc bool) (*Result, error) {
	res := &Result{Bounded: e.cut, Approx: e.approx, Unroll: e.opt.Unroll}
	if e.choices == nil {
		for _, t := range e.targets() {
			e.choices = append(e.choices, e.choicesOf(t))
		}
	}
	for ti, choices := range e.choices {
		found, err := e.search(ctx, choices, ch, sc, res)
		if err != nil {
			return nil, err
		}
		if res.Verdict == Unknown {
			return res, nil
		}
		if found != nil {
			found.target = ti
			res.Verdict, res.Witness = Bad, found
			if sc {
				res.Verdict = SCBug
			}
			return res, nil
		}
	}
	return res, nil
}

// choicesOf are, per process, the run prefixes a bad execution of t may
// take, smallest first: for a process of t those that stop at its
// location; for another one the empty run and those that end right after
// a write (reads and fences after a process's last write only constrain
// the execution, so a bad state reached with them is reached without
// them).
func (e *Explorer) choicesOf(t target) [][]*Run {
	out := make([][]*Run, len(e.sys.Procs))
	for p := range e.sys.Procs {
		at := cs.Loc(-1)
		for i, q := range t.procs {
			if q == p {
				at = t.locs[i]
			}
		}
		seen := map[string]bool{}
		if at < 0 {
			out[p] = append(out[p], nil)
		}
		for _, r := range e.runs[p] {
			if at >= 0 {
				if r.End == at {
					out[p] = append(out[p], r)
				}
				continue
			}
			n := len(r.Events)
			if n == 0 || r.Events[n-1].Kind != Write {
				continue
			}
			if k := runKey(r); !seen[k] {
				seen[k] = true
				out[p] = append(out[p], r)
			}
		}
		sort.SliceStable(out[p], func(i, j int) bool { return runLen(out[p][i]) < runLen(out[p][j]) })
	}
	return out
}

// runKey identifies a run by its events and the fences and sites between
// them (what an execution of it depends on).
func runKey(r *Run) string {
	var b strings.Builder
	for i, ev := range r.Events {
		fmt.Fprintf(&b, "%d%v%d/%d,%d,%v,%x,%x,%x;", ev.Kind, ev.Var, ev.Val, ev.Edge, ev.RMW, ev.Ann, ev.Addr, ev.Data, ev.Ctrl)
		fmt.Fprintf(&b, "%v%v|", r.Gaps[i].fences, r.Gaps[i].sites)
	}
	return b.String()
}

// search tries every combination of choices, smallest first, for an
// execution the model allows (SC allows, when sc), and returns the first.
func (e *Explorer) search(ctx context.Context, choices [][]*Run, ch Changes, sc bool, res *Result) (*Execution, error) {
	for _, c := range choices {
		if len(c) == 0 {
			return nil, nil
		}
	}
	pick := make([]*Run, len(choices))
	var found *Execution
	combos := 0
	var rec func(p int) error
	rec = func(p int) error {
		if p == len(choices) {
			if combos++; combos%1024 == 0 {
				if err := ctx.Err(); err != nil {
					return err
				}
			}
			x, err := e.checkCombo(ctx, append([]*Run(nil), pick...), ch, sc, res)
			found = x
			return err
		}
		for _, r := range choices[p] {
			pick[p] = r
			if err := rec(p + 1); err != nil || found != nil || res.Verdict == Unknown {
				return err
			}
		}
		return nil
	}
	err := rec(0)
	return found, err
}

func runLen(r *Run) int {
	if r == nil {
		return 0
	}
	return len(r.Events)
}

// checkCombo returns an execution of the runs that the model allows with
// ch (that SC allows, when sc), or nil.
func (e *Explorer) checkCombo(ctx context.Context, runs []*Run, ch Changes, sc bool, res *Result) (*Execution, error) {
	c := newCombo(runs, e.inits)
	per := make([][]varChoice, len(c.vars))
	for i, x := range c.vars {
		cs, ok := c.coherentChoices(x, e.opt.MaxChecks)
		if !ok {
			res.Verdict, res.Reason = Unknown, fmt.Sprintf("more than %d coherence orders of %s", e.opt.MaxChecks, x)
			return nil, nil
		}
		if len(cs) == 0 {
			return nil, nil
		}
		per[i] = cs
	}
	var st [][]int // the model's static order (SC needs none)
	if !sc {
		st = c.ordered(e.m, ch, e.opt.NoDeps)
	}
	x := &Execution{c: c, RF: make([]int, len(c.nodes)), CO: map[string][]int{}}
	var found *Execution
	var rec func(i int) error
	rec = func(i int) error {
		if i == len(per) {
			res.Checks++
			if res.Checks%4096 == 0 {
				if err := ctx.Err(); err != nil {
					return err
				}
			}
			if res.Checks > e.opt.MaxChecks {
				res.Verdict, res.Reason = Unknown, fmt.Sprintf("more than %d candidate executions", e.opt.MaxChecks)
				return errStop
			}
			if sc && x.sc() || !sc && x.allows(e.m, st, e.opt.NoDeps) {
				found = x.clone()
				return errStop
			}
			return nil
		}
		for _, vc := range per[i] {
			x.CO[c.vars[i]] = vc.co
			for r, w := range vc.rf {
				x.RF[r] = w
			}
			if err := rec(i + 1); err != nil {
				return err
			}
		}
		return nil
	}
	if err := rec(0); err != nil && err != errStop {
		return nil, err
	}
	return found, nil
}

var errStop = errors.New("stop")

func (x *Execution) clone() *Execution {
	y := &Execution{c: x.c, RF: append([]int(nil), x.RF...), CO: map[string][]int{}}
	for k, v := range x.CO {
		y.CO[k] = append([]int(nil), v...)
	}
	return y
}

// Allows reports whether the model allows x with changes ch (the runs of
// x with the fences and raises of ch): what insertion asks of every bad
// execution it has found.
func (e *Explorer) Allows(x *Execution, ch Changes) bool {
	return x.allows(e.m, x.c.ordered(e.m, ch, e.opt.NoDeps), e.opt.NoDeps)
}

// PassedSites lists, per process of x, the fence sites its run passes
// between its first and its last access: where a fence can order two of
// them.
func (x *Execution) PassedSites() [][]int {
	out := make([][]int, len(x.c.runs))
	for p, r := range x.c.runs {
		if r == nil {
			continue
		}
		for i := 1; i < len(r.Events); i++ {
			out[p] = append(out[p], r.Gaps[i].sites...)
		}
	}
	return out
}

// PlainAccesses lists the accesses of x's events that carry no annotation.
func (x *Execution) PlainAccesses() []Access {
	var out []Access
	for _, n := range x.c.nodes {
		if n.ev.Ann == 0 && n.ev.RMW < 0 {
			out = append(out, Access{n.proc, n.ev.Edge})
		}
	}
	return out
}

// Unsupported returns why the axiomatic models give sys no meaning, or
// nil: an atomic step over two variables (no instruction of these
// machines does that). Every verdict under them, the explorer's or the
// robustness proof's, needs nil.
func Unsupported(sys *cs.System) error {
	for _, p := range sys.Procs {
		for _, e := range p.Edges {
			if e.Op.Kind == cs.OpAtomic {
				if _, err := atomicVar(sys, e); err != nil {
					return err
				}
			}
		}
	}
	return nil
}
