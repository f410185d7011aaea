package domains

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math/bits"
	"slices"
	"strconv"
	"strings"
	"sync"

	"fencer/cs"
	"fencer/expr"
	"fencer/kabs"
	"fencer/memmodel"
)

// Layout is the explicit-value domain of one k-abstraction: the positions in
// a value vector of the variables of X = X_S ∪ X_L ∪ X_B ∪ X_LW whose values
// lie in a finite set. Shared and local variables are explicit when the
// analysis found them finite; lw_{p,x} and, under PSO, b_{p,x,i} when x is
// finite; under TSO the slot b_{p,i} holds a write to whatever variable the
// control state says, so it is explicit exactly when that variable is finite
// (a position is reserved for it either way).
//
// A value vector is canonical: positions that do not matter at the control
// state (a dead local, a slot past the end of the buffer, lw_{p,x} with no
// write to x buffered, a TSO slot holding an unbounded variable) hold 0.
type Layout struct {
	Info  *Info
	abs   *kabs.Abs
	names []string
	index map[string]int
	pos   []position
	live  [][]map[string]bool // per process, per location
	sidx  map[string]int
	id    string // identifies the set of explicit variables (Env keys)
	// moved holds, by process p, the runs [lo, hi) (as Zeros) of the
	// positions a step of p can change: the shared ones and p's own
	// (PosProc), for Step.ApplyMoved.
	moved []Zeros
	// The dynamic variables (dynamic.go), with the domains of this
	// exploration: posDyn gives the one of each position (-1: none; a TSO
	// slot's depends on the control state); obs holds the values observed
	// outside each domain and missed whether a tail write had no bit in
	// its tail set (both under mu).
	dyn    []*dynVar
	dynID  map[string]int
	posDyn []int
	// sharedDyn gives, by shared variable, its index among the dynamic
	// variables (-1: none): DynPositions reads it for a TSO slot.
	sharedDyn []int
	mu        sync.Mutex
	obs       []map[int64]bool
	missed    bool
	// ordFull says that a tail value set of the order view was full
	// (orderbuf.go): the exploration is void, and Absorb grows the capacity.
	ordFull bool
	decl    map[string]cs.Init // initial values by name, made by Init
	ord     *ordLayout         // the order view (order.go), nil when none
	// finite says, by shared variable, whether it is explicit (Info.Finite
	// when the layout was made); liveAt, by position, whether a local's
	// position is live at each location of its process (nil for the other
	// kinds). Zero and Explicit run once per new control state: they read
	// these instead of maps keyed by names.
	finite []bool
	liveAt [][]bool
}

// position says what a vector position stands for.
type position struct {
	kind  posKind
	proc  int // process of a local, slot or lw
	x     int // shared variable of an lw or PSO slot
	slot  int // 1-based slot number
	local string
}

type posKind uint8

const (
	posShared posKind = iota
	posLocal
	posLW
	posSlot     // TSO b_{p,i}
	posSlotPSO  // PSO b_{p,x,i}
	posTail     // T_{p,x}: the values in p's tail for a dynamic x, a bit set over its domain (dynamic.go)
	posOrdTail  // a value of T_{p,x} for x in a class of the order view (slot j; orderbuf.go)
	posOrdTailN // the number of values of that T_{p,x}
)

// tailName names the position of T_{p,x}; it is no variable of kabs (a
// space cannot be in one), so no formula mentions it.
func tailName(proc, x string) string { return "tail " + proc + " " + x }

// ordTailName names the position of the j-th value of T_{p,x} for x in a
// class of the order view (j = -1: their number; order.go).
func ordTailName(proc, x string, j int) string {
	if j < 0 {
		return "ordtail " + proc + " " + x + " n"
	}
	return "ordtail " + proc + " " + x + " " + strconv.Itoa(j)
}

