package execgraph

import (
	"context"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"fencer/cs"
	"fencer/expr"
)

// Kind is the kind of an event.
type Kind uint8

const (
	Read Kind = iota
	Write
)

func (k Kind) op() cs.OpKind {
	if k == Read {
		return cs.OpRead
	}
	return cs.OpWrite
}

// Event is one access of a run: a read or a write of one shared variable
// with its value. A read-modify-write (an OpAtomic step) is a read event
// followed by a write event of the same variable, the pair joined by RMW.
type Event struct {
	Kind Kind
	Var  string
	Val  int64
	Ann  cs.Ann
	// RMW is the index in the run of the other event of a
	// read-modify-write, or -1.
	RMW int
	// Edge is the edge of the process the access belongs to; Pos its
	// source position.
	Edge int
	Pos  cs.Pos
	// Dependencies: the earlier read events of the run (bit i: event i)
	// that the address, the written value, and the branches taken before
	// this event depend on.
	Addr, Data, Ctrl deps
}

// deps is a set of event indices of one run (at most maxEvents).
type deps uint64

const maxEvents = 64

func (d deps) has(i int) bool { return d&(1<<uint(i)) != 0 }

// gap is what a run passes between two of its events: the fences of the
// program it executes there and the fence sites it passes.
type gap struct {
	fences []cs.FenceKind
	sites  []int
}

// Run is a path of one process from its initial location, with the
// values its reads returned.
type Run struct {
	Events []Event
	// Gaps[i] is what the run passes before event i (Gaps[len(Events)]:
	// after the last one).
	Gaps []gap
	// End is the location the run stops at.
	End cs.Loc
}

// runner enumerates the runs of one process.
type runner struct {
	sys    *cs.System
	proc   *cs.Process
	values map[string][]int64 // the values a read of each variable may return
	havoc  []int64            // the values r = * may take
	unroll int
	// out collects every prefix of every path, cut is set when a path
	// was stopped by the unroll bound, err on an evaluation error.
	out    []*Run
	cut    bool
	approx bool // a nondeterministic value was drawn from a finite set
	err    error
	budget int
	ctx    context.Context
}

// frame is the state of a path of the enumeration.
type frame struct {
	loc    cs.Loc
	env    map[string]int64
	taint  map[string]deps
	ctrl   deps
	events []Event
	gaps   []gap
	visits map[cs.Loc]int
	// seen are the (location, locals) the path passed since its last
	// write: coming back to one is an iteration with no visible effect.
	seen map[string]bool
}

func (r *runner) localKey(f *frame) string {
	names := make([]string, 0, len(f.env))
	for n := range f.env {
		names = append(names, n)
	}
	sort.Strings(names)
	var b strings.Builder
	b.WriteString(strconv.Itoa(int(f.loc)))
	for _, n := range names {
		b.WriteByte(' ')
		b.WriteString(strconv.FormatInt(f.env[n], 10))
	}
	return b.String()
}

func (f *frame) clone() *frame {
	g := *f
	g.env = make(map[string]int64, len(f.env))
	for k, v := range f.env {
		g.env[k] = v
	}
	g.taint = make(map[string]deps, len(f.taint))
	for k, v := range f.taint {
		g.taint[k] = v
	}
	g.events = append([]Event(nil), f.events...)
	g.gaps = cloneGaps(f.gaps)
	g.visits = make(map[cs.Loc]int, len(f.visits))
	for k, v := range f.visits {
		g.visits[k] = v
	}
	g.seen = make(map[string]bool, len(f.seen))
	for k := range f.seen {
		g.seen[k] = true
	}
	return &g
}

func (r *runner) start() {
	f := &frame{loc: 0, env: map[string]int64{}, taint: map[string]deps{}, gaps: []gap{{}},
		visits: map[cs.Loc]int{}, seen: map[string]bool{}}
	for _, l := range r.proc.Locals {
		f.env[l.Name] = l.Init.Value
	}
	r.walk(f)
}

