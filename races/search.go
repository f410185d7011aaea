package races

import (
	"context"
	"encoding/binary"
	"fmt"

	"fencer/cs"
	"fencer/memmodel"
)

// This file is the search: breadth first over the SC states of the
// system, each with the happens-before summary of its run (doc.go).

// Event classes: the last plain write, atomic write, plain read and
// atomic read of a tracked variable by one process.
const (
	plainWrite = iota
	atomicWrite
	plainRead
	atomicRead
	classes
)

func isWrite(cls int) bool { return cls == plainWrite || cls == atomicWrite }
func isPlain(cls int) bool { return cls == plainWrite || cls == plainRead }

// search is what the exploration of one system knows before it starts.
type search struct {
	sys    *cs.System
	c      *memmodel.Concrete
	n      int       // processes
	ord    [][]Order // per process and edge (orders, asked once)
	cands  []int     // the tracked variables (shared slots)
	candOf []int     // slot → index in cands, or -1
	syncOf []int     // slot → row of its release clock, or -1
	rows   int       // holders: n points, n release fences, n pending acquires, the atomic locations
	words  int       // words of a row: one bit per event
	// acqFence: the program has an acquire fence, so the acquires that
	// relaxed reads hold for one are kept (else they would only split
	// states).
	acqFence bool
}

// meta is the happens-before summary of a state: known[row*words+w]
// holds the events that happen before the holder row. Where an event was
// made is not kept: a race's run says it (firstAccess).
type meta struct {
	known []uint64
}

func (m *meta) clone() *meta { return &meta{known: append([]uint64(nil), m.known...)} }

func newSearch(sys *cs.System, orders Orders) *search {
	s := &search{sys: sys, c: memmodel.NewConcrete(sys, memmodel.SC), n: len(sys.Procs)}
	ns := len(sys.Shared)
	plain := make([]bool, ns)
	atomic := make([]bool, ns)
	written := make([]bool, ns)
	procs := make([]map[int]bool, ns)
	note := func(p int, name string, write bool, o Order) {
		x := s.c.Slot(name)
		if x < 0 || x >= ns {
			return
		}
		if procs[x] == nil {
			procs[x] = map[int]bool{}
		}
		procs[x][p] = true
		written[x] = written[x] || write
		switch o {
		case Plain:
			plain[x] = true
		case Volatile:
		default:
			atomic[x] = true
		}
	}
	s.ord = make([][]Order, s.n)
	for p, proc := range sys.Procs {
		s.ord[p] = make([]Order, len(proc.Edges))
		for e, edge := range proc.Edges {
			op := edge.Op
			switch op.Kind {
			case cs.OpRead, cs.OpWrite, cs.OpAtomic, cs.OpFence:
				s.ord[p][e] = orders(p, e)
			}
			o := s.ord[p][e]
			switch op.Kind {
			case cs.OpRead:
				note(p, op.Shared, false, o)
			case cs.OpWrite:
				note(p, op.Shared, true, o)
			case cs.OpAtomic:
				if o == Plain {
					s.ord[p][e] = Relaxed
				}
				for _, b := range op.Body {
					if b.Kind == cs.OpRead || b.Kind == cs.OpWrite {
						note(p, b.Shared, b.Kind == cs.OpWrite, Relaxed)
					}
				}
			case cs.OpFence:
				if o.acquires() {
					s.acqFence = true
				}
			}
		}
	}
	s.candOf = make([]int, ns)
	s.syncOf = make([]int, ns)
	s.rows = 3 * s.n
	for x := 0; x < ns; x++ {
		s.candOf[x], s.syncOf[x] = -1, -1
		if plain[x] && written[x] && len(procs[x]) >= 2 {
			s.candOf[x] = len(s.cands)
			s.cands = append(s.cands, x)
		}
		if atomic[x] {
			s.syncOf[x] = s.rows
			s.rows++
		}
	}
	s.words = (len(s.cands)*s.n*classes + 63) / 64
	return s
}

func (s *search) point(p int) int   { return p }
func (s *search) fence(p int) int   { return s.n + p }
func (s *search) pending(p int) int { return 2*s.n + p }
func (s *search) ev(ci, p, cls int) int {
	return (ci*s.n+p)*classes + cls
}

func (s *search) row(m *meta, r int) []uint64 { return m.known[r*s.words : (r+1)*s.words] }

