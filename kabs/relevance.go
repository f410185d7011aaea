package kabs

import "fencer/cs"

// Relevance says which predicates can matter at a control state. A
// predicate over a local that is dead at its process's location, over a
// buffer slot past the end of the exact buffer, or over a last-write value
// of a variable that is not in the buffer, cannot: its literal is never
// read again. Forgetting such literals is sound (the cube only grows
// weaker) and costs no precision; it shrinks the state space. It depends
// on the control state alone.
type Relevance struct {
	live  [][]map[string]bool // per process, per location: the live locals
	procs map[string]int      // process name → index
	sidx  map[string]int      // shared variable → index
	deps  []predDeps          // per predicate, in the order of Add
}

type predDeps struct {
	locals []procVar // (process, local name)
	slots  []procVar // (process, slot number)
	lws    []procVar // (process, shared variable index)
	xslots []procVar // PSO: (process, shared variable index, slot number)
}

type procVar struct {
	proc int
	name string
	num  int
	x    int
}

// NewRelevance returns the relevance of predicates over sys's variables.
func NewRelevance(sys *cs.System) *Relevance {
	r := &Relevance{procs: map[string]int{}, sidx: map[string]int{}}
	for i, p := range sys.Procs {
		r.live = append(r.live, p.Live())
		r.procs[p.Name] = i
	}
	for i, v := range sys.Shared {
		r.sidx[v.Name] = i
	}
	return r
}

// Len is the number of predicates added.
func (r *Relevance) Len() int { return len(r.deps) }

// Add appends a predicate over vars.
func (r *Relevance) Add(vars map[string]bool) {
	var d predDeps
	for v := range vars {
		info := ParseVar(v)
		p, ok := r.procs[info.Proc]
		if !ok {
			continue
		}
		switch info.Kind {
		case VarLocal:
			d.locals = append(d.locals, procVar{proc: p, name: v})
		case VarLW:
			d.lws = append(d.lws, procVar{proc: p, num: r.sidx[info.Shared]})
		case VarSlotX:
			d.xslots = append(d.xslots, procVar{proc: p, x: r.sidx[info.Shared], num: info.Slot})
		case VarSlot:
			d.slots = append(d.slots, procVar{proc: p, num: info.Slot})
		}
	}
	r.deps = append(r.deps, d)
}

// AppendMask appends to m, per predicate, whether it is relevant at ctl,
// and to key the same as a bit set (a key for the mask).
func (r *Relevance) AppendMask(m []bool, key []byte, ctl *Ctl) ([]bool, []byte) {
	n, nk := len(m), len(key)
	m = append(m, make([]bool, len(r.deps))...)
	key = append(key, make([]byte, (len(r.deps)+7)/8)...)
	for i := range r.deps {
		if r.relevant(&r.deps[i], ctl, -1) {
			m[n+i] = true
			key[nk+i/8] |= 1 << (i % 8)
		}
	}
	return m, key
}

// AppendProcMask appends to m, per predicate, whether those of
// AppendMask's conditions that concern process p hold at ctl (each is
// about one process's location or buffer): AppendMask's mask is their
// conjunction over the processes. It reads only p's part of ctl.
func (r *Relevance) AppendProcMask(m []bool, ctl *Ctl, p int) []bool {
	for i := range r.deps {
		m = append(m, r.relevant(&r.deps[i], ctl, p))
	}
	return m
}

// relevant says whether d's conditions about process only (all of them
// when only < 0) hold at ctl.
func (r *Relevance) relevant(d *predDeps, ctl *Ctl, only int) bool {
	about := func(v procVar) bool { return only < 0 || v.proc == only }
	for _, l := range d.locals {
		if about(l) && !r.live[l.proc][ctl.PC[l.proc]][l.name] {
			return false
		}
	}
	if ctl.B == nil {
		// No buffers: a predicate over a slot or a last-write value is
		// never relevant.
		for _, vs := range [][]procVar{d.slots, d.lws, d.xslots} {
			for _, v := range vs {
				if about(v) {
					return false
				}
			}
		}
		return true
	}
	for _, s := range d.xslots {
		if !about(s) {
			continue
		}
		n := 0
		for _, y := range ctl.B[s.proc] {
			if y == s.x {
				n++
			}
		}
		if s.num > n {
			return false
		}
	}
	for _, s := range d.slots {
		if about(s) && s.num > len(ctl.B[s.proc]) {
			return false
		}
	}
	for _, w := range d.lws {
		if about(w) && !ctl.Buffered(w.proc, w.num) {
			return false
		}
	}
	return true
}
