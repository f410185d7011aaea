package domains

import (
	"errors"
	"fmt"
	"sort"
	"strings"

	"fencer/cs"
	"fencer/expr"
	"fencer/kabs"
)

// This file is the dynamic part of the explicit domain. The static analysis
// is flow-insensitive on shared variables, so a value chain through a loop
// (x0 = r1 + 1 after r1 = x0) makes x0 unbounded even when a local counter
// bounds the loop and x0 only ever holds a handful of values. Such a
// variable is deterministic: its value never depends on a havoc or a
// nondeterministic initial value. It is made explicit (dynamic), with a
// candidate domain D(x), first its declared value.
//
// Explicit values are computed by evaluation; the one step that needs a
// domain is the UPDATE-AM flush of the k-abstraction, which gives x "any
// value": the value of one of p's writes to x that the abstract tail
// forgot. For a static x the explicit domain branches over x's static
// domain, which holds every value x can have. A dynamic x has no such
// domain; branching over the values seen so far would feed values of one
// run into another and make the domains grow without end (a flushed value
// v is read, v + 1 written, flushed in the next exploration...). So for a
// dynamic x the state remembers which values p wrote to its tail: the tail
// set T_{p,x}, a bit set over D(x) (MaxValues is 64: one int64), at a
// position of its own that matters while x is in S(p). A write into the
// tail (WRITE-G) adds its value; UPDATE-AM branches over T_{p,x} only;
// UPDATE-AS, which flushes x's last tail write and takes x out of S(p),
// clears it. Any run of the k-abstraction whose UPDATE-AM flushes move
// values of earlier tail writes is explored; every run of the exact
// semantics is simulated by one (a flushed write that is not x's last in
// the tail was written there since x entered S(p), so its value is in
// T_{p,x}). This is more precise than the paper's abstraction, never less
// sound, and a counterexample found is still a run of the k-abstraction.
//
// A value written into a tail that is not in D(x) has no bit: the step
// records it (a miss) and the exploration is void: Absorb adds the values
// it observed to the domains and the exploration is run again. An
// exploration without a miss is sound; reach reports "no bad state" only
// from such an exploration. Every explored value of a dynamic variable
// outside its domain is recorded as well (Observe), so the next domains
// are complete at once, and a variable that would get more than MaxValues
// values is made unbounded again (with every variable computed from it),
// as the static analysis would: predicates take over. The exploration
// stops as soon as that happens.

// dynVar is a dynamic variable and its candidate domain. It is never
// changed: Absorb replaces it, so an exploration keeps the domain it
// started with.
type dynVar struct {
	name string
	vals []int64       // sorted; at most MaxValues
	idx  map[int64]int // value → its index in vals (its bit in a tail set)
}

func newDynVar(name string, vals []int64) *dynVar {
	sort.Slice(vals, func(i, j int) bool { return vals[i] < vals[j] })
	d := &dynVar{name: name, vals: vals, idx: make(map[int64]int, len(vals))}
	for i, x := range vals {
		d.idx[x] = i
	}
	return d
}

// initDynamic makes dynamic every variable that is not static, has a
// declared initial value, is never havocked, is not computed on a cycle
// (growth.go), is relevant to some guard, and is computed only from
// explicit variables (pruneDynamic).
func (in *Info) initDynamic() {
	add := func(v cs.VarDecl) {
		if _, ok := in.dom[v.Name]; !ok && !v.Init.Nondet {
			in.dyn[v.Name] = newDynVar(v.Name, []int64{v.Init.Value})
		}
	}
	for _, v := range in.sys.Shared {
		add(v)
	}
	for _, p := range in.sys.Procs {
		for _, v := range p.Locals {
			add(v)
		}
	}
	in.pruneDynamic()
	if len(in.dyn) == 0 {
		return
	}
	for v := range in.growthOnCycles() {
		delete(in.dyn, v)
	}
	rel := in.relevant()
	for v := range in.dyn {
		if !rel[v] {
			delete(in.dyn, v)
		}
	}
	in.pruneDynamic()
}

