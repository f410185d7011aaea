package domains

import (
	"fencer/cs"
	"fencer/expr"
)

// This file is the analysis proper. Shared variables get one set each
// (flow-insensitive: any process may write them at any time); the locals of
// a process get one set per location of the process, so that a guard can
// bound them: in `while (r < 2) { r = r + 1; }` the assume r < 2 keeps r in
// {0, 1} inside the body and so in {0, 1, 2} everywhere. An assume filters
// each of its variables separately (a value stays if some combination of
// values of the other variables satisfies the guard), which is sound. Every
// set is capped at MaxValues, beyond which it is unbounded, so the fixpoint
// terminates.

// vset is a set of values; nil means unbounded.
type vset map[int64]bool

// env maps the locals of a process to their sets at one location; a nil
// env is an unreachable location.
type env map[string]vset

type flow struct {
	sys    *cs.System
	shared map[string]vset
	locs   [][]env // per process, per location
}

func (f *flow) run() {
	f.shared = map[string]vset{}
	for _, v := range f.sys.Shared {
		f.shared[v.Name] = initSet(v)
	}
	for _, p := range f.sys.Procs {
		locs := make([]env, p.NumLocs)
		e := env{}
		for _, v := range p.Locals {
			e[v.Name] = initSet(v)
		}
		locs[0] = e
		f.locs = append(f.locs, locs)
	}
	for changed := true; changed; {
		changed = false
		for pi, p := range f.sys.Procs {
			for _, ed := range p.Edges {
				in := f.locs[pi][ed.From]
				if in == nil {
					continue
				}
				out, sharedChanged := f.apply(ed.Op, in)
				changed = changed || sharedChanged
				if out != nil && join(&f.locs[pi][ed.To], out) {
					changed = true
				}
			}
		}
	}
}

// apply returns the env after op (nil: op cannot be taken) and whether a
// shared set grew.
func (f *flow) apply(op cs.Op, in env) (env, bool) {
	changed := false
	switch op.Kind {
	case cs.OpRead:
		return with(in, op.Local, f.shared[op.Shared]), false
	case cs.OpWrite:
		return in, addTo(f.shared, op.Shared, eval(op.Val, in))
	case cs.OpAssign:
		return with(in, op.Local, eval(op.Val, in)), false
	case cs.OpHavoc:
		return with(in, op.Local, nil), false
	case cs.OpAssume:
		return filter(op.Val, in), false
	case cs.OpAtomic:
		cur := in
		for _, b := range op.Body {
			if b.Kind == cs.OpWrite {
				// reads in atomic bodies go to memory as well: the same sets
				changed = addTo(f.shared, b.Shared, eval(b.Val, cur)) || changed
				continue
			}
			var c bool
			cur, c = f.apply(b, cur)
			changed = changed || c
			if cur == nil {
				return nil, changed
			}
		}
		return cur, changed
	}
	return in, false
}

// with returns a copy of in with v set to s.
func with(in env, v string, s vset) env {
	out := make(env, len(in))
	for k, x := range in {
		out[k] = x
	}
	out[v] = s
	return out
}

// addTo adds s to m[v] and reports a change (a growth or a new unbounded).
func addTo(m map[string]vset, v string, s vset) bool {
	cur, ok := m[v]
	if ok && cur == nil {
		return false
	}
	if s == nil {
		m[v] = nil
		return true
	}
	if cur == nil {
		cur = vset{}
		m[v] = cur
	}
	changed := false
	for x := range s {
		if !cur[x] {
			cur[x] = true
			changed = true
		}
	}
	if len(cur) > MaxValues {
		m[v] = nil
	}
	return changed
}

// join merges in into *dst and reports a change.
func join(dst *env, in env) bool {
	if *dst == nil {
		c := make(env, len(in))
		for k, s := range in {
			if s != nil {
				s = copySet(s)
			}
			c[k] = s
		}
		*dst = c
		return true
	}
	changed := false
	for k, s := range in {
		changed = addTo(*dst, k, s) || changed
	}
	return changed
}

func copySet(s vset) vset {
	c := make(vset, len(s))
	for x := range s {
		c[x] = true
	}
	return c
}

// combos calls f with every assignment of values to vars drawn from in;
// false when a variable is unbounded or there are too many combinations.
func combos(vars []string, in env, f func(map[string]int64) bool) bool {
	n := 1
	for _, v := range vars {
		s, ok := in[v]
		if !ok || s == nil {
			return false
		}
		n *= len(s)
		if n > maxCombos {
			return false
		}
	}
	val := make(map[string]int64, len(vars))
	var rec func(i int) bool
	rec = func(i int) bool {
		if i == len(vars) {
			return f(val)
		}
		for x := range in[vars[i]] {
			val[vars[i]] = x
			if !rec(i + 1) {
				return false
			}
		}
		return true
	}
	return rec(0)
}

// eval is the set of values of e over in; nil when unbounded.
func eval(e expr.Expr, in env) vset {
	out := vset{}
	ok := combos(expr.Vars(e), in, func(val map[string]int64) bool {
		x, err := expr.Eval(e, func(n string) (int64, bool) { v, ok := val[n]; return v, ok })
		if err != nil {
			return false
		}
		out[x] = true
		return len(out) <= MaxValues
	})
	if !ok {
		return nil
	}
	return out
}

// filter returns in restricted by the guard g (nil when g cannot hold). A
// conjunction filters by each conjunct in turn, so that a conjunct over
// bounded variables bounds them even when another mentions an unbounded
// one (`while (r == 0 && c < 2)` bounds the counter c).
func filter(g expr.Expr, in env) env {
	if a, ok := g.(*expr.App); ok && a.Op == expr.OpAnd {
		for _, c := range a.Args {
			if in = filter(c, in); in == nil {
				return nil
			}
		}
		return in
	}
	return filterAtom(g, in)
}

// filterAtom is filter for a guard that is not a conjunction.
func filterAtom(g expr.Expr, in env) env {
	vars := expr.Vars(g)
	keep := map[string]vset{}
	for _, v := range vars {
		keep[v] = vset{}
	}
	any := false
	ok := combos(vars, in, func(val map[string]int64) bool {
		holds, err := expr.Holds(g, func(n string) (int64, bool) { v, ok := val[n]; return v, ok })
		if err != nil || holds {
			any = true
			for v, x := range val {
				keep[v][x] = true
			}
		}
		return true
	})
	if !ok {
		return in // an unbounded variable or too many combinations: no filtering
	}
	if !any {
		return nil
	}
	out := make(env, len(in))
	for k, s := range in {
		out[k] = s
	}
	for v, s := range keep {
		out[v] = s
	}
	return out
}