// walk explores every continuation of f, depth first.
func (r *runner) walk(f *frame) {
	if r.err != nil {
		return
	}
	if r.budget--; r.budget < 0 {
		r.err = errBudget
		return
	}
	if r.budget%1024 == 0 && r.ctx != nil {
		if err := r.ctx.Err(); err != nil {
			r.err = err
			return
		}
	}
	f.visits[f.loc]++
	if f.visits[f.loc] > r.unroll {
		r.cut = true
		return
	}
	key := r.localKey(f)
	if f.seen[key] {
		// Spin rule: the path came back to this location with the same
		// locals and wrote nothing since; whatever follows, the path that
		// skipped the iteration also reaches (doc.go: the spin rule).
		return
	}
	f.seen[key] = true
	r.out = append(r.out, &Run{Events: append([]Event(nil), f.events...), Gaps: cloneGaps(f.gaps), End: f.loc})
	if f.loc == r.proc.ErrLoc {
		return
	}
	for _, ei := range r.proc.Out[f.loc] {
		r.step(f, ei)
	}
}

func cloneGaps(gs []gap) []gap {
	out := make([]gap, len(gs))
	for i, g := range gs {
		out[i] = gap{append([]cs.FenceKind(nil), g.fences...), append([]int(nil), g.sites...)}
	}
	return out
}

var errBudget = fmt.Errorf("too many paths")

// taintOf is the union of the taints of the locals e mentions.
func taintOf(f *frame, e expr.Expr) deps {
	var d deps
	for _, v := range expr.Vars(e) {
		d |= f.taint[v]
	}
	return d
}

func (r *runner) eval(f *frame, e expr.Expr) (int64, bool) {
	v, err := expr.Eval(e, func(n string) (int64, bool) { x, ok := f.env[n]; return x, ok })
	if err != nil {
		r.err = fmt.Errorf("%s: %v", r.sys.Position(r.proc.LocPos[f.loc]), err)
		return 0, false
	}
	return v, true
}

// advance moves g along edge e, past the fence sites after it, and
// explores on.
func (r *runner) advance(g *frame, e cs.Edge) {
	g.loc = e.To
	last := &g.gaps[len(g.gaps)-1]
	last.sites = append(last.sites, e.Points...)
	r.walk(g)
}

// step takes edge ei from f, once for each value a read or havoc may give.
func (r *runner) step(f *frame, ei int) {
	e := r.proc.Edges[ei]
	op := e.Op
	next := func(g *frame) { r.advance(g, e) }
	switch op.Kind {
	case cs.OpRead:
		for _, v := range r.values[op.Shared] {
			g := f.clone()
			if !r.addEvent(g, Event{Kind: Read, Var: op.Shared, Val: v, Ann: op.Ann & (cs.Acquire | cs.AcquirePC), RMW: -1, Edge: ei, Pos: e.Pos, Addr: addrTaint(g, op)}) {
				return
			}
			g.env[op.Local] = v
			g.taint[op.Local] = 1 << uint(len(g.events)-1)
			next(g)
		}
	case cs.OpWrite:
		v, ok := r.eval(f, op.Val)
		if !ok {
			return
		}
		g := f.clone()
		if !r.addEvent(g, Event{Kind: Write, Var: op.Shared, Val: v, Ann: op.Ann & cs.Release, RMW: -1, Edge: ei, Pos: e.Pos,
			Addr: addrTaint(g, op), Data: taintOf(g, op.Val)}) {
			return
		}
		g.seen = map[string]bool{}
		next(g)
	case cs.OpFence:
		g := f.clone()
		last := &g.gaps[len(g.gaps)-1]
		last.fences = append(last.fences, op.Fence)
		next(g)
	case cs.OpAssign:
		v, ok := r.eval(f, op.Val)
		if !ok {
			return
		}
		g := f.clone()
		g.env[op.Local] = v
		g.taint[op.Local] = taintOf(f, op.Val)
		next(g)
	case cs.OpHavoc:
		r.approx = true
		for _, v := range r.havoc {
			g := f.clone()
			g.env[op.Local] = v
			g.taint[op.Local] = 0
			next(g)
		}
	case cs.OpAssume:
		v, ok := r.eval(f, op.Val)
		if !ok || v == 0 {
			return
		}
		g := f.clone()
		g.ctrl |= taintOf(f, op.Val)
		next(g)
	case cs.OpAtomic:
		r.atomic(f, ei)
	}
}

func addrTaint(f *frame, op cs.Op) deps {
	var d deps
	for _, l := range op.Addr {
		d |= f.taint[l]
	}
	return d
}