// NewLayout lays out the explicit variables of abs (whose K must not be
// kabs.Unbounded). With buffers it first drops info's order view if the
// view was built for another buffer layout (orderbuf.go, "Buffers").
func NewLayout(info *Info, abs *kabs.Abs) *Layout {
	if info.ord != nil && abs.Layout().Buffered() && abs.Layout() != info.ord.layout {
		info.dropOrderView()
	}
	l := &Layout{Info: info, abs: abs, index: map[string]int{}, sidx: map[string]int{}, dynID: map[string]int{}}
	sys := abs.Sys
	for _, v := range sys.Shared {
		l.addDyn(v.Name)
	}
	for _, proc := range sys.Procs {
		for _, v := range proc.Locals {
			l.addDyn(v.Name)
		}
	}
	add := func(name string, p position) {
		l.index[name] = len(l.names)
		l.names = append(l.names, name)
		l.pos = append(l.pos, p)
		d := -1
		switch p.kind {
		case posShared, posLW, posSlotPSO:
			d = l.dynIdx(sys.Shared[p.x].Name)
		case posLocal:
			d = l.dynIdx(p.local)
		}
		l.posDyn = append(l.posDyn, d)
	}
	defer func() {
		l.liveAt = make([][]bool, len(l.pos))
		for i, p := range l.pos {
			if p.kind == posLocal {
				at := make([]bool, len(l.live[p.proc]))
				for loc, live := range l.live[p.proc] {
					at[loc] = live[p.local]
				}
				l.liveAt[i] = at
			}
		}
		l.id = layoutID(l.names)
		l.moved = make([]Zeros, len(sys.Procs))
		for p := range l.moved {
			var mine []int
			for i := range l.pos {
				if q := l.PosProc(i); q < 0 || q == p {
					mine = append(mine, i)
				}
			}
			l.moved[p] = ZerosOf(mine)
		}
		if info.ord != nil {
			l.ord = newOrdLayout(info.ord, l)
		}
	}()
	for i, v := range sys.Shared {
		l.sidx[v.Name] = i
		l.finite = append(l.finite, info.Finite(v.Name))
		l.sharedDyn = append(l.sharedDyn, l.dynIdx(v.Name))
		if info.Finite(v.Name) {
			add(v.Name, position{kind: posShared, x: i})
		}
	}
	for p, proc := range sys.Procs {
		l.live = append(l.live, proc.Live())
		for _, v := range proc.Locals {
			if info.Finite(v.Name) {
				add(v.Name, position{kind: posLocal, proc: p, local: v.Name})
			}
		}
	}
	if !abs.Layout().Buffered() {
		return l
	}
	for p, proc := range sys.Procs {
		for x, v := range sys.Shared {
			if !info.Finite(v.Name) {
				continue
			}
			add(kabs.LWVar(proc.Name, v.Name), position{kind: posLW, proc: p, x: x})
			if info.Dynamic(v.Name) {
				add(tailName(proc.Name, v.Name), position{kind: posTail, proc: p, x: x})
			}
			if info.ord.inClass(v.Name) {
				add(ordTailName(proc.Name, v.Name, -1), position{kind: posOrdTailN, proc: p, x: x})
				for j := 0; j < info.ord.tailCap; j++ {
					add(ordTailName(proc.Name, v.Name, j), position{kind: posOrdTail, proc: p, x: x, slot: j})
				}
			}
			if abs.Layout() == memmodel.PerVariable {
				for i := 1; i <= abs.K; i++ {
					add(kabs.SlotVarX(proc.Name, v.Name, i), position{kind: posSlotPSO, proc: p, x: x, slot: i})
				}
			}
		}
		if abs.Layout() == memmodel.PerProcess {
			for i := 1; i <= abs.K; i++ {
				add(kabs.SlotVar(proc.Name, i), position{kind: posSlot, proc: p, slot: i})
			}
		}
	}
	return l
}

