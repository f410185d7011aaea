package refsem

import (
	"encoding/binary"
	"errors"
	"fmt"
	"sort"

	"fencer/cs"
)

// Model is a memory model.
type Model uint8

// The memory models of LANGUAGE.md.
const (
	SC Model = iota
	TSO
	PSO
)

func (m Model) String() string { return [...]string{"sc", "tso", "pso"}[m] }

// ParseModel reads "sc", "tso" or "pso".
func ParseModel(s string) (Model, error) {
	for _, m := range []Model{SC, TSO, PSO} {
		if m.String() == s {
			return m, nil
		}
	}
	return 0, fmt.Errorf("unknown memory model %q", s)
}

// Options of one run.
type Options struct {
	// Fences holds the sites (Site.Key) that get a fence; StoreFences those
	// that get a store fence ("fence store;") instead.
	Fences      map[SiteKey]bool
	StoreFences map[SiteKey]bool
	// MaxStates bounds the exploration (0: DefaultMaxStates).
	MaxStates int
}

// DefaultMaxStates is the state limit when Options.MaxStates is 0.
const DefaultMaxStates = 1_000_000

// Result is the outcome of one run.
type Result struct {
	// Bad reports that a bad state is reachable; Trace is then a shortest
	// run to it, one line per step (empty if the initial state is bad).
	Bad   bool
	Trace []string
	// Complete reports that the answer is exact: every reachable state was
	// explored, and no "*" value was approximated by a finite set. A bad
	// state found is always real.
	Complete bool
	// States is the number of distinct states explored.
	States int
}

// ErrOverflow is returned when a value leaves the 64-bit range.
var ErrOverflow = errors.New("refsem: integer overflow")

// entry is a buffered write. Under PSO, gen is the number of store fences
// the process had passed (with a write buffered since the one before) when
// it wrote: a write may reach memory only when no buffered write of its
// process has a smaller gen.
type entry struct {
	v   int
	val int64
	gen int
}

type pstate struct {
	pc  int
	rv  []int64 // the values read so far by the current instruction
	loc []int64
	gen int // PSO: the gen of the process's next write
}

type state struct {
	ps  []pstate
	mem []int64
	buf [][]entry // per process; under PSO sorted by variable, FIFO per variable
	bad bool      // an assert failed
}

// step is one transition, for traces.
type step struct {
	proc  int
	flush bool
	v     int   // flushed or read variable, or -1
	val   int64 // its value
	pc    int   // the instruction executed
}

// Check compiles src and runs it under model ("sc", "tso" or "pso") with a
// fence right after each statement whose offset is listed.
func Check(src []byte, model string, fences ...int) (Result, error) {
	m, err := ParseModel(model)
	if err != nil {
		return Result{}, err
	}
	p, err := Compile("input.cs", src)
	if err != nil {
		return Result{}, err
	}
	set := map[SiteKey]bool{}
	for _, f := range fences {
		for _, s := range p.sites {
			if s.Key.Start == f && !s.Key.Before {
				set[s.Key] = true
			}
		}
	}
	return p.Run(m, Options{Fences: set})
}

// Sites returns the fence sites of the program, by key.
func (p *Program) Sites() []Site { return append([]Site(nil), p.sites...) }

type runner struct {
	p   *Program
	m   Model
	err error
}

// Run explores every state reachable under m, breadth first, and stops at
// the first bad one.
func (p *Program) Run(m Model, o Options) (Result, error) {
	max := o.MaxStates
	if max <= 0 {
		max = DefaultMaxStates
	}
	if m == PSO {
		// A release write orders every access before it: under PSO that
		// is a store fence the write would have to carry, which this
		// semantics (and the engine, memmodel.ForBuffers) does not offer.
		for _, q := range p.procs {
			for _, in := range q.code {
				if in.ann&cs.Release != 0 && in.kind != iCall && in.kind != iAtomic {
					return Result{}, fmt.Errorf("%s: a release write is not supported under pso", p.file.Position(in.pos))
				}
			}
		}
	}
	r := &runner{p: p.withFences(o.Fences, o.StoreFences), m: m}
	var (
		states  []state
		parents []int
		steps   []step
		seen    = map[string]bool{}
	)
	add := func(s state, parent int, st step) bool {
		k := s.key()
		if seen[k] {
			return false
		}
		seen[k] = true
		states = append(states, s)
		parents = append(parents, parent)
		steps = append(steps, st)
		return true
	}
	for _, s := range r.p.initialStates() {
		add(s, -1, step{})
	}
	res := Result{Complete: !r.p.anyVal}
	for i := 0; i < len(states); i++ {
		if r.isBad(states[i]) {
			res.Bad, res.Complete, res.States = true, true, len(states)
			for j := i; parents[j] >= 0; j = parents[j] {
				res.Trace = append(res.Trace, r.describe(steps[j]))
			}
			for a, b := 0, len(res.Trace)-1; a < b; a, b = a+1, b-1 {
				res.Trace[a], res.Trace[b] = res.Trace[b], res.Trace[a]
			}
			return res, nil
		}
		if len(states) >= max {
			res.Complete = false
			break
		}
		r.successors(states[i], func(t state, st step) { add(t, i, st) })
		if r.err != nil {
			return Result{}, r.err
		}
		states[i] = state{} // only the parents are needed from here on
	}
	res.States = len(states)
	return res, nil
}

