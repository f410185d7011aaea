package domains

import (
	"fmt"
	"math"
	"slices"
	"sort"
	"sync/atomic"

	"fencer/expr"
	"fencer/kabs"
	"fencer/memmodel"
	"fencer/ordview"
)

// # The order view of counter-like data
//
// Counters that grow without end (Bakery's tickets, a ticket lock's next
// and owner) are unbounded here, and left to predicates. Package ordview
// finds the classes of such variables (only compared, copied, set to
// constants and moved by constants) and gives their values an exact
// finite view: each state's class values canonicalised by their order,
// with the gaps outside the class's hull cut to its cap (ordview/doc.go
// argues that this is a bisimulation as long as every move it takes is
// Exact). UseOrderViewWith makes the variables of such classes explicit,
// when that makes every variable of the system explicit (no predicate is
// then kept: a predicate evaluated on canonical values would be wrong),
// for explorations with one buffer layout (see "Buffers" in orderbuf.go).

// The classes of ordview are webs of definitions; here they are merged by
// variable name, so that a position of the value vector is in one class
// at every control state: a set of variables closed under the links of the
// analysis is a class too (the argument of ordview/doc.go needs no more),
// with the union of the anchors and the largest increments, offsets and
// caps. The hull is widened to contain 0, the value of a dead local, so
// that dead positions never change a canonical form or an Exact check. A
// name with a web in no class (ordview.Info.Rejected) makes the view fail.
//
// Compile checks each transition against the view: every comparison over
// class variables is x + k ⋈ y + l with |l - k| < Cap or x + k ⋈ c with
// c - k in the hull, and every assignment to a class variable is a
// constant of the hull or y + k for y of its class; otherwise the step
// fails with ErrInexact. ErrInexact wraps ErrArithmetic: the explorer then
// calls DropDynamic, which drops the view for good, and explores again
// with the class variables left to predicates. Step.Apply checks each move
// by a constant with ordview.Class.Exact (the parallel assignment of an
// atomic block taken as moves to fresh temporaries, one at a time, then
// copies) and canonicalises the successor. A step whose moves are not all
// exact is widened (ordLayout.widen, ordview/doc.go "How the explorer uses
// it"): the step is taken from every version of the state that
// ordview.Class.Widen gives for the cut gaps its moves approach, and each
// successor canonicalised; Info.OrderWidened then says so. The explored
// system simulates the concrete one: no bad state reached is sound, and a
// counterexample found after a widened step is replayed with concrete
// values (NewConcreteLayout) before it is believed (cegar/ordview.go).
// The canonical values are keys only: a counterexample is a schedule,
// replayed with concrete values.

// ErrInexact says that a step cannot be taken exactly in the order view.
var ErrInexact = fmt.Errorf("the order view of counter-like values is not exact here: %w", ErrArithmetic)

// OrderViewAlways, for tests, makes UseOrderView use the view even when
// every variable is explicit without it: the class variables are then
// canonicalised all the same.
var OrderViewAlways = false

// orderView is the view Info uses: the merged classes and their variables.
type orderView struct {
	classes  []*ordview.Class
	of       map[string]int     // each variable of a class -> its class
	explicit map[string]bool    // the variables the view makes explicit
	saved    map[string]*dynVar // dynamic variables taken into a class, restored by a drop
	// layout is the buffer layout the view was built for (a view built
	// for one without buffers is dropped by a layout with them);
	// slotClass gives, under TSO, the class of each process's buffer
	// slots (-1: none), and tailCap is the capacity of a tail value set
	// (orderbuf.go, "Buffers"), grown by Absorb.
	layout    memmodel.Layout
	slotClass []int
	tailCap   int
	// widened is set when a step widened (Step.Apply): the explorations
	// since are over-approximations, and their counterexamples must be
	// replayed concretely before they are believed.
	widened atomic.Bool
}

// UseOrderView makes the variables of the counter-like classes of the
// system explicit (see above), if that makes every variable explicit, and
// reports whether the view is in use, for explorations without buffers
// (NewLayout drops the view for a layout with buffers). A view dropped
// after a miss (DropDynamic) is not used again.
func (in *Info) UseOrderView() bool { return in.UseOrderViewWith(memmodel.Unbuffered) }

