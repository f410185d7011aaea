package ordview

import (
	"fmt"
	"strings"

	"fencer/cs"
	"fencer/expr"
)

// This file is an explicit interpreter of a cs.System under SC and TSO,
// for the tests only: concrete values and real FIFO buffers, dead locals
// forgotten (set to 0), and optionally the view of Info applied after every
// step (and before every step of an atomic body), with every move by a
// constant checked by Exact.

type entry struct {
	v   int // index of the shared variable
	val int64
}

type istate struct {
	pcs  []cs.Loc
	vals []int64 // shared, then every process's locals
	bufs [][]entry
}

func (s istate) clone() istate {
	t := istate{pcs: append([]cs.Loc(nil), s.pcs...), vals: append([]int64(nil), s.vals...), bufs: make([][]entry, len(s.bufs))}
	for i, b := range s.bufs {
		t.bufs[i] = append([]entry(nil), b...)
	}
	return t
}

func (s istate) key() string {
	var b strings.Builder
	fmt.Fprint(&b, s.pcs, s.vals)
	for _, q := range s.bufs {
		fmt.Fprint(&b, q)
	}
	return b.String()
}

type interp struct {
	sys   *cs.System
	tso   bool
	info  *Info // nil: no view
	idx   map[string]int
	live  [][]map[string]bool
	owner []int // process of each position, -1 for shared
	// inexact is set when a move by a constant was not Exact.
	inexact string
	// inAtomic maps the locals defined so far by the atomic body being run
	// to their class (-1: none).
	inAtomic map[string]int
	// widen: a move that Exact rejects outside an atomic body is taken
	// from every version Widen gives, instead of setting inexact.
	widen bool
	err   error
}

func newInterp(sys *cs.System, tso bool, info *Info) *interp {
	in := &interp{sys: sys, tso: tso, info: info, idx: map[string]int{}}
	for _, v := range sys.Shared {
		in.idx[v.Name] = len(in.idx)
		in.owner = append(in.owner, -1)
	}
	for i, p := range sys.Procs {
		for _, v := range p.Locals {
			in.idx[v.Name] = len(in.idx)
			in.owner = append(in.owner, i)
		}
		in.live = append(in.live, p.Live())
	}
	return in
}

func (in *interp) initial() istate {
	s := istate{pcs: make([]cs.Loc, len(in.sys.Procs)), bufs: make([][]entry, len(in.sys.Procs))}
	for _, v := range in.sys.Shared {
		s.vals = append(s.vals, v.Init.Value)
	}
	for _, p := range in.sys.Procs {
		for _, v := range p.Locals {
			s.vals = append(s.vals, v.Init.Value)
		}
	}
	in.normalize(&s)
	return s
}

// isLive reports whether position i holds a value that matters.
func (in *interp) isLive(s *istate, i int) bool {
	p := in.owner[i]
	if p < 0 {
		return true
	}
	name := in.sys.Procs[p].Locals[i-in.localBase(p)].Name
	if _, ok := in.inAtomic[name]; ok {
		return true
	}
	return in.live[p][s.pcs[p]][name]
}

func (in *interp) localBase(p int) int {
	b := len(in.sys.Shared)
	for q := 0; q < p; q++ {
		b += len(in.sys.Procs[q].Locals)
	}
	return b
}

// normalize forgets dead locals and applies the view.
func (in *interp) normalize(s *istate) {
	for i := range s.vals {
		if !in.isLive(s, i) {
			s.vals[i] = 0
		}
	}
	in.view(s)
}

// classVals gathers the live values of class c of s: with where, the
// places they came from, to write canonical values back.
type place struct{ val, proc, slot int }