// addDyn gives v an index among the dynamic variables of l if it is one.
func (l *Layout) addDyn(v string) {
	if d, ok := l.Info.dyn[v]; ok {
		l.dynID[v] = len(l.dyn)
		l.dyn = append(l.dyn, d)
		l.obs = append(l.obs, nil)
	}
}

// layoutIDs interns the lists of explicit variables: two layouts have the
// same id exactly when their vectors mean the same, so Env keys can be
// compared across explorations whose sets of explicit variables differ
// (a dynamic variable made unbounded) and across engines sharing a cache.
var layoutIDs = struct {
	sync.Mutex
	m map[string]string
}{m: map[string]string{}}

func layoutID(names []string) string {
	k := strings.Join(names, "\x00")
	layoutIDs.Lock()
	defer layoutIDs.Unlock()
	id, ok := layoutIDs.m[k]
	if !ok {
		id = string(binary.AppendUvarint(nil, uint64(len(layoutIDs.m))))
		layoutIDs.m[k] = id
	}
	return id
}

// Len is the length of a value vector.
func (l *Layout) Len() int { return len(l.names) }

// Init returns the initial value vector at control state c: declared
// values, and the least of its range for a ranged variable (cs.Init.Ranged;
// Inits lists every choice).
func (l *Layout) Init(c *kabs.Ctl) []int64 {
	v := make([]int64, len(l.names))
	if l.decl == nil {
		l.decl = map[string]cs.Init{}
		for _, d := range l.abs.Sys.Decls() {
			l.decl[d.Name] = d.Init
		}
	}
	for i, p := range l.pos {
		if (p.kind == posShared || p.kind == posLocal) && !l.Info.forgot[l.names[i]] {
			d := l.decl[l.names[i]]
			v[i] = d.Value
			if d.Nondet {
				v[i] = d.Lo
			}
		}
	}
	for _, i := range l.Zero(c) {
		v[i] = 0
	}
	return v
}

// Explicit returns, per position, whether the position holds an explicit
// value at control state c (a TSO slot holding an unbounded variable does
// not). Positions that do not matter at c count as explicit: their value
// is 0 and nothing reads it.
func (l *Layout) Explicit(c *kabs.Ctl) []bool { return l.AppendExplicit(nil, c) }

// AppendExplicit appends Explicit(c) to out.
func (l *Layout) AppendExplicit(out []bool, c *kabs.Ctl) []bool {
	out = slices.Grow(out, len(l.pos))
	for _, p := range l.pos {
		x := true
		if p.kind == posSlot && p.slot <= len(c.B[p.proc]) {
			x = l.finite[c.B[p.proc][p.slot-1]]
		}
		out = append(out, x)
	}
	return out
}

// PosProc returns the process whose part of a control state (location,
// buffer, tail set) decides, for position i, Explicit, Zero and
// DynPositions; -1 for a shared variable's position, which is the same at
// every control state.
func (l *Layout) PosProc(i int) int {
	if l.pos[i].kind == posShared {
		return -1
	}
	return l.pos[i].proc
}

// Zero returns the positions that do not matter at c, or whose variable is
// not explicit there: they hold 0 in a canonical vector.
func (l *Layout) Zero(c *kabs.Ctl) []int { return l.AppendZero(nil, c) }

// AppendZero appends Zero(c) to out.
func (l *Layout) AppendZero(out []int, c *kabs.Ctl) []int {
	for i := range l.pos {
		if !l.matters(c, i) {
			out = append(out, i)
		}
	}
	return out
}

// matters reports whether position i matters at c (Zero).
func (l *Layout) matters(c *kabs.Ctl, i int) bool {
	p := &l.pos[i]
	switch p.kind {
	case posLocal:
		return l.liveAt[i][c.PC[p.proc]]
	case posLW:
		return c.Buffered(p.proc, p.x)
	case posSlot:
		if p.slot > len(c.B[p.proc]) {
			return false
		}
		return l.finite[c.B[p.proc][p.slot-1]]
	case posTail, posOrdTail, posOrdTailN:
		return contains(c.S[p.proc], p.x)
	case posSlotPSO:
		n := 0
		for _, y := range c.B[p.proc] {
			if y == p.x {
				n++
			}
		}
		return p.slot <= n
	}
	return true
}