func (s *search) has(m *meta, r, ev int) bool {
	return m.known[r*s.words+ev/64]&(1<<(ev%64)) != 0
}

// or makes row dst know what row src knows.
func (s *search) or(m *meta, dst, src int) {
	d, a := s.row(m, dst), s.row(m, src)
	for i := range d {
		d[i] |= a[i]
	}
}

func (s *search) copyRow(m *meta, dst, src int) { copy(s.row(m, dst), s.row(m, src)) }

func (s *search) zero(m *meta, r int) { clear(s.row(m, r)) }

// hit is a race found at a step: the access second, on the variable in
// slot x, races with the tracked event of class cls of process u.
type hit struct {
	x, u, cls int
	second    Access
}

// apply updates m for edge e of process p and reports the races the step
// makes.
func (s *search) apply(m *meta, p, e int, hits *[]hit) {
	edge := &s.sys.Procs[p].Edges[e]
	o := s.ord[p][e]
	switch op := edge.Op; op.Kind {
	case cs.OpRead, cs.OpWrite:
		s.access(m, p, e, s.c.Slot(op.Shared), op.Kind == cs.OpWrite, o, false, hits)
	case cs.OpAtomic:
		var read []int
		for _, b := range op.Body {
			x := s.c.Slot(b.Shared)
			switch b.Kind {
			case cs.OpRead:
				s.access(m, p, e, x, false, o, false, hits)
				read = append(read, x)
			case cs.OpWrite:
				rmw := false
				for _, y := range read {
					rmw = rmw || y == x
				}
				s.access(m, p, e, x, true, o, rmw, hits)
			}
		}
	case cs.OpFence:
		if o.acquires() && s.acqFence {
			s.or(m, s.point(p), s.pending(p))
		}
		if o.releases() {
			s.copyRow(m, s.fence(p), s.point(p))
		}
	}
}

// access is one read or write of the variable in slot x by process p
// (edge e), of order o; rmw says a write of a step that read x before.
func (s *search) access(m *meta, p, e, x int, write bool, o Order, rmw bool, hits *[]hit) {
	if x < 0 || x >= len(s.candOf) {
		return
	}
	plain := o == Plain
	h := s.syncOf[x]
	atomic := !plain && o != Volatile
	if !write && h >= 0 && atomic {
		// What the read synchronises with happens before it: acquire
		// first, then look for races.
		if o.acquires() {
			s.or(m, s.point(p), h)
		} else if s.acqFence {
			s.or(m, s.pending(p), h)
		}
	}
	if ci := s.candOf[x]; ci >= 0 {
		for u := 0; u < s.n; u++ {
			if u == p {
				continue
			}
			for cls := 0; cls < classes; cls++ {
				if !write && !isWrite(cls) || !plain && !isPlain(cls) {
					continue // two reads, or two atomic accesses
				}
				ev := s.ev(ci, u, cls)
				if s.has(m, s.point(u), ev) && !s.has(m, s.point(p), ev) {
					second := Access{Proc: p, Edge: e, Pos: s.sys.Procs[p].Edges[e].Pos, Write: write, Plain: plain}
					*hits = append(*hits, hit{x, u, cls, second})
				}
			}
		}
		cls := plainRead
		switch {
		case write && plain:
			cls = plainWrite
		case write:
			cls = atomicWrite
		case !plain:
			cls = atomicRead
		}
		ev := s.ev(ci, p, cls)
		bit := uint64(1) << (ev % 64)
		for r := 0; r < s.rows; r++ {
			m.known[r*s.words+ev/64] &^= bit
		}
		m.known[s.point(p)*s.words+ev/64] |= bit
	}
	if write && h >= 0 {
		switch {
		case !atomic:
			s.zero(m, h) // a plain or volatile write ends every release sequence
		case rmw && o.releases():
			s.or(m, h, s.point(p))
		case rmw:
			s.or(m, h, s.fence(p))
		case o.releases():
			s.copyRow(m, h, s.point(p))
		default:
			s.copyRow(m, h, s.fence(p))
		}
	}
}

// node is one state of the search.
type node struct {
	st     *memmodel.State // nil once expanded
	m      *meta
	parent int32 // -1 for an initial state
	step   memmodel.Step
}