func (in *interp) classVals(s *istate, c int) ([]int64, []place) {
	var vals []int64
	var where []place
	for i, v := range s.vals {
		if in.isLive(s, i) && in.classAt(s, i) == c {
			vals = append(vals, v)
			where = append(where, place{val: i, proc: -1})
		}
	}
	for p, q := range s.bufs {
		for j, e := range q {
			if in.classAt(s, e.v) == c {
				vals = append(vals, e.val)
				where = append(where, place{proc: p, slot: j})
			}
		}
	}
	return vals, where
}

func (in *interp) name(i int) string {
	if i < len(in.sys.Shared) {
		return in.sys.Shared[i].Name
	}
	p := in.owner[i]
	return in.sys.Procs[p].Locals[i-in.localBase(p)].Name
}

// classAt is the class of position i in s, or -1.
func (in *interp) classAt(s *istate, i int) int {
	name := in.name(i)
	p := in.owner[i]
	if p < 0 {
		if c, ok := in.info.Of[name]; ok {
			return c
		}
		return -1
	}
	if c, ok := in.inAtomic[name]; ok {
		return c
	}
	if c, ok := in.info.Local(p, s.pcs[p], name); ok {
		return c
	}
	return -1
}

func (in *interp) view(s *istate) {
	if in.info == nil {
		return
	}
	for c, cl := range in.info.Classes {
		vals, where := in.classVals(s, c)
		cl.Canon(vals, nil)
		for j, w := range where {
			if w.proc < 0 {
				s.vals[w.val] = vals[j]
			} else {
				s.bufs[w.proc][w.slot].val = vals[j]
			}
		}
	}
}

// checkMove records an inexact step when target gets the value of the
// term e (x + k with x of a class) in state s.
func (in *interp) checkMove(s *istate, e expr.Expr, env func(string) (int64, bool)) {
	if in.info == nil {
		return
	}
	if ite, ok := e.(*expr.App); ok && ite.Op == expr.OpIte {
		if b, err := expr.Holds(ite.Args[0], env); err == nil {
			if b {
				in.checkMove(s, ite.Args[1], env)
			} else {
				in.checkMove(s, ite.Args[2], env)
			}
		}
		return
	}
	v, k, ok := term(e)
	if !ok || v == "" || k == 0 {
		return
	}
	c := in.classAt(s, in.idx[v])
	if c < 0 {
		return
	}
	from, _ := env(v)
	vals, _ := in.classVals(s, c)
	if !in.info.Classes[c].Exact(vals, from, k) {
		in.inexact = fmt.Sprintf("%v from %d by %d among %v", v, from, k, vals)
	}
}

func (in *interp) env(s *istate) func(string) (int64, bool) {
	return func(n string) (int64, bool) {
		i, ok := in.idx[n]
		if !ok {
			return 0, false
		}
		return s.vals[i], true
	}
}

// read is p's view of shared variable x: its newest buffered write, else
// memory.
func (in *interp) read(s *istate, p, x int) int64 {
	for j := len(s.bufs[p]) - 1; j >= 0; j-- {
		if s.bufs[p][j].v == x {
			return s.bufs[p][j].val
		}
	}
	return s.vals[x]
}