// relevant returns the variables that some guard depends on, directly or
// through the values it is computed from. The others never decide a step:
// tracking their values explicitly only multiplies the states (a shared
// array written and never read), while predicates leave them out; so only
// relevant variables are made dynamic.
func (in *Info) relevant() map[string]bool {
	rel := map[string]bool{}
	var guards func(op cs.Op)
	guards = func(op cs.Op) {
		if op.Kind == cs.OpAssume {
			for _, v := range expr.Vars(op.Val) {
				rel[v] = true
			}
		}
		for _, b := range op.Body {
			guards(b)
		}
	}
	for _, p := range in.sys.Procs {
		for _, e := range p.Edges {
			guards(e.Op)
		}
	}
	for changed := true; changed; {
		changed = false
		for _, op := range in.ops {
			dst, srcs := op.Local, []string(nil)
			switch op.Kind {
			case cs.OpRead:
				srcs = []string{op.Shared}
			case cs.OpWrite:
				dst, srcs = op.Shared, expr.Vars(op.Val)
			case cs.OpAssign:
				srcs = expr.Vars(op.Val)
			}
			if !rel[dst] {
				continue
			}
			for _, v := range srcs {
				if !rel[v] {
					rel[v] = true
					changed = true
				}
			}
		}
	}
	return rel
}

// pruneDynamic removes from the dynamic variables, until none is left, every
// one that some operation assigns from a variable that is not explicit, or
// havocs. Static variables are only ever assigned from static ones (demote),
// so an explicit variable always gets its value from explicit ones.
func (in *Info) pruneDynamic() {
	for changed := true; changed; {
		changed = false
		for _, op := range in.ops {
			dst := op.Local
			if op.Kind == cs.OpWrite {
				dst = op.Shared
			}
			if _, ok := in.dyn[dst]; !ok {
				continue
			}
			ok := true
			switch op.Kind {
			case cs.OpRead:
				ok = in.Finite(op.Shared)
			case cs.OpHavoc:
				ok = false
			default:
				for _, v := range expr.Vars(op.Val) {
					ok = ok && in.Finite(v)
				}
			}
			if !ok {
				delete(in.dyn, dst)
				changed = true
			}
		}
	}
}

// DropDynamic is the fallback when an explicit evaluation fails: it drops
// the order view if one is in use (order.go; for good, and the dynamic
// variables stay), else makes every dynamic variable unbounded; it reports
// whether it dropped anything.
func (in *Info) DropDynamic() bool {
	if in.dropOrderView() {
		return true
	}
	n := len(in.dyn)
	in.dyn = map[string]*dynVar{}
	in.unforget()
	return n > 0
}

// Seed starts the candidate domains of in's dynamic variables from those
// that an earlier analysis of a system with the same variables learned
// (the SC check before a TSO run, the run before its final check), so that
// the first exploration need not miss what that one saw. Candidates only
// decide how often an exploration is void: soundness rests on the miss
// check alone.
func (in *Info) Seed(from *Info) {
	if from == nil {
		return
	}
	for name, d := range in.dyn {
		f, ok := from.dyn[name]
		if !ok {
			continue
		}
		vals := append([]int64(nil), d.vals...)
		for _, x := range f.vals {
			if _, dup := d.idx[x]; !dup {
				vals = append(vals, x)
			}
		}
		if len(vals) <= MaxValues {
			in.dyn[name] = newDynVar(name, vals)
		}
	}
}

// ErrDomainFull stops an exploration in which a dynamic variable was seen
// with more than MaxValues values: Absorb makes it unbounded.
var ErrDomainFull = errors.New("a dynamic domain exceeds the size cap")

// DynPos is a position of a value vector that holds a value of a dynamic
// variable at some control state: Var indexes the Layout's dynamic
// variables.
type DynPos struct {
	Pos, Var int
}

// DynPositions returns the positions that matter at c and hold a value of
// a dynamic variable (nil when there is none): those Observe checks.
func (l *Layout) DynPositions(c *kabs.Ctl) []DynPos {
	if len(l.dyn) == 0 {
		return nil
	}
	return l.AppendDynPositions(nil, c)
}

