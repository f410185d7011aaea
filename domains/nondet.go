package domains

import (
	"fencer/cs"
	"fencer/kabs"
)

// Nondeterministic initial values in a declared range (cs.Init.Ranged, a
// Memorax domain "x = * : [lo:hi]") are finite like any other value: the
// analysis starts such a variable with its range instead of making it
// unbounded, and the explicit-value domain has one initial vector per
// choice of the ranged explicit variables (Layout.Inits). The exploration
// starts from each; a schedule then determines the run once its initial
// vector is chosen, which the classification of counterexamples tries in
// turn (Info.InitChoices).

// maxInits bounds the number of initial vectors: ranged variables whose
// ranges multiply past it are left to predicates (largest range first).
const maxInits = 1 << 12

// initSet is the set of initial values of v: its declared value, its range
// when it is ranged and small enough, or nil (unbounded).
func initSet(v cs.VarDecl) vset {
	if !v.Init.Nondet {
		return vset{v.Init.Value: true}
	}
	vals := v.Init.Values(MaxValues)
	if vals == nil {
		return nil
	}
	s := vset{}
	for _, x := range vals {
		s[x] = true
	}
	return s
}

// capInits makes unbounded the ranged variables of dom, largest range
// first, until the product of the ranges of those left is at most
// maxInits.
func capInits(sys *cs.System, dom map[string][]int64) {
	for {
		n, worst, wsize := 1, "", 0
		for _, d := range sys.Decls() {
			if _, ok := dom[d.Name]; !ok || !d.Init.Nondet {
				continue
			}
			size := len(d.Init.Values(MaxValues))
			n = min(n*size, maxInits+1)
			if size > wsize {
				worst, wsize = d.Name, size
			}
		}
		if n <= maxInits {
			return
		}
		delete(dom, worst)
	}
}

// InitChoices returns, when every variable is explicit (AllFinite), the
// initial values of every variable in the order of the shared variables
// then the locals of each process (cs.System.Decls), once per
// choice of the ranged ones: a schedule determines the run from each.
func (in *Info) InitChoices() [][]int64 {
	ds := in.sys.Decls()
	out := [][]int64{make([]int64, len(ds))}
	for i, d := range ds {
		if !d.Init.Nondet {
			for _, v := range out {
				v[i] = d.Init.Value
			}
			continue
		}
		var next [][]int64
		for _, v := range out {
			for _, x := range d.Init.Values(MaxValues) {
				w := append([]int64(nil), v...)
				w[i] = x
				next = append(next, w)
			}
		}
		out = next
	}
	return out
}

// Inits returns the initial value vectors at the initial control state c:
// one per choice of the initial values of the ranged explicit variables
// that matter at c (Zero), in a fixed order; the first is Init's.
func (l *Layout) Inits(c *kabs.Ctl) [][]int64 {
	base := l.Init(c)
	out := [][]int64{base}
	zero := map[int]bool{}
	for _, i := range l.Zero(c) {
		zero[i] = true
	}
	for i, p := range l.pos {
		if (p.kind != posShared && p.kind != posLocal) || zero[i] {
			continue
		}
		d, ok := l.decl[l.names[i]]
		if !ok || !d.Nondet {
			continue
		}
		vals := d.Values(MaxValues)
		var next [][]int64
		for _, v := range out {
			for _, x := range vals {
				w := append([]int64(nil), v...)
				w[i] = x
				next = append(next, w)
			}
		}
		out = next
	}
	return out
}
