package domains

import (
	"sort"

	"fencer/cs"
	"fencer/expr"
)

// MaxValues is the size cap of a finite domain: a variable that could hold
// more distinct values than this is treated as unbounded.
const MaxValues = 64

// maxCombos bounds the operand combinations tried when an expression over
// several finite variables is evaluated.
const maxCombos = 4096

// Info is the result of the analysis: for each variable of the system
// (shared and local, by name), whether it is explicit and its domain. A
// variable is explicit when the static analysis found its values finite
// (its domain is then proved), or when it is dynamic (dynamic.go): its
// value does not depend on a havoc or a nondeterministic initial value, and
// its domain is a candidate that explorations check and enlarge. Every
// other variable is unbounded and left to predicates.
//
// The domains of the dynamic variables change only between explorations
// (Absorb); an exploration uses one fixed Info.
type Info struct {
	sys  *cs.System
	dom  map[string][]int64 // static: sorted values; missing: not static
	dyn  map[string]*dynVar // dynamic variables
	ops  []cs.Op            // the read, write, assign and havoc operations
	nVar int
	skel map[string]bool // locals computed from static locals only (growth.go)
	// ord is the order view in use (order.go), nil when none; ordFailed
	// says that it was dropped after a miss, or cannot be built.
	ord       *orderView
	ordFailed bool
	// forgot holds the variables whose values are forgotten (forget.go).
	forgot map[string]bool
}

// AllFinite reports whether every variable of the system is explicit: the
// system then has no havoc and no nondeterministic initial value but
// ranged ones (nondet.go), so a schedule and a choice of InitChoices
// determine its run.
func (in *Info) AllFinite() bool { return in.NumFinite() == in.nVar }

// Finite reports whether v is explicit: its values lie in a finite set the
// analysis computed (static), or it is dynamic (its domain a candidate that
// explorations check, see Absorb), or it is counter-like and the order
// view is in use (order.go).
func (in *Info) Finite(v string) bool {
	if _, ok := in.dom[v]; ok {
		return true
	}
	if _, ok := in.dyn[v]; ok {
		return true
	}
	if in.forgot[v] {
		return true
	}
	return in.ord != nil && in.ord.explicit[v]
}

// Dynamic reports whether v is explicit with a candidate domain.
func (in *Info) Dynamic(v string) bool { _, ok := in.dyn[v]; return ok }

// Values returns the sorted domain of v (for a dynamic variable, the
// current candidate), or nil when v is unbounded or in the order view. The slice is never
// changed afterwards: a later Absorb makes a new one.
func (in *Info) Values(v string) []int64 {
	if d, ok := in.dyn[v]; ok {
		return d.vals
	}
	if in.forgot[v] {
		return zeroOnly
	}
	return in.dom[v]
}

// NumFinite returns the number of explicit variables.
func (in *Info) NumFinite() int {
	n := len(in.dom) + len(in.dyn) + len(in.forgot)
	if in.ord != nil {
		n += len(in.ord.explicit)
	}
	return n
}

// NumDynamic returns the number of dynamic variables.
func (in *Info) NumDynamic() int { return len(in.dyn) }

// Analyze computes the finite domains of the variables of sys: a fixpoint
// over the operations of every process (atomic bodies included), with one
// set per shared variable and, for the locals, one set per location, so
// that guards bound them (flow.go). It holds for any interleaving and any
// memory model (a buffered write holds a value that was assigned to its
// variable, so buffer slots and last-write values lie in the variable's
// domain too).
//
// The variables it finds unbounded only because their values grow (not
// because of a havoc or a nondeterministic initial value, directly or
// through the values they are computed from) are made dynamic (dynamic.go),
// each with its declared value as its first candidate domain.
func Analyze(sys *cs.System) *Info {
	f := &flow{sys: sys}
	f.run()
	in := &Info{sys: sys, dom: map[string][]int64{}, dyn: map[string]*dynVar{}}
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
	in.nVar = n
	in.ops = dataOps(sys)
	capInits(sys, in.dom)
	demote(in.ops, in.dom)
	in.initDynamic()
	in.forgetIrrelevant()
	return in
}

// dataOps returns the operations of sys that give a variable a value
// (reads, writes, assignments, havocs), atomic bodies included.
func dataOps(sys *cs.System) []cs.Op {
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
	return ops
}

// demote makes unbounded every variable that some operation assigns from
// an unbounded one, until none is left. The sets are per location, so a
// variable can be bounded where it is copied and unbounded elsewhere; the
// explicit domain needs, globally, that an explicit variable only ever gets
// its value from explicit ones.
func demote(ops []cs.Op, dom map[string][]int64) {
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