// Index returns the position of a variable of X, if it has one.
func (l *Layout) Index(name string) (int, bool) {
	i, ok := l.index[name]
	return i, ok
}

// Key encodes a value vector.
func Key(v []int64) string { return string(AppendKey(make([]byte, 0, len(v)+4), v)) }

// Step is the explicit part of one abstract transition taken from one
// control state to another: it computes the new values of the explicit
// variables and evaluates the guard when the guard mentions only explicit
// variables. What it leaves to the predicate domain is said by Symbolic.
type Step struct {
	guard   evalFn // nil when the guard is true or symbolic
	assigns []assignFn
	choose  int     // position that takes each of chooseV (UPDATE-AM of an explicit x), or -1
	chooseV []int64 // its candidate values
	// For a dynamic x (dynamic.go): tail is the position of T_{p,x};
	// a WRITE-G adds the value at tailSrc (lw_{p,x}) to it, an UPDATE-AM
	// (choose >= 0, chooseV nil) branches over it. dom is x's domain, dyn
	// its index in lay.
	tail, tailSrc, dyn int
	dom                *dynVar
	lay                *Layout
	// GuardSymbolic: the guard mentions a variable without an explicit
	// value; the predicate domain must decide it.
	GuardSymbolic bool
	// AssignsSymbolic: the transition assigns a variable without an
	// explicit value.
	AssignsSymbolic bool
	// ord is the layout's order view, moves the step's moves by a
	// constant of its class values (order.go).
	ord   *ordLayout
	moves []move
	// ordDst are the class positions the step assigns (ordcanon.go), and
	// ordSrc, for each, the class position it copies (-1: none).
	ordDst, ordSrc []int
	// otail is T_{p,x} for x in a class of the order view: a WRITE-G
	// adds the value of lw_{p,x} to it, an UPDATE-AM (choose) takes each
	// of its values (orderbuf.go, "Buffers").
	otail *ordTail
	// plain says that the step has no order view, no tail and no value
	// to choose: it is its guard, its assignments and the clearing, and
	// ApplyClipped takes a path of its own for it.
	plain bool
}

type assignFn struct {
	dst int
	f   evalFn
}

