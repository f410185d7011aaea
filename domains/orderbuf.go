package domains

import (
	"sort"

	"fencer/cs"
	"fencer/kabs"
)

// The order view under TSO and PSO (order.go has the view itself).
//
// # Buffers
//
// Under TSO and PSO the k-abstraction's variables X_B and X_LW hold
// values written to shared variables: lw_{p,x} and a PSO slot b_{p,x,i}
// are in the class of x. A TSO slot b_{p,i} holds a write to whichever
// variable the control state says; a position must be in one class at
// every control state, so the view built for TSO merges the classes of
// the variables each process writes (a union of classes is a class), puts
// p's slots in that class, and requires every other variable p writes to
// be static, with the hull grown to hold its values: Canon leaves values
// of the hull alone, and Exact never finds a cut gap inside it, so such a
// value in a slot of the class is a value of the hull as far as the view
// goes (Compile lets it be written into the slot and flushed out of it).
// A view built for one layout is dropped by a layout with another
// (NewLayout).
//
// The abstract tail: a write of p to x beyond the k exact slots puts x in
// S(p) and sets lw_{p,x}; UPDATE-AM gives x the value of one of p's tail
// writes to x, UPDATE-AS gives it lw_{p,x} and takes x out of S(p). For x
// in a class the state keeps T_{p,x}, the set of the distinct values p
// wrote into its tail since x entered S(p), as positions of the class: a
// number and up to tailCap values, sorted, the unused ones 0 (which the
// hull holds). WRITE-G adds lw_{p,x}'s value, UPDATE-AM takes each value
// in turn (and canonicalises again: the value x loses may change the
// canonical form), and the positions matter only while x is in S(p) (Zero
// clears them otherwise). Every run of the exact semantics is simulated
// by a run of the k-abstraction whose UPDATE-AM flushes take values of
// T_{p,x} (dynamic.go: a flushed write that is not x's last in the tail
// was written there since x entered S(p)), and the view adds no other
// operation: the tail values are class values that are only copied (into
// T_{p,x} from lw_{p,x}, into x from T_{p,x}) and lost (when x leaves
// S(p)), the cases of ordview/doc.go's argument in which a C-equivalent
// state has a C-equivalent successor, and Canon maps the set along with
// every other class value, order-preserving and injective, so a set stays
// a sorted set. So the view is exact (or, with widening, a simulation)
// for the k-abstraction as it is without buffers. A write that finds the
// set full is left out and recorded (Layout.ordFull, a miss): the
// exploration is then incomplete, and only its counterexamples count
// (each a run of the k-abstraction, classified as any other); Absorb
// doubles the capacity and reach explores again, and a tail that needs
// more than tailCapMax values makes Absorb drop the view (predicates take
// over).

// processWrites lists, per process, the shared variables it writes
// through its buffer (writes outside atomic blocks), sorted.
func processWrites(sys *cs.System) [][]string {
	out := make([][]string, len(sys.Procs))
	for p, proc := range sys.Procs {
		seen := map[string]bool{}
		for _, e := range proc.Edges {
			if e.Op.Kind == cs.OpWrite && !seen[e.Op.Shared] {
				seen[e.Op.Shared] = true
				out[p] = append(out[p], e.Op.Shared)
			}
		}
		sort.Strings(out[p])
	}
	return out
}

// tailCap0 is the first capacity of a tail value set, tailCapMax the
// largest: a tail that needs more makes Absorb drop the view.
const (
	tailCap0   = 2
	tailCapMax = 16
)

// ordTail is T_{p,x} of a step of p over x, x in a class: the positions of
// its number of values, of its values (sorted, distinct; those past the
// number hold 0) and of lw_{p,x}; write says that the step is a WRITE-G
// (else an UPDATE-AM).
type ordTail struct {
	n, lw int
	vals  []int
	write bool
}

// ordTailOf returns T_{p,x} for a WRITE-G or an UPDATE-AM of p over a
// class variable x, nil for any other step.
func (l *Layout) ordTailOf(step kabs.AStep) *ordTail {
	if l.Info.ord == nil {
		return nil
	}
	proc, x, ok := l.tailStep(step)
	if !ok {
		return nil
	}
	n, ok := l.index[ordTailName(proc, x, -1)]
	if !ok {
		return nil
	}
	t := &ordTail{n: n, lw: l.index[kabs.LWVar(proc, x)], write: step.Rule == kabs.RuleWriteG}
	for j := 0; ; j++ {
		i, ok := l.index[ordTailName(proc, x, j)]
		if !ok {
			break
		}
		t.vals = append(t.vals, i)
	}
	return t
}

// add puts the value of lw_{p,x} into T_{p,x} in v (a WRITE-G). A value
// that finds the set full is left out and recorded (Layout.ordFull): the
// exploration is then incomplete, and Absorb grows the capacity.
func (t *ordTail) add(l *Layout, v []int64) {
	x, n := v[t.lw], int(v[t.n])
	j := 0
	for j < n && v[t.vals[j]] < x {
		j++
	}
	if j < n && v[t.vals[j]] == x {
		return
	}
	if n == len(t.vals) {
		l.mu.Lock()
		l.missed, l.ordFull = true, true
		l.mu.Unlock()
		return
	}
	for i := n; i > j; i-- {
		v[t.vals[i]] = v[t.vals[i-1]]
	}
	v[t.vals[j]] = x
	v[t.n] = int64(n + 1)
}

// choose calls out with next with position dst given each value of
// T_{p,x} in turn (an UPDATE-AM), canonicalised again when the view is in
// use (the value dst loses may change the canonical form; next is
// canonical, so only the class of dst is canonicalised again); it reports
// whether out wants more. The vector passed to out lives in w (nil
// without the view: a fresh one).
func (t *ordTail) choose(ol *ordLayout, next []int64, dst int, w *canonWork, out func([]int64) bool) bool {
	n := int(next[t.n])
	var u []int64
	if w != nil {
		if cap(w.vec) < len(next) {
			w.vec = make([]int64, len(next))
		}
		u = w.vec[:len(next)]
	} else {
		u = make([]int64, len(next))
	}
	for j := 0; j < n; j++ {
		copy(u, next)
		u[dst] = next[t.vals[j]]
		if ol != nil && u[dst] != next[dst] && ol.cls[dst] >= 0 {
			ol.canonClass(int(ol.cls[dst]), u, w)
		}
		if !out(u) {
			return false
		}
	}
	return true
}
