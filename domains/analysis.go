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
// over the operations of every process (atomic bodies included), with one
// set per shared variable and, for the locals, one set per location, so
// that guards bound them (flow.go). It holds for any interleaving and any
// memory model (a buffered write holds a value that was assigned to its
// variable, so buffer slots and last-write values lie in the variable's
// domain too).
func Analyze(sys *cs.System) *Info {
	f := &flow{sys: sys}
	f.run()
	in := &Info{dom: map[string][]int64{}}
	add := func(v string, s vset) {
		vals := make([]int64, 0, len(s))
		for x := range s {
			vals = append(vals, x)
		}
		sort.Slice(vals, func(i, j int) bool { return vals[i] < vals[j] })
		in.dom[v] = vals
	}
	n := len(sys.Shared)
	for _, v := range sys.Shared {
		if s := f.shared[v.Name]; s != nil {
			add(v.Name, s)
		}
	}
	for pi, p := range sys.Procs {
		n += len(p.Locals)
		for _, v := range p.Locals {
			all := vset{}
			for _, e := range f.locs[pi] {
				if e == nil {
					continue
				}
				s := e[v.Name]
				if s == nil {
					all = nil
					break
				}
				for x := range s {
					all[x] = true
				}
			}
			if all != nil && len(all) <= MaxValues {
				add(v.Name, all)
			}
		}
	}
	demote(sys, in.dom)
	in.all = len(in.dom) == n
	return in
}

// demote makes unbounded every variable that some operation assigns from
// an unbounded one, until none is left. The sets are per location, so a
// variable can be bounded where it is copied and unbounded elsewhere; the
// explicit domain needs, globally, that an explicit variable only ever gets
// its value from explicit ones.
func demote(sys *cs.System, dom map[string][]int64) {
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
	finite := func(v string) bool { _, ok := dom[v]; return ok }
	for changed := true; changed; {
		changed = false
		for _, op := range ops {
			dst := op.Local
			if op.Kind == cs.OpWrite {
				dst = op.Shared
			}
			if !finite(dst) {
				continue
			}
			bounded := true
			switch op.Kind {
			case cs.OpRead:
				bounded = finite(op.Shared)
			case cs.OpHavoc:
				bounded = false
			default:
				for _, v := range expr.Vars(op.Val) {
					bounded = bounded && finite(v)
				}
			}
			if !bounded {
				delete(dom, dst)
				changed = true
			}
		}
	}
}