// Compile builds the explicit part of transition t, taken by step, from a
// control state with explicitness preX to one with postX (see Explicit);
// the result depends on nothing else (t determines step's rule, process and
// variable), so callers may share it within the exploration of l. It fails
// when an explicit variable would get a value computed from a non-explicit
// one, which the analysis rules out.
func (l *Layout) Compile(preX, postX []bool, t *kabs.Trans, step kabs.AStep) (*Step, error) {
	s := &Step{choose: -1, tail: -1, tailSrc: -1, lay: l, ord: l.ord}
	if l.ord != nil {
		var err error
		if s.moves, err = l.ord.compileMoves(t, step, l); err != nil {
			return nil, err
		}
	}
	s.otail = l.ordTailOf(step)
	if d, tail, lw := l.tailOf(step); d >= 0 {
		if step.Rule == kabs.RuleWriteG {
			s.tail, s.tailSrc, s.dyn, s.dom = tail, lw, d, l.dyn[d]
		} else {
			s.tail, s.dom = tail, l.dyn[d]
		}
	}
	idx := func(n string) (int, bool) {
		i, ok := l.index[n]
		return i, ok && preX[i]
	}
	if b, ok := expr.BoolValue(t.Guard); !ok || !b {
		g, err := compile(t.Guard, idx)
		if err != nil {
			s.GuardSymbolic = true
		} else {
			s.guard = g
		}
	}
	exists := map[string]bool{}
	for _, e := range t.Exists {
		exists[e] = true
	}
	forgetWrite := l.forgetsWrite(step)
	for _, a := range t.Assign {
		i, ok := l.index[a.Var]
		if !ok || !postX[i] {
			s.AssignsSymbolic = true
			continue
		}
		if l.Info.forgot[a.Var] || forgetWrite {
			// A forgotten variable, or the buffer slot or last-write
			// value of a write to one, holds 0 (forget.go).
			s.assigns = append(s.assigns, assignFn{i, func([]int64) (int64, bool) { return 0, true }})
			continue
		}
		if v, isVar := a.Val.(expr.Var); isVar && exists[v.Name] {
			if s.choose >= 0 {
				return nil, fmt.Errorf("internal error: %s gets an arbitrary value but is explicit", a.Var)
			}
			s.choose = i
			if (s.dom != nil || s.otail != nil) && step.Rule == kabs.RuleUpdateAM {
				continue // one of the values of the tail set
			}
			if s.chooseV = l.Info.Values(a.Var); s.chooseV == nil || l.Info.Dynamic(a.Var) {
				return nil, fmt.Errorf("internal error: %s gets an arbitrary value but is explicit", a.Var)
			}
			continue
		}
		f, err := compile(a.Val, idx)
		if err != nil {
			return nil, fmt.Errorf("internal error: explicit %s := %s: %v", a.Var, a.Val, err)
		}
		s.assigns = append(s.assigns, assignFn{i, f})
		if l.ord != nil && l.ord.cls[i] >= 0 {
			src := -1
			if v, isVar := a.Val.(expr.Var); isVar {
				if j, ok := idx(v.Name); ok && l.ord.cls[j] == l.ord.cls[i] {
					src = j
				}
			}
			s.ordDst = append(s.ordDst, i)
			s.ordSrc = append(s.ordSrc, src)
		}
	}
	s.plain = s.ord == nil && s.otail == nil && s.tail < 0 && s.choose < 0
	return s, nil
}

// forgetsWrite reports whether step writes a forgotten variable into a
// buffer (its slot and last-write value then hold 0, forget.go).
func (l *Layout) forgetsWrite(step kabs.AStep) bool {
	if l.Info.forgot == nil || step.Rule != kabs.RuleWriteL && step.Rule != kabs.RuleWriteG {
		return false
	}
	op := l.abs.Sys.Procs[step.Proc].Edges[step.Edge].Op
	return op.Kind == cs.OpWrite && l.Info.forgot[op.Shared]
}

// Zeros is a set of positions (Zero of a control state) as runs of
// consecutive positions: pairs lo, hi for the positions lo..hi-1, in
// increasing order. Apply clears a run at once.
type Zeros []int32

// ZerosOf returns zero (increasing positions) as runs.
func ZerosOf(zero []int) Zeros {
	var z Zeros
	for _, i := range zero {
		if n := len(z); n > 0 && int(z[n-1]) == i {
			z[n-1]++
			continue
		}
		z = append(z, int32(i), int32(i+1))
	}
	return z
}

// Apply calls out with each successor vector of v (none when the explicit
// guard is false; one per candidate value for an UPDATE-AM); zero is
// Zero(post), the positions cleared in the result. The vector
// passed to out lives in scratch (len(v) long) and is overwritten after out
// returns: out copies what it keeps. out returns false to stop. With the
// order view v must be canonical (the initial vector, or one Apply
// passed to out): a class whose set of values outside its hull the step
// leaves as it is is not canonicalised again (ordcanon.go).
func (s *Step) Apply(v []int64, zero []int, scratch []int64, out func(next []int64) bool) error {
	return s.ApplyZeros(v, ZerosOf(zero), scratch, out)
}

// ApplyZeros is Apply with Zero(post) given as runs (ZerosOf), for callers
// that keep them per control state.
func (s *Step) ApplyZeros(v []int64, zero Zeros, scratch []int64, out func(next []int64) bool) error {
	return s.applyZeros(v, zero, zero, scratch, out)
}