// addEvent appends ev to g's run with g's control dependencies.
func (r *runner) addEvent(g *frame, ev Event) bool {
	if len(g.events) >= maxEvents {
		r.err = fmt.Errorf("process %s: more than %d accesses in one run", r.proc.Name, maxEvents)
		return false
	}
	ev.Ctrl = g.ctrl
	g.events = append(g.events, ev)
	g.gaps = append(g.gaps, gap{})
	return true
}

// atomic takes an OpAtomic edge: its body reads and writes one variable
// (a read-modify-write; a body that only reads is a failed compare and
// swap, one read event). Bodies over several variables have no meaning
// on the weak models' hardware and are refused.
func (r *runner) atomic(f *frame, ei int) {
	e := r.proc.Edges[ei]
	op := e.Op
	v, err := atomicVar(r.sys, e)
	if err != nil {
		r.err = err
		return
	}
	var reads, writes int
	for _, b := range op.Body {
		switch b.Kind {
		case cs.OpRead:
			reads++
			if writes > 0 {
				r.err = fmt.Errorf("%s: an atomic step that reads after it writes has no meaning on this model", r.sys.Position(e.Pos))
				return
			}
		case cs.OpWrite:
			writes++
		}
	}
	if writes > 1 {
		r.err = fmt.Errorf("%s: an atomic step with two writes has no meaning on this model", r.sys.Position(e.Pos))
		return
	}
	vals := []int64{0}
	if reads > 0 {
		vals = r.values[v]
	}
	for _, val := range vals {
		g := f.clone()
		ri := -1
		ok := true
		var inside deps // what the step's own tests depend on (a compare and swap's)
		for _, b := range op.Body {
			if !ok {
				break
			}
			switch b.Kind {
			case cs.OpRead:
				if ri < 0 {
					if !r.addEvent(g, Event{Kind: Read, Var: v, Val: val, Ann: op.Ann & (cs.Acquire | cs.AcquirePC | cs.NoRet | cs.Pair), RMW: -1, Edge: ei, Pos: e.Pos}) {
						return
					}
					ri = len(g.events) - 1
				}
				g.env[b.Local] = val
				g.taint[b.Local] = 1 << uint(ri)
			case cs.OpWrite:
				x, good := r.eval(g, b.Val)
				if !good {
					return
				}
				// The write depends on the step's read through its value
				// (fetch_add) or its test (cas), not for swap: herd's
				// intrinsic dependencies, which Arm's (addr|data);rfi and
				// RVWMO's rule 12 extend through memory.
				if !r.addEvent(g, Event{Kind: Write, Var: v, Val: x, Ann: op.Ann & (cs.Release | cs.Pair), RMW: ri, Edge: ei, Pos: e.Pos, Data: taintOf(g, b.Val) | inside}) {
					return
				}
				if ri >= 0 {
					g.events[ri].RMW = len(g.events) - 1
				}
				g.seen = map[string]bool{}
			case cs.OpAssign:
				x, good := r.eval(g, b.Val)
				if !good {
					return
				}
				g.taint[b.Local] = taintOf(g, b.Val)
				g.env[b.Local] = x
			case cs.OpHavoc:
				r.err = fmt.Errorf("%s: a nondeterministic value inside an atomic step is not supported on this model", r.sys.Position(e.Pos))
				return
			case cs.OpAssume:
				x, good := r.eval(g, b.Val)
				if !good {
					return
				}
				if x == 0 {
					ok = false
				}
				inside |= taintOf(g, b.Val)
			}
		}
		if ok {
			r.advance(g, e)
		}
	}
}

// atomicVar is the one shared variable the atomic step of edge e reads
// and writes ("" for none), or why the axiomatic models give the step no
// meaning: no instruction of these machines accesses two variables.
func atomicVar(sys *cs.System, e cs.Edge) (string, error) {
	v := ""
	for _, b := range e.Op.Body {
		if (b.Kind == cs.OpRead || b.Kind == cs.OpWrite) && b.Shared != v {
			if v != "" {
				return "", fmt.Errorf("%s: an atomic step over two variables (%s and %s) has no meaning on this model", sys.Position(e.Pos), v, b.Shared)
			}
			v = b.Shared
		}
	}
	return v, nil
}