// UseOrderViewWith is UseOrderView for explorations with the buffer
// layout lay (orderbuf.go, "Buffers").
func (in *Info) UseOrderViewWith(lay memmodel.Layout) bool {
	if in.ord != nil {
		return true
	}
	if in.ordFailed || in.AllFinite() && !OrderViewAlways {
		return false
	}
	o := buildOrderView(in, lay)
	if o == nil {
		in.ordFailed = true
		return false
	}
	for v := range o.of {
		if d, ok := in.dyn[v]; ok {
			o.saved[v] = d
			delete(in.dyn, v)
			o.explicit[v] = true
		}
	}
	in.ord = o
	return true
}

// inClass reports whether v is a variable of a class of o (nil: none).
func (o *orderView) inClass(v string) bool {
	if o == nil {
		return false
	}
	_, ok := o.of[v]
	return ok
}

// OrderClass returns the class of the order view that position i of l is
// in, -1 when it is in none or l has no view. A state's canonical form
// depends on the values of each class as a set (ordview/doc.go), so a
// permutation of the positions that keeps every position in its class
// commutes with it (the symmetry reduction, cegar/orbitstates.go).
func (l *Layout) OrderClass(i int) int {
	if l.ord == nil {
		return -1
	}
	return int(l.ord.cls[i])
}

// OrderClassesAlike reports whether classes c and d of l's order view
// have the same anchors, moves, offset, hull and cap: a state's canonical
// form maps the values of c exactly as it maps the same values in d.
func (l *Layout) OrderClassesAlike(c, d int) bool {
	if c == d {
		return true
	}
	if l.ord == nil || c < 0 || d < 0 {
		return false
	}
	a, b := l.ord.classes[c], l.ord.classes[d]
	return a.Up == b.Up && a.Down == b.Down && a.Offset == b.Offset && a.Lo == b.Lo && a.Hi == b.Hi && a.Cap == b.Cap && slices.Equal(a.Anchors, b.Anchors)
}

// OrdTailName names the position of the j-th value of T_{p,x} for x in a
// class of the order view (j = -1: their number; orderbuf.go).
func OrdTailName(proc, x string, j int) string { return ordTailName(proc, x, j) }

// OrderView reports whether the order view is in use.
func (in *Info) OrderView() bool { return in.ord != nil }

// OrderWidened reports whether the order view is in use and some step
// taken with it was not exact and was widened (see above): an exploration
// that found a bad state since may have found it through a widened step,
// and its counterexample is a run of the concrete system only if a
// concrete replay says so. "No bad state" holds all the same.
func (in *Info) OrderWidened() bool { return in.ord != nil && in.ord.widened.Load() }

// NewConcreteLayout is NewLayout without the view's canonical forms: the
// class variables keep their positions, but a step computes their concrete
// values (no Exact check, no Canon, no widening), so that a schedule
// applied from the initial values is the run of the k-abstraction with
// concrete values. It replays counterexamples found through a widened
// view (cegar/ordview.go); its vectors are not those of an exploration
// with the view.
func NewConcreteLayout(info *Info, abs *kabs.Abs) *Layout {
	l := NewLayout(info, abs)
	l.ord = nil
	return l
}

// Canon canonicalises, in place, the class values of a vector of l's
// layout by the order view (nothing without one): for tests, which
// compare a concrete exploration (NewConcreteLayout) with the view's.
func (l *Layout) Canon(v []int64) {
	if l.ord != nil {
		l.ord.canonAll(v, new(canonWork))
	}
}

// dropOrderView stops using the view, for good, and reports whether it
// was in use.
func (in *Info) dropOrderView() bool {
	if in.ord == nil {
		return false
	}
	for v, d := range in.ord.saved {
		in.dyn[v] = d
	}
	in.ord = nil
	in.ordFailed = true
	return true
}