// initialStates gives every combination of the "*" initial values.
func (p *Program) initialStates() []state {
	s := state{mem: append([]int64(nil), p.init...), buf: make([][]entry, len(p.procs))}
	for _, q := range p.procs {
		s.ps = append(s.ps, pstate{loc: append([]int64(nil), q.linit...)})
	}
	out := []state{s}
	choose := func(get func(state) []int64, any []bool) {
		for k, a := range any {
			if !a {
				continue
			}
			var next []state
			for _, s := range out {
				for _, v := range p.values {
					t := s.clone()
					get(t)[k] = v
					next = append(next, t)
				}
			}
			out = next
		}
	}
	choose(func(s state) []int64 { return s.mem }, p.initAny)
	for pi, q := range p.procs {
		choose(func(s state) []int64 { return s.ps[pi].loc }, q.linitAny)
	}
	return out
}

func (s state) clone() state {
	t := state{ps: make([]pstate, len(s.ps)), mem: append([]int64(nil), s.mem...), buf: make([][]entry, len(s.buf)), bad: s.bad}
	for i, q := range s.ps {
		t.ps[i] = pstate{pc: q.pc, rv: append([]int64(nil), q.rv...), loc: append([]int64(nil), q.loc...)}
	}
	for i, b := range s.buf {
		t.buf[i] = append([]entry(nil), b...)
	}
	return t
}

func (s state) key() string {
	b := make([]byte, 0, 64)
	if s.bad {
		b = append(b, 1)
	} else {
		b = append(b, 0)
	}
	for _, q := range s.ps {
		b = binary.AppendVarint(b, int64(q.pc))
		b = binary.AppendVarint(b, int64(len(q.rv)))
		for _, v := range q.rv {
			b = binary.AppendVarint(b, v)
		}
		for _, v := range q.loc {
			b = binary.AppendVarint(b, v)
		}
		b = binary.AppendVarint(b, int64(q.gen))
	}
	for _, v := range s.mem {
		b = binary.AppendVarint(b, v)
	}
	for _, q := range s.buf {
		b = binary.AppendVarint(b, int64(len(q)))
		for _, e := range q {
			b = binary.AppendVarint(b, int64(e.v))
			b = binary.AppendVarint(b, e.val)
			b = binary.AppendVarint(b, int64(e.gen))
		}
	}
	return string(b)
}

// isBad: an assert failed, or every process of a forbidden combination is
// at its label (at the labelled instruction, before its first read).
func (r *runner) isBad(s state) bool {
	if s.bad {
		return true
	}
	for _, combo := range r.p.bad {
		all := true
		for _, pt := range combo {
			q := s.ps[pt.proc]
			if q.pc != pt.pc || len(q.rv) > 0 {
				all = false
				break
			}
		}
		if all {
			return true
		}
	}
	return false
}

// read returns what process i reads from shared variable v.
func (r *runner) read(s state, i, v int) int64 {
	b := s.buf[i]
	for k := len(b) - 1; k >= 0; k-- {
		if b[k].v == v {
			return b[k].val
		}
	}
	return s.mem[v]
}