// ApplyMoved is ApplyZeros for a step of process p from a v that holds 0
// at every position of Zero(pre) (every vector Apply gives, and every
// initial one): it clears only the positions of Zero(post) that a step of
// p can change (the shared ones and p's own). The others keep their
// values, and whether they are in Zero is decided by their own process's
// part of the control state (PosProc), which the step leaves as it is:
// they are 0 already. With the order view, canonStep then scans only
// those positions for the classes the step changes.
func (s *Step) ApplyMoved(v []int64, zero Zeros, p int, scratch []int64, out func(next []int64) bool) error {
	var buf [64]int32
	return s.applyZeros(v, zero, clipZeros(zero, s.lay.moved[p], buf[:0]), scratch, out)
}

// ApplyClipped is ApplyMoved with the clipped runs given: moved must hold
// the positions of OwnZeros(zero, p) at which v may not hold 0 or the
// step assigns (ClearedZeros leaves out the others). They are a function
// of p's part of the control state (its location, buffer and tail set)
// alone, so a caller keeps them with it, where they are few and stay in
// the cache: clipping per step cost 4% of the time on Bakery N = 4, and
// clearing all of Zero(post), read from the target's profile, 11% on
// Dijkstra N = 4 (46,035 profiles to 426 process components).
func (s *Step) ApplyClipped(v []int64, zero, moved Zeros, scratch []int64, out func(next []int64) bool) error {
	if !s.plain {
		return s.applyZeros(v, zero, moved, scratch, out)
	}
	// Most steps of an exploration: the guard, the assignments, the
	// clearing, one successor.
	if ok, err := s.Enabled(v); !ok || err != nil {
		return err
	}
	next, err := s.assign(v, scratch)
	if err != nil {
		return err
	}
	for j := 0; j+1 < len(moved); j += 2 {
		clear(next[moved[j]:moved[j+1]])
	}
	out(next)
	return nil
}

// InPlace reports whether ApplyInPlace applies the step.
func (s *Step) InPlace() bool { return s.plain && len(s.assigns) <= inPlaceMax }

// inPlaceMax is the most assignments ApplyInPlace evaluates (on the
// stack) before it writes them.
const inPlaceMax = 8

// ApplyInPlace is ApplyClipped for a step that InPlace accepts and that is
// enabled at v (Enabled, which the caller has asked already to choose
// the step), with v itself the successor. A caller that walks a chain of
// steps, each the one step it takes, saves the copy of the vector.
func (s *Step) ApplyInPlace(v []int64, moved Zeros) error {
	var buf [inPlaceMax]int64
	vals := buf[:len(s.assigns)]
	for k, a := range s.assigns {
		x, ok := a.f(v)
		if !ok {
			return fmt.Errorf("explicit assignment: %w", ErrArithmetic)
		}
		vals[k] = x
	}
	for k, a := range s.assigns {
		v[a.dst] = vals[k]
	}
	for j := 0; j+1 < len(moved); j += 2 {
		clear(v[moved[j]:moved[j+1]])
	}
	return nil
}

// OwnZeros returns the runs of zero that a step of p can change
// (ApplyMoved's clipping), for ApplyClipped.
func (l *Layout) OwnZeros(zero Zeros, p int) Zeros {
	return clipZeros(zero, l.moved[p], nil)
}

