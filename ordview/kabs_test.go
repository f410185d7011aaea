package ordview_test

import (
	"errors"
	"math/rand"
	"testing"

	"fencer/cs"
	"fencer/domains"
	"fencer/kabs"
	"fencer/memmodel"
	"fencer/ordview"
)

// errStop ends an exploration that passes its state limit.
var errStop = errors.New("state limit")

// kstate is a reachable state of an exploration: its control state's key
// and its value vector.
type kstate struct {
	ctl string
	v   []int64
}

// explore returns the reachable states of abs over lay, or an error when
// a step cannot be compiled, is not explicit or cannot be applied, or the
// limit is passed.
func explore(abs *kabs.Abs, lay *domains.Layout, limit int) ([]kstate, error) {
	type node struct {
		c *kabs.Ctl
		v []int64
	}
	seen := map[string]bool{}
	var q, all []node
	push := func(c *kabs.Ctl, v []int64) {
		k := c.Key() + "|" + domains.Key(v)
		if !seen[k] {
			seen[k] = true
			n := node{c, append([]int64(nil), v...)}
			q = append(q, n)
			all = append(all, n)
		}
	}
	c0 := abs.Init()
	for _, v := range lay.Inits(c0) {
		push(c0, v)
	}
	for len(q) > 0 {
		if len(seen) > limit {
			return nil, errStop
		}
		n := q[0]
		q = q[1:]
		for _, s := range abs.Successors(n.c) {
			st, err := lay.Compile(lay.Explicit(n.c), lay.Explicit(s.Ctl), s.T, s.Step)
			if err != nil {
				return nil, err
			}
			if st.GuardSymbolic || st.AssignsSymbolic {
				return nil, errors.New("a step is not explicit")
			}
			err = st.Apply(n.v, lay.Zero(s.Ctl), make([]int64, len(n.v)), func(w []int64) bool {
				push(s.Ctl, w)
				return true
			})
			if err != nil {
				return nil, err
			}
		}
	}
	out := make([]kstate, len(all))
	for i, n := range all {
		out[i] = kstate{n.c.Key(), n.v}
	}
	return out, nil
}

// keys returns the keys of states, each vector canonicalised by canon
// first if it is not nil.
func keys(states []kstate, canon func([]int64)) map[string]bool {
	out := map[string]bool{}
	for _, s := range states {
		v := append([]int64(nil), s.v...)
		if canon != nil {
			canon(v)
		}
		out[s.ctl+"|"+domains.Key(v)] = true
	}
	return out
}

// tailPrograms are programs of TestViewAgainstKAbstraction whose tails
// hold values outside the hull (the generated ones that do mostly pass
// the state limit).
var tailPrograms = []string{`
shared x, y;
process P { local r; r = y; for (j in 0..5) { r = r + 1; } x = r; x = r + 1; x = r + 2; y = r; x = r + 3; }
process Q { local s, t; s = x; t = y; if (s == t + 1) { L: skip; } s = x; if (s < t) { M: skip; } }
`, `
shared x;
process P { local r; r = x; for (j in 0..3) { r = r + 2; } x = r; x = r - 1; x = r + 1; x = 0; }
process Q { local s, t; t = x; t = t + 1; x = t; s = x; if (s > t) { L: skip; } }
`}

// TestViewAgainstKAbstraction: on generated programs, under SC, TSO and
// PSO at k = 1 and 2, the states the explicit-value domain reaches with
// the order view (domains.NewLayout, the view forced on) are exactly the
// canonical forms of those it reaches with concrete values
// (domains.NewConcreteLayout), buffer slots, last-write values and tail
// value sets included; with a widened step, a superset. Programs whose
// exploration passes the limit or fills a tail value set are skipped.
func TestViewAgainstKAbstraction(t *testing.T) {
	domains.OrderViewAlways = true
	defer func() { domains.OrderViewAlways = false }()
	n, limit := 20, 5000
	if testing.Short() {
		n = 8
	}
	compared, widened, skipped := 0, 0, 0
	for seed := -len(tailPrograms); seed < n; seed++ {
		var src string
		if seed < 0 {
			src = tailPrograms[-seed-1]
		} else {
			src = ordview.GenProgram(rand.New(rand.NewSource(int64(500 + seed))))
		}
		sys, err := cs.Parse("gen.cs", []byte(src))
		if err != nil {
			t.Fatal(err)
		}
		for _, model := range []memmodel.Model{memmodel.SC, memmodel.TSO, memmodel.PSO} {
			for _, k := range []int{1, 2} {
				if model == memmodel.SC && k == 2 {
					continue
				}
				in := domains.Analyze(sys)
				if !in.UseOrderViewWith(model.Layout()) {
					skipped++
					continue
				}
				abs, err := kabs.NewAbs(sys, model, k)
				if err != nil {
					t.Fatal(err)
				}
				// A full tail value set grows its capacity (Absorb), as
				// between the engine's explorations.
				var view, conc *domains.Layout
				var vs, cvs []kstate
				var err1, err2 error
				for try := 0; try < 4; try++ {
					view, conc = domains.NewLayout(in, abs), domains.NewConcreteLayout(in, abs)
					vs, err1 = explore(abs, view, limit)
					cvs, err2 = explore(abs, conc, limit)
					if !view.Missed() && !conc.Missed() || !in.OrderView() {
						break
					}
					in.Absorb(view)
				}
				if err1 != nil || err2 != nil || view.Missed() || conc.Missed() {
					if seed < 0 {
						t.Fatalf("%s k=%d: %v / %v (tail full: %v / %v)\n%s", model, k, err1, err2, view.Missed(), conc.Missed(), src)
					}
					skipped++
					continue
				}
				got, canonWant := keys(vs, nil), keys(cvs, view.Canon)
				w := in.OrderWidened()
				for key := range canonWant {
					if !got[key] {
						t.Fatalf("seed %d %s k=%d: a concrete state's canonical form is not reached through the view (%d view states, %d canonical concrete states)\n%s", seed, model, k, len(got), len(canonWant), src)
					}
				}
				if !w {
					for key := range got {
						if !canonWant[key] {
							t.Fatalf("seed %d %s k=%d: the view reaches a state that is no concrete state's canonical form (%d view states, %d canonical concrete states)\n%s", seed, model, k, len(got), len(canonWant), src)
						}
					}
				} else {
					widened++
				}
				compared++
			}
		}
	}
	t.Logf("%d explorations compared (%d with a widened step), %d skipped", compared, widened, skipped)
	if compared < n {
		t.Errorf("too few explorations compared: %d of %d programs", compared, n)
	}
}