// write makes process i write val to v in t (t is already a copy).
func (r *runner) write(t *state, i, v int, val int64) {
	switch r.m {
	case SC:
		t.mem[v] = val
	case TSO:
		// a fresh slice: the old one may be shared with other states
		b := t.buf[i]
		nb := make([]entry, 0, len(b)+1)
		t.buf[i] = append(append(nb, b...), entry{v: v, val: val})
	case PSO:
		gen := 0
		if i < len(t.ps) {
			gen = t.ps[i].gen
		}
		b := t.buf[i]
		k := sort.Search(len(b), func(k int) bool { return b[k].v > v })
		nb := make([]entry, 0, len(b)+1)
		nb = append(nb, b[:k]...)
		nb = append(nb, entry{v, val, gen})
		t.buf[i] = append(nb, b[k:]...)
	}
}

func (r *runner) eval(e *expr, rv, loc, mem []int64) int64 {
	switch e.kind {
	case eConst:
		return e.val
	case eLocal:
		return loc[e.idx]
	case eRead:
		return rv[e.idx]
	case eShared:
		return mem[e.idx]
	case eUnary:
		v, ok := unop(e.op, r.eval(e.x, rv, loc, mem))
		if !ok && r.err == nil {
			r.err = ErrOverflow
		}
		return v
	case eBinary:
		x := r.eval(e.x, rv, loc, mem)
		y := r.eval(e.y, rv, loc, mem)
		v, ok := binop(e.op, x, y)
		if !ok && r.err == nil {
			r.err = ErrOverflow
		}
		return v
	}
	panic("refsem: bad expression")
}

// with returns a copy of s where process i has pc, no read values, and the
// locals loc (copied from s if nil).
func with(s state, i, pc int, rv, loc []int64) state {
	t := s
	t.ps = append([]pstate(nil), s.ps...)
	if loc == nil {
		loc = s.ps[i].loc
	}
	t.ps[i] = pstate{pc: pc, rv: rv, loc: loc, gen: s.ps[i].gen}
	return t
}

func (t *state) ownMem() { t.mem = append([]int64(nil), t.mem...) }
func (t *state) ownBuf() { t.buf = append([][]entry(nil), t.buf...) }

// successors calls f on every successor of s.
func (r *runner) successors(s state, f func(state, step)) {
	if s.bad {
		return
	}
	for i := range s.ps {
		r.flushes(s, i, f)
		r.procStep(s, i, f)
	}
}

// flushes: the oldest buffered write of process i (under PSO, of each
// variable) reaches memory.
func (r *runner) flushes(s state, i int, f func(state, step)) {
	b := s.buf[i]
	low := 0
	for k, e := range b {
		if k == 0 || e.gen < low {
			low = e.gen
		}
	}
	for k := range b {
		if r.m == PSO && k > 0 && b[k-1].v == b[k].v {
			continue // not the oldest of its variable
		}
		if r.m == TSO && k > 0 {
			break
		}
		if b[k].gen != low {
			continue // a write before a store fence is still buffered
		}
		t := s
		t.ownMem()
		t.ownBuf()
		t.mem[b[k].v] = b[k].val
		nb := make([]entry, 0, len(b)-1)
		nb = append(nb, b[:k]...)
		t.buf[i] = append(nb, b[k+1:]...)
		r.renumber(&t, i)
		f(t, step{proc: i, flush: true, v: b[k].v, val: b[k].val})
	}
}

// renumber keeps the gens of process i small: the lowest buffered one
// becomes 0 (and the process's own with it), so that equal situations are
// equal states.
func (r *runner) renumber(t *state, i int) {
	b := t.buf[i]
	low := t.ps[i].gen
	for _, e := range b {
		low = min(low, e.gen)
	}
	if low == 0 {
		return
	}
	nb := make([]entry, len(b))
	for k, e := range b {
		e.gen -= low
		nb[k] = e
	}
	t.buf[i] = nb
	t.ps = append([]pstate(nil), t.ps...)
	t.ps[i].gen -= low
}

// storeFence: under PSO the process's next writes get a new gen, if a write
// is buffered since the last store fence; otherwise nothing changes.
func (r *runner) storeFence(t *state, i int) {
	if r.m != PSO {
		return
	}
	for _, e := range t.buf[i] {
		if e.gen == t.ps[i].gen {
			t.ps[i].gen++
			return
		}
	}
}

