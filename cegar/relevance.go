package cegar

import (
	"strings"

	"fencer/cs"
	"fencer/kabs"
	"fencer/predabs"
)

// relevance forgets cube literals that cannot matter any more: those of
// predicates over a local that is dead at its process's location, over a
// buffer slot past the end of the exact buffer, or over a last-write value
// of a variable that is not in the buffer. Forgetting literals is sound
// (the cube only grows weaker), and what is forgotten is never read again,
// so it costs no precision; it shrinks the state space.
type relevance struct {
	sys   *cs.System
	live  [][]map[string]bool // per process, per location
	procs map[string]int      // process name → index
	sidx  map[string]int
	// per predicate, what it depends on; extended as predicates are added
	deps []predDeps
}

type predDeps struct {
	locals []procVar // (process, local name)
	slots  []procVar // (process, slot number in num)
	lws    []procVar // (process, shared variable index in num)
	xslots []procVar // PSO: (process, shared variable name, slot number)
}

type procVar struct {
	proc int
	name string
	num  int
}

func newRelevance(sys *cs.System) *relevance {
	r := &relevance{sys: sys, procs: map[string]int{}, sidx: map[string]int{}}
	for i, p := range sys.Procs {
		r.live = append(r.live, p.Live())
		r.procs[p.Name] = i
	}
	for i, v := range sys.Shared {
		r.sidx[v.Name] = i
	}
	return r
}

func (r *relevance) update(ps *predabs.Preds) {
	for i := len(r.deps); i < ps.Len(); i++ {
		var d predDeps
		for v := range ps.At(i).Vars {
			if j := strings.IndexByte(v, '#'); j >= 0 {
				p, ok := r.procs[v[:j]]
				if !ok {
					continue
				}
				rest := v[j+1:]
				if strings.HasPrefix(rest, "lw(") && strings.HasSuffix(rest, ")") {
					d.lws = append(d.lws, procVar{proc: p, num: r.sidx[rest[3:len(rest)-1]]})
				} else if strings.HasPrefix(rest, "b(") { // PSO slot b(x)i
					k := strings.LastIndexByte(rest, ')')
					n := 0
					for _, c := range rest[k+1:] {
						n = n*10 + int(c-'0')
					}
					d.xslots = append(d.xslots, procVar{proc: p, name: rest[2:k], num: n})
				} else if strings.HasPrefix(rest, "b") {
					n := 0
					for _, c := range rest[1:] {
						n = n*10 + int(c-'0')
					}
					d.slots = append(d.slots, procVar{proc: p, num: n})
				}
				continue
			}
			if j := strings.IndexByte(v, '.'); j >= 0 {
				if p, ok := r.procs[v[:j]]; ok {
					d.locals = append(d.locals, procVar{proc: p, name: v})
				}
			}
		}
		r.deps = append(r.deps, d)
	}
}

// mask returns which predicates are relevant at ctl, and a key for it.
func (r *relevance) mask(ctl *kabs.Ctl) ([]bool, string) {
	m := make([]bool, len(r.deps))
	key := make([]byte, (len(r.deps)+7)/8)
	for i := range r.deps {
		if r.relevant(&r.deps[i], ctl) {
			m[i] = true
			key[i/8] |= 1 << (i % 8)
		}
	}
	return m, string(key)
}

func (r *relevance) relevant(d *predDeps, ctl *kabs.Ctl) bool {
	for _, l := range d.locals {
		if !r.live[l.proc][ctl.PC[l.proc]][l.name] {
			return false
		}
	}
	if ctl.B == nil {
		return len(d.slots) == 0 && len(d.lws) == 0 && len(d.xslots) == 0
	}
	for _, s := range d.xslots {
		n, x := 0, r.sidx[s.name]
		for _, y := range ctl.B[s.proc] {
			if y == x {
				n++
			}
		}
		if s.num > n {
			return false
		}
	}
	for _, s := range d.slots {
		if s.num > len(ctl.B[s.proc]) {
			return false
		}
	}
	for _, w := range d.lws {
		if !ctl.Buffered(w.proc, w.num) {
			return false
		}
	}
	return true
}