func buildOrderView(in *Info, lay memmodel.Layout) *orderView {
	oi := ordview.Analyze(in.sys)
	// Merge the classes that share a variable name.
	parent := make([]int, len(oi.Classes))
	for i := range parent {
		parent[i] = i
	}
	var find func(int) int
	find = func(i int) int {
		for parent[i] != i {
			parent[i] = parent[parent[i]]
			i = parent[i]
		}
		return i
	}
	first := map[string]int{}
	for i, c := range oi.Classes {
		for _, v := range c.Vars {
			if j, ok := first[v]; ok {
				parent[find(i)] = find(j)
			} else {
				first[v] = i
			}
		}
	}
	// Under TSO a buffer slot of p holds a write to any variable p
	// writes: the classes of those are merged.
	writes := processWrites(in.sys)
	if lay == memmodel.PerProcess {
		for _, ws := range writes {
			prev := -1
			for _, w := range ws {
				if j, ok := first[w]; ok {
					if prev >= 0 {
						parent[find(j)] = find(prev)
					}
					prev = j
				}
			}
		}
	}
	o := &orderView{of: map[string]int{}, explicit: map[string]bool{}, saved: map[string]*dynVar{},
		layout: lay, tailCap: tailCap0}
	merged := map[int]int{}
	var roots []int
	for i := range oi.Classes {
		if r := find(i); r == i {
			merged[r] = len(roots)
			roots = append(roots, r)
		}
	}
	anchors := make([]map[int64]bool, len(roots))
	for k := range roots {
		o.classes = append(o.classes, &ordview.Class{})
		anchors[k] = map[int64]bool{}
	}
	for i, c := range oi.Classes {
		k := merged[find(i)]
		m := o.classes[k]
		for _, a := range c.Anchors {
			anchors[k][a] = true
		}
		m.Up, m.Down, m.Offset = max(m.Up, c.Up), max(m.Down, c.Down), max(m.Offset, c.Offset)
		for _, v := range c.Vars {
			if _, rejected := oi.Rejected[v]; rejected {
				return nil
			}
			if _, dup := o.of[v]; !dup {
				o.of[v] = k
				m.Vars = append(m.Vars, v)
			}
		}
	}
	for k, m := range o.classes {
		sort.Strings(m.Vars)
		for a := range anchors[k] {
			m.Anchors = append(m.Anchors, a)
		}
		sort.Slice(m.Anchors, func(i, j int) bool { return m.Anchors[i] < m.Anchors[j] })
		m.Lo = min(m.Anchors[0]-m.Down, 0)
		m.Hi = max(m.Anchors[len(m.Anchors)-1]+m.Up, 0)
		m.Cap = viewCap(m)
	}
	if lay == memmodel.PerProcess {
		// A slot of p is in the class of the class variables p writes; the
		// other variables p writes must be static, and the hull grows to
		// hold their values, which Canon then leaves alone.
		for _, ws := range writes {
			c := -1
			for _, w := range ws {
				if k, ok := o.of[w]; ok {
					c = k
				}
			}
			o.slotClass = append(o.slotClass, c)
			if c < 0 {
				continue
			}
			m := o.classes[c]
			for _, w := range ws {
				if _, ok := o.of[w]; ok {
					continue
				}
				d, ok := in.dom[w]
				if !ok {
					return nil
				}
				m.Lo, m.Hi = min(m.Lo, d[0]), max(m.Hi, d[len(d)-1])
			}
		}
	}
	for _, d := range in.sys.Decls() {
		if in.Finite(d.Name) {
			continue
		}
		if _, ok := o.of[d.Name]; !ok {
			return nil // a variable neither finite nor counter-like
		}
		o.explicit[d.Name] = true
	}
	return o
}

// viewCap is the cap of a merged class: max(Offset, Up, Down) + 1. Any
// cap above Offset is sound (ordview/doc.go: a step that is not exact is
// widened); ordview's Offset + max(Up, Down) + 1 also keeps exact every
// move that closes a gap up to a value it is then compared with at an
// offset, at the price of more canonical forms. Where the offset is 0 (a
// ticket lock, Bakery with its ticket in a local) the two are equal; where
// it is not, the larger cap multiplied the states that written another
// way the same algorithm does not have: Bakery compared against m + 1
// instead of a local t = m + 1 (n == m + 1: offset 1, cap 3 instead of
// 2) stored 244,799 states at N = 3 with cap 3, 189,928 with cap 2
// (146,588 written with t).
func viewCap(m *ordview.Class) int64 { return max(m.Offset, m.Up, m.Down) + 1 }

// ordLayout is the order view in a layout: the positions of each class.
type ordLayout struct {
	view    *orderView
	classes []*ordview.Class
	pos     [][]int     // per class, its positions (shared variables and locals)
	classOf map[int]int // position -> class
	idx     map[int]int // position -> its index in pos[classOf]
	cls     []int32     // position -> class, -1: none (classOf for the explorer)
	// hullLo and hullW give, by position, its class's hull as [lo, lo+w]
	// (one unsigned comparison tells a value outside it: outHull); a
	// position in no class has the whole range, outside which no value is.
	hullLo []int64
	hullW  []uint64
}

// setHulls sets hullLo and hullW from cls and the classes.
func (ol *ordLayout) setHulls() {
	ol.hullLo = make([]int64, len(ol.cls))
	ol.hullW = make([]uint64, len(ol.cls))
	for p, c := range ol.cls {
		ol.hullLo[p], ol.hullW[p] = math.MinInt64, math.MaxUint64
		if c >= 0 {
			cl := ol.classes[c]
			ol.hullLo[p], ol.hullW[p] = cl.Lo, uint64(cl.Hi)-uint64(cl.Lo)
		}
	}
}