// ClearedZeros returns the runs of to, a process's OwnZeros after a step
// by t, less the positions of from, its OwnZeros before, that t assigns
// nothing: a vector of the state before holds 0 there (ApplyMoved), so
// the step need not clear them, nor canonStep scan them (ApplyClipped).
// What a step assigns after the clearing (a value chosen, a tail's bit)
// is never in to.
func (l *Layout) ClearedZeros(to, from Zeros, t *kabs.Trans) Zeros {
	n := 0
	if k := len(to); k > 0 {
		n = int(to[k-1])
	}
	// skip: the positions of from that t assigns nothing.
	skip := make([]bool, n)
	for j := 0; j+1 < len(from); j += 2 {
		for i := from[j]; i < min(from[j+1], int32(n)); i++ {
			skip[i] = true
		}
	}
	for _, a := range t.Assign {
		if i, ok := l.index[a.Var]; ok && i < n {
			skip[i] = false
		}
	}
	var idx []int
	for j := 0; j+1 < len(to); j += 2 {
		for i := to[j]; i < to[j+1]; i++ {
			if !skip[i] {
				idx = append(idx, int(i))
			}
		}
	}
	return ZerosOf(idx)
}

// clipZeros appends to dst the runs of zero within the runs of in.
func clipZeros(zero, in Zeros, dst Zeros) Zeros {
	j := 0
	for r := 0; r+1 < len(in); r += 2 {
		lo, hi := in[r], in[r+1]
		for j+1 < len(zero) && zero[j+1] <= lo {
			j += 2
		}
		for k := j; k+1 < len(zero) && zero[k] < hi; k += 2 {
			dst = append(dst, max(zero[k], lo), min(zero[k+1], hi))
		}
	}
	return dst
}

// applyZeros is ApplyZeros clearing moved (zero, or the part of it
// ApplyMoved keeps) when v is canonical, and zero from a widened version
// of v, which is not.
func (s *Step) applyZeros(v []int64, zero, moved Zeros, scratch []int64, out func(next []int64) bool) error {
	if ok, err := s.Enabled(v); !ok || err != nil {
		return err
	}
	// w goes back to its pool by hand, not by a deferred call: this is
	// the innermost step of every exploration, and a panic that skips
	// the put only leaves the pool one canonWork short.
	var w lazyWork
	if len(s.moves) > 0 && !s.ord.exact(v, s.moves, w.get()) {
		if NoWiden {
			w.put()
			return ErrInexact
		}
		s.ord.view.widened.Store(true)
		for _, u := range s.ord.widen(v, s.moves) {
			if more, err := s.apply(u, false, zero, scratch, &w, out); !more || err != nil {
				w.put()
				return err
			}
		}
		w.put()
		return nil
	}
	_, err := s.apply(v, true, moved, scratch, &w, out)
	w.put()
	return err
}

// Enabled reports whether the step's explicit guard holds of v: for a
// step that InPlace accepts, whether it is enabled (the others have more
// to decide: a symbolic guard, an order view that widens v).
func (s *Step) Enabled(v []int64) (bool, error) {
	if s.guard == nil {
		return true, nil
	}
	g, ok := s.guard(v)
	if !ok {
		return false, fmt.Errorf("explicit guard: %w", ErrArithmetic)
	}
	return g != 0, nil
}

// assign returns, in scratch, pre with the step's assignments made.
func (s *Step) assign(pre []int64, scratch []int64) ([]int64, error) {
	next := scratch[:len(pre)]
	copy(next, pre)
	for _, a := range s.assigns {
		x, ok := a.f(pre)
		if !ok {
			return nil, fmt.Errorf("explicit assignment: %w", ErrArithmetic)
		}
		next[a.dst] = x
	}
	return next, nil
}

