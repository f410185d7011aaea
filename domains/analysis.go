package domains

import (
	"sort"

	"fencer/cs"
	"fencer/smt/expr"
)

// MaxValues is the size cap of a finite domain: a variable that could hold
// more distinct values than this is treated as unbounded.
const MaxValues = 64

// maxCombos bounds the operand combinations tried when an expression over
// several finite variables is evaluated.
const maxCombos = 4096

// Info is the result of the analysis: for each variable of the system
// (shared and local, by name), its finite set of values, or nothing when the
// variable is unbounded.
type Info struct {
	dom map[string][]int64 // sorted values; missing: unbounded
	all bool
}

// AllFinite reports whether every variable of the system is finite: the
// system then has no havoc and no nondeterministic initial value, so a
// schedule determines its run.
func (in *Info) AllFinite() bool { return in.all }

// Finite reports whether every value v can hold lies in a finite set the
// analysis computed.
func (in *Info) Finite(v string) bool { _, ok := in.dom[v]; return ok }

// Values returns the sorted finite domain of v, or nil when v is unbounded.
func (in *Info) Values(v string) []int64 { return in.dom[v] }

// NumFinite returns the number of finite variables.
func (in *Info) NumFinite() int { return len(in.dom) }

// Analyze computes the finite domains of the variables of sys: a fixpoint
// over every assignment, read, write and havoc of every process (atomic
// bodies included), flow-insensitive and so sound for any interleaving and
// any memory model (a buffered write holds a value that was assigned to its
// variable, so buffer slots and last-write values lie in the variable's
// domain too).
func Analyze(sys *cs.System) *Info {
	a := &analysis{sets: map[string]map[int64]bool{}, inf: map[string]bool{}}
	for _, v := range sys.Shared {
		a.init(v)
	}
	for _, p := range sys.Procs {
		for _, v := range p.Locals {
			a.init(v)
		}
	}
	var ops []cs.Op
	var collect func(op cs.Op)
	collect = func(op cs.Op) {
		switch op.Kind {
		case cs.OpRead, cs.OpWrite, cs.OpAssign, cs.OpHavoc:
			ops = append(ops, op)
		}
		for _, b := range op.Body {
			collect(b)
		}
	}
	for _, p := range sys.Procs {
		for _, e := range p.Edges {
			collect(e.Op)
		}
	}
	for changed := true; changed; {
		changed = false
		for _, op := range ops {
			switch op.Kind {
			case cs.OpRead:
				changed = a.flow(op.Local, a.varValues(op.Shared)) || changed
			case cs.OpWrite:
				changed = a.flow(op.Shared, a.exprValues(op.Val)) || changed
			case cs.OpAssign:
				changed = a.flow(op.Local, a.exprValues(op.Val)) || changed
			case cs.OpHavoc:
				changed = a.flow(op.Local, nil) || changed
			}
		}
	}
	in := &Info{dom: map[string][]int64{}}
	for v, s := range a.sets {
		if a.inf[v] {
			continue
		}
		vals := make([]int64, 0, len(s))
		for x := range s {
			vals = append(vals, x)
		}
		sort.Slice(vals, func(i, j int) bool { return vals[i] < vals[j] })
		in.dom[v] = vals
	}
	n := len(sys.Shared)
	for _, p := range sys.Procs {
		n += len(p.Locals)
	}
	in.all = len(in.dom) == n
	return in
}

type analysis struct {
	sets map[string]map[int64]bool
	inf  map[string]bool
}

func (a *analysis) init(v cs.VarDecl) {
	if v.Init.Nondet {
		a.inf[v.Name] = true
		return
	}
	a.sets[v.Name] = map[int64]bool{v.Init.Value: true}
}

// varValues is the current set of v, nil when unbounded.
func (a *analysis) varValues(v string) map[int64]bool {
	if a.inf[v] {
		return nil
	}
	s, ok := a.sets[v]
	if !ok { // not a declared variable (cannot happen in a lowered system)
		return nil
	}
	return s
}

// flow adds vals (nil: unbounded) to the set of v and reports a change.
func (a *analysis) flow(v string, vals map[int64]bool) bool {
	if a.inf[v] {
		return false
	}
	if vals == nil {
		a.inf[v] = true
		return true
	}
	s := a.sets[v]
	if s == nil {
		s = map[int64]bool{}
		a.sets[v] = s
	}
	changed := false
	for x := range vals {
		if !s[x] {
			s[x] = true
			changed = true
		}
	}
	if len(s) > MaxValues {
		a.inf[v] = true
	}
	return changed
}

// exprValues evaluates e over every combination of the values of its
// variables; nil when a variable is unbounded or the set grows too large.
func (a *analysis) exprValues(e expr.Expr) map[int64]bool {
	vars := expr.Vars(e)
	doms := make([][]int64, len(vars))
	combos := 1
	for i, v := range vars {
		s := a.varValues(v)
		if s == nil {
			return nil
		}
		for x := range s {
			doms[i] = append(doms[i], x)
		}
		combos *= len(doms[i])
		if combos > maxCombos {
			return nil
		}
	}
	out := map[int64]bool{}
	env := make(map[string]int64, len(vars))
	var rec func(i int) bool
	rec = func(i int) bool {
		if i == len(vars) {
			x, err := expr.Eval(e, func(n string) (int64, bool) { v, ok := env[n]; return v, ok })
			if err != nil {
				return false
			}
			out[x] = true
			return len(out) <= MaxValues
		}
		for _, x := range doms[i] {
			env[vars[i]] = x
			if !rec(i + 1) {
				return false
			}
		}
		return true
	}
	if !rec(0) {
		return nil
	}
	return out
}