// AppendDynPositions appends DynPositions(c) to out.
func (l *Layout) AppendDynPositions(out []DynPos, c *kabs.Ctl) []DynPos {
	if len(l.dyn) == 0 {
		return out
	}
	for i, p := range l.pos {
		v := l.posDyn[i]
		if p.kind != posSlot && v < 0 {
			continue // no dynamic variable, whether it matters or not
		}
		if !l.matters(c, i) {
			continue
		}
		if p.kind == posSlot {
			v = l.sharedDyn[c.B[p.proc][p.slot-1]]
		}
		if v >= 0 {
			out = append(out, DynPos{Pos: i, Var: v})
		}
	}
	return out
}

func (l *Layout) dynIdx(name string) int {
	if i, ok := l.dynID[name]; ok {
		return i
	}
	return -1
}

// Observe records the values of v at the positions dps (DynPositions of
// v's control state) that lie outside their variable's domain. It returns
// false when some dynamic variable now has more than MaxValues values: the
// exploration should stop (ErrDomainFull) and Absorb make it unbounded.
func (l *Layout) Observe(dps []DynPos, v []int64) bool {
	for _, d := range dps {
		x := v[d.Pos]
		if _, ok := l.dyn[d.Var].idx[x]; !ok && !l.record(d.Var, x, false) {
			return false
		}
	}
	return true
}

// record notes value x of dynamic variable d outside its domain (a miss:
// a tail write that got no bit) and reports whether the domain stays
// within MaxValues. The slow path of Observe and Step.Apply: it locks, so
// explorations may apply steps from several goroutines.
func (l *Layout) record(d int, x int64, miss bool) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	if miss {
		l.missed = true
	}
	o := l.obs[d]
	if o == nil {
		o = map[int64]bool{}
		l.obs[d] = o
	}
	o[x] = true
	return len(l.dyn[d].vals)+len(o) <= MaxValues
}

// Missed reports whether a tail write of a step applied with l had no bit
// in its tail set: the runs computed with l are then incomplete.
func (l *Layout) Missed() bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.missed
}

// Absorb adds the values the exploration over l observed outside the
// candidate domains to those domains, and makes unbounded the variables
// whose domain would exceed MaxValues (and those computed from them). It
// returns whether the exploration must be run again: a value written into
// a tail had no bit in its domain (a miss), or a variable stopped being
// explicit. When it returns false, every tail write of the exploration was
// recorded in its tail set: the exploration was sound. what says what
// changed, for the log.
func (in *Info) Absorb(l *Layout) (again bool, what string, err error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	again = l.missed
	var grew, full []string
	for id, o := range l.obs {
		if len(o) == 0 {
			continue
		}
		dv := l.dyn[id]
		if in.dyn[dv.name] != dv {
			return false, "", fmt.Errorf("internal error: the domain of %s changed during an exploration", dv.name)
		}
		if len(dv.vals)+len(o) > MaxValues {
			full = append(full, dv.name)
			continue
		}
		vals := append([]int64(nil), dv.vals...)
		for x := range o {
			vals = append(vals, x)
		}
		in.dyn[dv.name] = newDynVar(dv.name, vals)
		grew = append(grew, fmt.Sprintf("%s to %d", dv.name, len(vals)))
	}
	var b strings.Builder
	if len(grew) > 0 {
		sort.Strings(grew)
		fmt.Fprintf(&b, "domains grew (values): %s", strings.Join(grew, ", "))
		if l.missed {
			b.WriteString("; a tail write had no bit")
		}
	}
	if l.ordFull && in.ord != nil {
		if b.Len() > 0 {
			b.WriteString("; ")
		}
		if in.ord.tailCap*2 > tailCapMax {
			in.dropOrderView()
			fmt.Fprintf(&b, "a tail value set of the order view needs more than %d values: the view dropped", tailCapMax)
		} else {
			in.ord.tailCap *= 2
			fmt.Fprintf(&b, "a tail value set of the order view was full: its capacity now %d", in.ord.tailCap)
		}
	}
	if len(full) > 0 {
		before := len(in.dyn)
		for _, v := range full {
			delete(in.dyn, v)
		}
		in.pruneDynamic()
		in.unforget()
		sort.Strings(full)
		if b.Len() > 0 {
			b.WriteString("; ")
		}
		fmt.Fprintf(&b, "more than %d values: %s unbounded (%d variables in all)", MaxValues, strings.Join(full, ", "), before-len(in.dyn))
		again = true
	}
	return again, b.String(), nil
}