// exec runs op of process p on t (a copy); false if blocked.
func (in *interp) exec(t *istate, p, e, j int, op cs.Op, atomic bool) bool {
	env := in.env(t)
	switch op.Kind {
	case cs.OpRead:
		x := in.idx[op.Shared]
		v := t.vals[x]
		if !atomic {
			v = in.read(t, p, x)
		}
		t.vals[in.idx[op.Local]] = v
	case cs.OpWrite, cs.OpAssign:
		if !in.widen || atomic {
			in.checkMove(t, op.Val, env)
		}
		v, err := expr.Eval(op.Val, env)
		if err != nil {
			in.err = err
			return false
		}
		if op.Kind == cs.OpAssign {
			t.vals[in.idx[op.Local]] = v
		} else if atomic || !in.tso {
			t.vals[in.idx[op.Shared]] = v
		} else {
			t.bufs[p] = append(t.bufs[p], entry{in.idx[op.Shared], v})
		}
	case cs.OpAssume:
		b, err := expr.Holds(op.Val, env)
		if err != nil {
			in.err = err
			return false
		}
		return b
	case cs.OpFence:
		return op.Fence == cs.StoreFence || len(t.bufs[p]) == 0
	case cs.OpAtomic:
		if len(t.bufs[p]) > 0 {
			return false
		}
		in.inAtomic = map[string]int{}
		defer func() { in.inAtomic = nil }()
		for j, b := range op.Body {
			in.view(t)
			if !in.exec(t, p, e, j, b, true) {
				return false
			}
			if x, ok := defining(b); ok && in.info != nil {
				c, _ := in.info.Def(p, e, j)
				if _, ok := in.info.Def(p, e, j); !ok {
					c = -1
				}
				in.inAtomic[x] = c
			}
		}
	case cs.OpHavoc:
		in.err = fmt.Errorf("havoc in a test program")
		return false
	}
	return true
}

// versions returns the states to take op of process p from: s, or with
// widen the versions of s that Widen gives for a move Exact rejects.
func (in *interp) versions(s istate, p int, op cs.Op) []istate {
	if !in.widen || in.info == nil || (op.Kind != cs.OpAssign && op.Kind != cs.OpWrite) {
		return []istate{s}
	}
	env := in.env(&s)
	e := op.Val
	for {
		ite, ok := e.(*expr.App)
		if !ok || ite.Op != expr.OpIte {
			break
		}
		b, err := expr.Holds(ite.Args[0], env)
		if err != nil {
			return []istate{s}
		}
		if b {
			e = ite.Args[1]
		} else {
			e = ite.Args[2]
		}
	}
	v, k, ok := term(e)
	if !ok || v == "" || k == 0 {
		return []istate{s}
	}
	c := in.classAt(&s, in.idx[v])
	if c < 0 {
		return []istate{s}
	}
	from, _ := env(v)
	vals, where := in.classVals(&s, c)
	var out []istate
	for _, w := range in.info.Classes[c].Widen(vals, from, k) {
		t := s.clone()
		for j, pl := range where {
			if pl.proc < 0 {
				t.vals[pl.val] = w[j]
			} else {
				t.bufs[pl.proc][pl.slot].val = w[j]
			}
		}
		out = append(out, t)
	}
	return out
}

func (in *interp) successors(s istate, f func(istate)) {
	for p, proc := range in.sys.Procs {
		for _, ei := range proc.Out[s.pcs[p]] {
			e := proc.Edges[ei]
			for _, v := range in.versions(s, p, e.Op) {
				t := v.clone()
				if in.exec(&t, p, ei, 0, e.Op, false) {
					t.pcs[p] = e.To
					in.normalize(&t)
					f(t)
				}
			}
		}
		if len(s.bufs[p]) > 0 {
			t := s.clone()
			w := t.bufs[p][0]
			t.vals[w.v] = w.val
			t.bufs[p] = t.bufs[p][1:]
			in.normalize(&t)
			f(t)
		}
	}
}

// explore returns the keys of the reachable states (with the view, of the
// canonical ones) and whether a bad state is reachable; complete is false
// when limit states were reached.
func (in *interp) explore(limit int) (states map[string]istate, bad, complete bool) {
	s0 := in.initial()
	states = map[string]istate{s0.key(): s0}
	queue := []istate{s0}
	for len(queue) > 0 {
		s := queue[0]
		queue = queue[1:]
		if in.sys.IsBad(s.pcs) {
			bad = true
		}
		in.successors(s, func(t istate) {
			k := t.key()
			if _, ok := states[k]; !ok && len(states) < limit {
				states[k] = t
				queue = append(queue, t)
			} else if !ok {
				complete = false
				limit = -1
			}
		})
		if limit < 0 || in.err != nil {
			return states, bad, false
		}
	}
	return states, bad, true
}