// run explores the state space and fills res.
func (s *search) run(ctx context.Context, lim Limits, res *Result) error {
	cut := func(why string) {
		if res.Complete {
			res.Complete, res.Why = false, why
		}
	}
	if s.c.HasNondet() {
		cut("nondeterministic values were tried from a guessed set")
	}
	seen := map[string]bool{}
	var nodes []node
	var inits [][]int64
	key := func(st *memmodel.State, m *meta) string {
		b := []byte(st.Key())
		for _, w := range m.known {
			b = binary.AppendUvarint(b, w)
		}
		return string(b)
	}
	for _, st := range s.c.Initials(lim.MaxStates) {
		m := &meta{known: make([]uint64, s.rows*s.words)}
		k := key(st, m)
		if seen[k] {
			continue
		}
		seen[k] = true
		nodes = append(nodes, node{st: st, m: m, parent: int32(-1 - len(inits))})
		inits = append(inits, append([]int64(nil), st.Vals...))
	}
	found := map[int]bool{}
	runTo := func(i int32, last memmodel.Step) ([]int64, []memmodel.Step) {
		steps := []memmodel.Step{last}
		for nodes[i].parent >= 0 {
			steps = append(steps, nodes[i].step)
			i = nodes[i].parent
		}
		for a, b := 0, len(steps)-1; a < b; a, b = a+1, b-1 {
			steps[a], steps[b] = steps[b], steps[a]
		}
		return inits[-1-nodes[i].parent], steps
	}
	var hits []hit
	for i := 0; i < len(nodes); i++ {
		if err := ctx.Err(); err != nil {
			cut(fmt.Sprintf("stopped (%v)", err))
			break
		}
		if len(found) == len(s.cands) {
			break
		}
		cur := nodes[i]
		nodes[i].st, nodes[i].m = nil, nil
		steps, states, err := s.c.Successors(cur.st)
		if err != nil {
			cut(fmt.Sprintf("a run stopped on an evaluation error (%v)", err))
			continue
		}
		for j, st := range steps {
			m := cur.m.clone()
			hits = hits[:0]
			s.apply(m, st.Proc, st.Edge, &hits)
			for _, h := range hits {
				if found[h.x] {
					continue
				}
				found[h.x] = true
				init, run := runTo(int32(i), st)
				first, ok := s.firstAccess(run[:len(run)-1], h)
				if !ok {
					return fmt.Errorf("internal error: the run to a race on %s does not make its first access", s.sys.Shared[h.x].Name)
				}
				res.Races = append(res.Races, Race{Var: s.sys.Shared[h.x].Name, First: first, Second: h.second, Init: init, Run: run})
			}
			k := key(states[j], m)
			if seen[k] {
				continue
			}
			if len(nodes) >= lim.MaxStates {
				cut(fmt.Sprintf("the state limit (%d states) was reached", lim.MaxStates))
				continue
			}
			seen[k] = true
			nodes = append(nodes, node{st: states[j], m: m, parent: int32(i), step: st})
		}
	}
	res.States = len(nodes)
	return nil
}

// firstAccess is the tracked event of h in run: the last step of process
// h.u that accesses h.x as h.cls says (it is the event, since a later one
// of the class would have replaced it).
func (s *search) firstAccess(run []memmodel.Step, h hit) (Access, bool) {
	for i := len(run) - 1; i >= 0; i-- {
		st := run[i]
		if st.Proc != h.u {
			continue
		}
		edge := s.sys.Procs[st.Proc].Edges[st.Edge]
		hit := false
		switch op := edge.Op; op.Kind {
		case cs.OpRead, cs.OpWrite:
			hit = s.c.Slot(op.Shared) == h.x && (op.Kind == cs.OpWrite) == isWrite(h.cls) && (s.ord[st.Proc][st.Edge] == Plain) == isPlain(h.cls)
		case cs.OpAtomic:
			for _, b := range op.Body {
				if (b.Kind == cs.OpRead || b.Kind == cs.OpWrite) && s.c.Slot(b.Shared) == h.x && (b.Kind == cs.OpWrite) == isWrite(h.cls) && !isPlain(h.cls) {
					hit = true
				}
			}
		}
		if hit {
			return Access{Proc: st.Proc, Edge: st.Edge, Pos: edge.Pos, Write: isWrite(h.cls), Plain: isPlain(h.cls)}, true
		}
	}
	return Access{}, false
}
