package ordview

import (
	"math/rand"
	"strings"
	"testing"

	"fencer/cs"
)

// TestWidenSimulates: with Widen taken where Exact fails, the view
// over-approximates soundly: for every concrete reachable state s of a
// generated program (SC and TSO, the default and the least cap), the
// canonical form of every successor of s is a successor of s's canonical
// form (unless a move inside an atomic body, which the test interpreter
// does not widen, was rejected).
func TestWidenSimulates(t *testing.T) {
	n, limit := 10, 3000
	if soak() {
		n, limit = 200, 20000
	}
	checked, widened := 0, 0
	for seed := 0; seed < n; seed++ {
		src := genProgram(rand.New(rand.NewSource(int64(2000 + seed))))
		sys, err := cs.Parse("gen.cs", []byte(src))
		if err != nil {
			t.Fatal(err)
		}
		for _, small := range []bool{false, true} {
			for _, tso := range []bool{false, true} {
				info := Analyze(sys)
				if small {
					for _, c := range info.Classes {
						c.Cap = c.Offset + 1
					}
				}
				conc := newInterp(sys, tso, nil)
				vin := newInterp(sys, tso, info)
				vin.widen = true
				canon := func(s istate) istate { u := s.clone(); vin.view(&u); return u }
				s0 := conc.initial()
				seen := map[string]bool{s0.key(): true}
				q := []istate{s0}
				for len(q) > 0 && len(seen) < limit {
					s := q[0]
					q = q[1:]
					cs0 := canon(s)
					succ := map[string]bool{}
					vin.inexact = ""
					vin.successors(cs0, func(u istate) { succ[u.key()] = true })
					skip := vin.inexact != ""
					got := map[string]bool{}
					conc.successors(s, func(u istate) {
						got[canon(u).key()] = true
						if !seen[u.key()] {
							seen[u.key()] = true
							q = append(q, u)
						}
					})
					if skip {
						continue
					}
					checked++
					if len(succ) > len(got) {
						widened++
					}
					for k := range got {
						if !succ[k] {
							t.Fatalf("seed %d small=%v tso=%v: concrete %v has a successor with canonical form %s, not among the widened successors %v of %v\n%s\n%v", 2000+seed, small, tso, s, k, succ, cs0, src, info.Classes)
						}
					}
				}
			}
		}
	}
	t.Logf("%d states checked, %d with more successors through the widened view than concretely", checked, widened)
	if checked == 0 || widened == 0 {
		t.Errorf("%d states checked, %d widened", checked, widened)
	}
}

// TestBakeryWidened explores Bakery through the widened view under SC: a
// finite over-approximation, in which no bad state is reachable.
func TestBakeryWidened(t *testing.T) {
	files := []string{"../benchmarks/bakery.cs"}
	if soak() {
		files = append(files, "../benchmarks/scale/bakery.cs:N=3")
	}
	for _, f := range files {
		sys := parseFile(t, f)
		in := newInterp(sys, false, Analyze(sys))
		in.widen = true
		states, bad, complete := in.explore(2000000)
		t.Logf("%s sc widened: %d canonical states, bad %v, complete %v, inexact %q", f, len(states), bad, complete, in.inexact)
		if bad || !complete || in.inexact != "" {
			t.Errorf("%s: bad %v, complete %v, inexact %q", f, bad, complete, in.inexact)
		}
	}
}

// TestBakeryFencedTSO: Bakery (2 processes) under TSO with the two fences
// of its expectation, through the widened view: finite, no bad state.
func TestBakeryFencedTSO(t *testing.T) {
	sys := parseFile(t, "../benchmarks/bakery.cs")
	sites := map[int]bool{}
	for i, s := range sys.Sites {
		if s.Place == cs.After && (strings.HasPrefix(s.Text, "choosing[i] = 1") || strings.HasPrefix(s.Text, "number[i] = t")) {
			sites[i] = true
		}
	}
	if len(sites) != 2 {
		t.Fatalf("fence sites: %v", sites)
	}
	fs := sys.WithFences(sites)
	in := newInterp(fs, true, Analyze(fs))
	in.widen = true
	states, bad, complete := in.explore(100000)
	const want = 3559
	if bad || !complete || in.inexact != "" || len(states) != want {
		t.Errorf("%d states (want %d), bad %v, complete %v, inexact %q", len(states), want, bad, complete, in.inexact)
	}
}