// outHull reports whether x, a value of position p, is outside the hull
// of p's class (false for a position in no class).
func (ol *ordLayout) outHull(p int, x int64) bool {
	return uint64(x)-uint64(ol.hullLo[p]) > ol.hullW[p]
}

// newOrdLayout lays out the view o over the positions of l.
func newOrdLayout(o *orderView, l *Layout) *ordLayout {
	ol := &ordLayout{view: o, classes: o.classes, pos: make([][]int, len(o.classes)), classOf: map[int]int{}, idx: map[int]int{}}
	ol.cls = make([]int32, len(l.names))
	for i, name := range l.names {
		p := l.pos[i]
		c, ok := -1, false
		switch p.kind {
		case posShared, posLocal:
			c, ok = o.of[name]
		case posLW, posSlotPSO, posOrdTail:
			c, ok = o.of[l.abs.Sys.Shared[p.x].Name]
		case posSlot:
			c = o.slotClass[p.proc]
			ok = c >= 0
		}
		ol.cls[i] = -1
		if ok {
			ol.classOf[i] = c
			ol.cls[i] = int32(c)
			ol.idx[i] = len(ol.pos[c])
			ol.pos[c] = append(ol.pos[c], i)
		}
	}
	ol.setHulls()
	return ol
}

// move is one assignment of a step to a class position: dst gets the
// value of src plus k; srcIdx is src's index in pos[class].
type move struct {
	class, dst, src, srcIdx int
	k                       int64
}

// compileMoves checks t against the view (see above) and returns its
// moves by a nonzero constant, in the order of its assignments.
func (ol *ordLayout) compileMoves(t *kabs.Trans, step kabs.AStep, l *Layout) ([]move, error) {
	classOfVar := func(name string) (int, bool) {
		i, ok := l.index[name]
		if !ok {
			return -1, false
		}
		c, ok := ol.classOf[i]
		return c, ok
	}
	if err := ol.checkGuard(t.Guard, classOfVar); err != nil {
		return nil, err
	}
	exists := map[string]bool{}
	for _, e := range t.Exists {
		exists[e] = true
	}
	// tsoSlots: every variable of e is a TSO buffer slot (a value in the
	// hull when the write it holds is to a variable outside the class).
	tsoSlots := func(e expr.Expr) bool {
		for _, v := range expr.Vars(e) {
			if i, ok := l.index[v]; !ok || l.pos[i].kind != posSlot {
				return false
			}
		}
		return true
	}
	mentions := func(e expr.Expr) bool {
		for _, v := range expr.Vars(e) {
			if _, ok := classOfVar(v); ok {
				return true
			}
		}
		return false
	}
	var moves []move
	for _, a := range t.Assign {
		c, inClass := classOfVar(a.Var)
		if !inClass {
			// The flush of a TSO slot into a variable outside the class
			// copies a value of the hull.
			if mentions(a.Val) && !tsoSlots(a.Val) {
				return nil, fmt.Errorf("%s := %s: %w", a.Var, a.Val, ErrInexact)
			}
			continue
		}
		if i := l.index[a.Var]; l.pos[i].kind == posSlot && !mentions(a.Val) {
			continue // a write to a variable outside the class: a value of the hull
		}
		v, k, ok := ordview.Term(a.Val)
		cl := ol.classes[c]
		switch {
		case ok && exists[v] && step.Rule == kabs.RuleUpdateAM:
			// x gets a value of T_{p,x}: a copy (Step.Apply)
		case !ok || exists[v]:
			return nil, fmt.Errorf("%s := %s: %w", a.Var, a.Val, ErrInexact)
		case v == "":
			if k < cl.Lo || k > cl.Hi {
				return nil, fmt.Errorf("%s := %s: %w", a.Var, a.Val, ErrInexact)
			}
		default:
			if c2, ok := classOfVar(v); !ok || c2 != c {
				return nil, fmt.Errorf("%s := %s: %w", a.Var, a.Val, ErrInexact)
			}
			if k != 0 {
				src := l.index[v]
				moves = append(moves, move{class: c, dst: l.index[a.Var], src: src, srcIdx: ol.idx[src], k: k})
			}
		}
	}
	sort.SliceStable(moves, func(i, j int) bool { return moves[i].class < moves[j].class })
	return moves, nil
}