// apply is Apply after the guard, from pre (v, or a widened version of
// it: canonical says which); it reports whether out wants more. w gives
// the storage of the order view's canonical forms when they need it.
func (s *Step) apply(pre []int64, canonical bool, zero Zeros, scratch []int64, w *lazyWork, out func(next []int64) bool) (bool, error) {
	next, err := s.assign(pre, scratch)
	if err != nil {
		return false, err
	}
	if s.ord != nil && canonical {
		s.ord.canonStep(s, pre, next, zero, w) // clears zero too
	} else {
		for j := 0; j+1 < len(zero); j += 2 {
			clear(next[zero[j]:zero[j+1]])
		}
		if s.ord != nil {
			s.ord.canonAll(next, w.get())
		}
	}
	if s.otail != nil && s.otail.write {
		s.otail.add(s.lay, next)
	}
	if s.tailSrc >= 0 && s.tail >= 0 && s.dom != nil {
		x := next[s.tailSrc]
		if b, ok := s.dom.idx[x]; ok {
			next[s.tail] |= 1 << b
		} else {
			s.lay.record(s.dyn, x, true) // no bit: this exploration is void
		}
	}
	switch {
	case s.choose < 0:
		return out(next), nil
	case s.otail != nil: // UPDATE-AM of x in a class: T_{p,x}
		var cw *canonWork
		if s.ord != nil {
			cw = w.get()
		}
		return s.otail.choose(s.ord, next, s.choose, cw, out), nil
	case s.chooseV == nil: // UPDATE-AM of a dynamic x: T_{p,x}
		for set := uint64(pre[s.tail]); set != 0; set &= set - 1 {
			next[s.choose] = s.dom.vals[bits.TrailingZeros64(set)]
			if !out(next) {
				return false, nil
			}
		}
	default:
		for _, c := range s.chooseV {
			next[s.choose] = c
			if !out(next) {
				return false, nil
			}
		}
	}
	return true, nil
}

// tailOf returns, for a WRITE-G or an UPDATE-AM of a dynamic x by p, x's
// index among the dynamic variables and the positions of T_{p,x} and
// lw_{p,x}; d < 0 otherwise.
func (l *Layout) tailOf(step kabs.AStep) (d, tail, lw int) {
	proc, x, ok := l.tailStep(step)
	if !ok {
		return -1, -1, -1
	}
	d = l.dynIdx(x)
	if d < 0 {
		return -1, -1, -1
	}
	return d, l.index[tailName(proc, x)], l.index[kabs.LWVar(proc, x)]
}

// tailStep returns the process and the shared variable of a WRITE-G (a
// write that goes to the abstract tail) or an UPDATE-AM (a flush that
// takes a value of the tail); ok is false for any other step.
func (l *Layout) tailStep(step kabs.AStep) (proc, x string, ok bool) {
	sys := l.abs.Sys
	switch step.Rule {
	case kabs.RuleWriteG:
		x = sys.Procs[step.Proc].Edges[step.Edge].Op.Shared
	case kabs.RuleUpdateAM:
		x = sys.Shared[step.Var].Name
	default:
		return "", "", false
	}
	return sys.Procs[step.Proc].Name, x, true
}

func contains(s []int, x int) bool {
	for _, y := range s {
		if y == x {
			return true
		}
	}
	return false
}

// NoWiden, for tests and measurements, makes a step of the order view
// that is not exact fail with ErrInexact instead of widening.
var NoWiden = false

// ErrArithmetic is an overflow or a division by zero in an explicit step:
// the values cannot be represented, and the caller falls back to
// predicates (Info.DropDynamic) or gives up.
var ErrArithmetic = errors.New("arithmetic error")

// AppendKey appends the encoding of a value vector to b.
func AppendKey(b []byte, v []int64) []byte {
	for _, x := range v {
		b = binary.AppendVarint(b, x)
	}
	return b
}

// Env is the view of a value vector at a control state that the predicate
// domain needs: the value of each variable that is explicit there.
type Env struct {
	L    *Layout
	X    []bool // Explicit at the control state
	Vals []int64
	key  string
}

// NewEnv returns the view of vals at a control state with explicitness x.
// key must identify both x and vals.
func NewEnv(l *Layout, x []bool, vals []int64, key string) *Env {
	return &Env{L: l, X: x, Vals: vals, key: l.id + key}
}

// Lookup returns the explicit value of name.
func (e *Env) Lookup(name string) (int64, bool) {
	i, ok := e.L.index[name]
	if !ok || !e.X[i] {
		return 0, false
	}
	return e.Vals[i], true
}

// Key identifies the values (and so, with the control state, the Env).
func (e *Env) Key() string { return e.key }