func (r *runner) procStep(s state, i int, f func(state, step)) {
	q := r.p.procs[i]
	ps := s.ps[i]
	in := &q.code[ps.pc]
	if in.kind == iEnd {
		return
	}
	st := step{proc: i, v: -1, pc: ps.pc}
	if len(ps.rv) < len(in.reads) {
		v := in.reads[len(ps.rv)]
		val := r.read(s, i, v)
		rv := append(append([]int64(nil), ps.rv...), val)
		st.v, st.val = v, val
		f(with(s, i, ps.pc, rv, nil), st)
		return
	}
	empty := len(s.buf[i]) == 0
	switch in.kind {
	case iNop, iGoto:
		f(with(s, i, in.next, nil, nil), st)
	case iAssign:
		loc := append([]int64(nil), ps.loc...)
		loc[in.dst] = r.eval(in.e, ps.rv, ps.loc, nil)
		f(with(s, i, in.next, nil, loc), st)
	case iHavoc:
		for _, v := range r.p.values {
			loc := append([]int64(nil), ps.loc...)
			loc[in.dst] = v
			st.val = v
			f(with(s, i, in.next, nil, loc), st)
		}
	case iWrite, iHavocWrite, iWritePending:
		vals := r.p.values
		switch in.kind {
		case iWrite:
			vals = []int64{r.eval(in.e, ps.rv, ps.loc, nil)}
		case iWritePending:
			vals = []int64{ps.rv[0]}
		}
		for _, v := range vals {
			t := with(s, i, in.next, nil, nil)
			t.ownMem()
			t.ownBuf()
			r.write(&t, i, in.dst, v)
			st.v, st.val = in.dst, v
			f(t, st)
		}
	case iAssume:
		if r.eval(in.e, ps.rv, ps.loc, nil) != 0 {
			f(with(s, i, in.next, nil, nil), st)
		}
	case iAssert:
		t := with(s, i, in.next, nil, nil)
		if r.eval(in.e, ps.rv, ps.loc, nil) == 0 {
			t.bad = true
		}
		f(t, st)
	case iBranch:
		next := in.alt
		if r.eval(in.e, ps.rv, ps.loc, nil) != 0 {
			next = in.next
		}
		f(with(s, i, next, nil, nil), st)
	case iBranchAny:
		f(with(s, i, in.next, nil, nil), st)
		f(with(s, i, in.alt, nil, nil), st)
	case iFence:
		// A fence statement under the store-buffer models: with store->load
		// order it is a full fence; else with store->store order a store
		// fence; else it orders nothing they relax.
		o := in.fkind.Orders()
		switch {
		case o&cs.StoreLoad != 0:
			if empty {
				f(with(s, i, in.next, nil, nil), st)
			}
		case o&cs.StoreStore != 0:
			t := with(s, i, in.next, nil, nil)
			r.storeFence(&t, i)
			f(t, st)
		default:
			f(with(s, i, in.next, nil, nil), st)
		}
	case iStoreFence:
		// Under SC and TSO writes reach memory in order anyway.
		t := with(s, i, in.next, nil, nil)
		r.storeFence(&t, i)
		f(t, st)
	case iSiteFence:
		if empty {
			f(with(s, i, in.next, nil, nil), st)
		}
	case iAtomic:
		if !empty {
			return
		}
		for _, o := range r.atomic(in.body, outcome{mem: s.mem, loc: ps.loc}) {
			t := with(s, i, in.next, nil, o.loc)
			t.mem = o.mem
			t.bad = o.bad
			f(t, st)
		}
	case iCall:
		if !empty {
			return
		}
		t := s
		t.ownMem()
		old := t.mem[in.target]
		a := r.eval(in.e, ps.rv, ps.loc, nil)
		var res int64
		switch in.call {
		case "cas":
			if old == a {
				t.mem[in.target] = r.eval(in.e2, ps.rv, ps.loc, nil)
				res = 1
			}
		case "fetch_add":
			res = old
			v, ok := binop(cs.ADD, old, a)
			if !ok && r.err == nil {
				r.err = ErrOverflow
			}
			t.mem[in.target] = v
		case "swap":
			res = old
			t.mem[in.target] = a
		}
		st.v, st.val = in.target, res
		if in.resShared {
			f(with(t, i, in.next, []int64{res}, nil), st)
			return
		}
		loc := append([]int64(nil), ps.loc...)
		loc[in.dst] = res
		f(with(t, i, in.next, nil, loc), st)
	default:
		panic(fmt.Sprintf("refsem: instruction kind %d", in.kind))
	}
}