// checkGuard checks that every comparison of g over class variables is
// decided alike in every state with the same canonical form.
func (ol *ordLayout) checkGuard(g expr.Expr, classOf func(string) (int, bool)) error {
	mentions := func(e expr.Expr) bool {
		for _, v := range expr.Vars(e) {
			if _, ok := classOf(v); ok {
				return true
			}
		}
		return false
	}
	bad := func(e expr.Expr) error { return fmt.Errorf("guard %s: %w", e, ErrInexact) }
	var walk func(e expr.Expr) error
	walk = func(e expr.Expr) error {
		f, ok := e.(*expr.App)
		if !ok {
			if mentions(e) {
				return bad(e)
			}
			return nil
		}
		switch f.Op {
		case expr.OpAnd, expr.OpOr, expr.OpNot, expr.OpImplies:
			for _, a := range f.Args {
				if err := walk(a); err != nil {
					return err
				}
			}
			return nil
		case expr.OpEq, expr.OpNe, expr.OpLt, expr.OpLe, expr.OpGt, expr.OpGe:
			if !mentions(f) {
				return nil
			}
			v1, k1, ok1 := ordview.Term(f.Args[0])
			v2, k2, ok2 := ordview.Term(f.Args[1])
			if !ok1 || !ok2 {
				return bad(e)
			}
			c1, in1 := classOf(v1)
			c2, in2 := classOf(v2)
			switch {
			case in1 && in2 && c1 == c2:
				if d := k2 - k1; d >= ol.classes[c1].Cap || -d >= ol.classes[c1].Cap {
					return bad(e)
				}
			case in1 && v2 == "":
				if c := k2 - k1; c < ol.classes[c1].Lo || c > ol.classes[c1].Hi {
					return bad(e)
				}
			case in2 && v1 == "":
				if c := k1 - k2; c < ol.classes[c2].Lo || c > ol.classes[c2].Hi {
					return bad(e)
				}
			default:
				return bad(e)
			}
			return nil
		}
		if mentions(f) {
			return bad(e)
		}
		return nil
	}
	return walk(g)
}

// exact reports whether the moves of a step from the canonical vector v
// are exact: each taken as a move into a fresh temporary of its class,
// in order, with Exact checked on the class's values (temporaries
// included) and the values canonicalised after each (but the last of its
// class: nothing looks at them after it).
func (ol *ordLayout) exact(v []int64, moves []move, w *canonWork) bool {
	for i := 0; i < len(moves); {
		c := moves[i].class
		cl := ol.classes[c]
		ext := w.vec[:0]
		for _, p := range ol.pos[c] {
			ext = append(ext, v[p])
		}
		for ; i < len(moves) && moves[i].class == c; i++ {
			m := moves[i]
			from := ext[m.srcIdx]
			if !cl.Exact(ext, from, m.k) {
				w.vec = ext
				return false
			}
			ext = append(ext, from+m.k)
			if i+1 < len(moves) && moves[i+1].class == c {
				canonVals(cl, ext, w)
			}
		}
		w.vec = ext
	}
	return true
}

// widen returns the versions of v to take a step with moves from when
// exact rejects it (ordview.Class.Widen, doc.go "Widening"): per class, the
// moves are taken in order as moves into fresh temporaries, each from
// every version the ones before left, with Widen giving the versions of
// the cut gap it approaches (the version alone when the move is exact);
// the versions are not canonicalised between moves, so that a gap
// widened for one move stays wide for the next. Each result is a copy of
// v with the class positions of one version written back: the widened
// values are the pre-state of the step, which Apply evaluates the
// assignments on and canonicalises after.
func (ol *ordLayout) widen(v []int64, moves []move) [][]int64 {
	out := [][]int64{append([]int64(nil), v...)}
	for i := 0; i < len(moves); {
		c := moves[i].class
		cl := ol.classes[c]
		ps := ol.pos[c]
		ext := make([]int64, 0, len(ps)+len(moves))
		for _, p := range ps {
			ext = append(ext, v[p])
		}
		vers := [][]int64{ext}
		for ; i < len(moves) && moves[i].class == c; i++ {
			m := moves[i]
			var next [][]int64
			for _, ver := range vers {
				for _, w := range cl.Widen(ver, ver[m.srcIdx], m.k) {
					next = append(next, append(w, w[m.srcIdx]+m.k))
				}
			}
			vers = next
		}
		var prod [][]int64
		for _, o := range out {
			for _, ver := range vers {
				u := append([]int64(nil), o...)
				for j, p := range ps {
					u[p] = ver[j]
				}
				prod = append(prod, u)
			}
		}
		out = prod
	}
	return out
}
