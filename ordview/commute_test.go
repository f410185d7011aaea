package ordview

import (
	"math/rand"
	"testing"

	"fencer/cs"
)

// TestStepsCommute checks the bisimulation one state at a time: for every
// concrete reachable state s of a generated program (SC and TSO, the
// default and the least cap) whose canonical form has only Exact steps,
// the canonical forms of s's successors are exactly the successors of
// s's canonical form.
func TestStepsCommute(t *testing.T) {
	n, limit := 8, 3000
	if soak() {
		n, limit = 200, 20000
	}
	checked, skipped := 0, 0
	for seed := 0; seed < n; seed++ {
		src := genProgram(rand.New(rand.NewSource(int64(1000 + seed))))
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
					exact := vin.inexact == ""
					got := map[string]bool{}
					conc.successors(s, func(u istate) {
						got[canon(u).key()] = true
						if !seen[u.key()] {
							seen[u.key()] = true
							q = append(q, u)
						}
					})
					if !exact {
						skipped++
						continue
					}
					checked++
					for k := range got {
						if !succ[k] {
							t.Fatalf("seed %d small=%v tso=%v: concrete %v has a successor with canonical form %s, not a successor of %v\n%s\n%v", 1000+seed, small, tso, s, k, cs0, src, info.Classes)
						}
					}
					for k := range succ {
						if !got[k] {
							t.Fatalf("seed %d small=%v tso=%v: %v has a successor %s that no successor of concrete %v has\n%s\n%v", 1000+seed, small, tso, cs0, k, s, src, info.Classes)
						}
					}
				}
			}
		}
	}
	t.Logf("%d states checked, %d with a step Exact rejects", checked, skipped)
	if checked == 0 {
		t.Error("no state checked")
	}
}
