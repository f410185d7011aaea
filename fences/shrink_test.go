package fences

import (
	"fmt"
	"testing"

	"fencer/cs"
	"fencer/internal/progen"
	"fencer/memmodel"
)

// delayedRun returns the run of sys in which every process takes its
// operations round by round (the first operation of each, then the second
// of each, ...) with no flush, and its states: every write stays buffered.
func delayedRun(t *testing.T, sys *cs.System, c *memmodel.Concrete) (*memmodel.Trace, []*memmodel.State) {
	t.Helper()
	s := c.Initials(1)[0]
	tr := &memmodel.Trace{Init: s.Vals}
	for round := 0; !c.IsBadState(s) && round < 10; round++ {
		for p := range sys.Procs {
			steps, next, err := c.Successors(s)
			if err != nil {
				t.Fatal(err)
			}
			for i, st := range steps {
				if st.Proc == p && !st.IsFlush() {
					tr.Steps = append(tr.Steps, st)
					s = next[i]
					break
				}
			}
		}
	}
	states, err := c.Replay(tr)
	if err != nil || !c.IsBadState(states[len(states)-1]) {
		t.Fatalf("the delayed run is not a run to a bad state (%v)", err)
	}
	return tr, states
}

// procOf maps each site of sys to the process whose edges pass it.
func procOf(sys *cs.System) map[int]int {
	m := map[int]int{}
	for p, proc := range sys.Procs {
		for _, e := range proc.Edges {
			for _, id := range e.Points {
				m[id] = p
			}
		}
	}
	return m
}

// checkShrunk checks what Shrink promises about a result: the run replays
// to a bad state and its candidate set is set, a proper subset of full.
func checkShrunk(t *testing.T, sys *cs.System, c *memmodel.Concrete, run *memmodel.Trace, set, full []Element, store bool) {
	t.Helper()
	states, err := c.Replay(run)
	if err != nil || !c.IsBadState(states[len(states)-1]) {
		t.Fatalf("the shrunk run is not a run to a bad state (%v)", err)
	}
	if got := Blocking(sys, c, run, states, store); fmt.Sprint(got) != fmt.Sprint(set) {
		t.Fatalf("the shrunk run's candidate set is %v, Shrink says %v", got, set)
	}
	if len(set) == 0 || len(set) >= len(full) || !Subset(set, full) {
		t.Fatalf("shrunk set %v is not a non-empty proper subset of %v", set, full)
	}
}

// On store-buffering rings one delayed process is enough: the candidate
// set of the run that delays every process shrinks to the sites of one.
func TestShrinkRing(t *testing.T) {
	for _, n := range []int{2, 4, 6} {
		for _, m := range []memmodel.Model{memmodel.TSO, memmodel.PSO} {
			for _, store := range []bool{false, true} {
				sys, err := cs.Parse("ring.cs", []byte(progen.SBRing(n, nil)))
				if err != nil {
					t.Fatal(err)
				}
				c := memmodel.NewConcrete(sys, m)
				tr, states := delayedRun(t, sys, c)
				full := Blocking(sys, c, tr, states, store)
				owner := procOf(sys)
				if procs := map[int]bool{}; true {
					for _, e := range full {
						procs[owner[e.Site]] = true
					}
					if len(procs) != n {
						t.Fatalf("n=%d %s: the delayed run's candidate set %v does not involve every process", n, m, full)
					}
				}
				sh := Shrink(sys, c, tr, states, store, 0)
				run, set := sh.Run, sh.Set
				if !sh.OK {
					t.Fatalf("n=%d %s store=%v: candidate set %v not shrunk", n, m, store, full)
				}
				checkShrunk(t, sys, c, run, set, full, store)
				procs := map[int]bool{}
				for _, e := range set {
					procs[owner[e.Site]] = true
				}
				if len(procs) != 1 || len(set) != 1 {
					t.Errorf("n=%d %s store=%v: shrunk set %v has %d sites of %d processes, want 1 site (the point after the write of one process)", n, m, store, set, len(set), len(procs))
				}
				// A run whose candidate set cannot shrink further.
				again := Shrink(sys, c, run, mustReplay(t, c, run), store, 0)
				t.Logf("n=%d %s store=%v: %d states searched to shrink, %d to find no smaller set", n, m, store, sh.Searched, again.Searched)
				if again.OK {
					t.Errorf("n=%d %s: the shrunk set %v shrank again to %v", n, m, set, again.Set)
				}
			}
		}
	}
}

// A run that needs two delays, one in each of two store-buffering pairs:
// the set shrinks to the sites of one process of each pair, never to one
// process.
func TestShrinkKeepsTwoDelays(t *testing.T) {
	for _, m := range []memmodel.Model{memmodel.TSO, memmodel.PSO} {
		sys, err := cs.Parse("pairs.cs", []byte(progen.TwoSBPairs))
		if err != nil {
			t.Fatal(err)
		}
		c := memmodel.NewConcrete(sys, m)
		tr, states := delayedRun(t, sys, c)
		full := Blocking(sys, c, tr, states, false)
		sh := Shrink(sys, c, tr, states, false, 0)
		run, set := sh.Run, sh.Set
		if !sh.OK {
			t.Fatalf("%s: candidate set %v not shrunk", m, full)
		}
		checkShrunk(t, sys, c, run, set, full, false)
		owner := procOf(sys)
		pairs := map[int]bool{}
		procs := map[int]bool{}
		for _, e := range set {
			pairs[owner[e.Site]/2] = true
			procs[owner[e.Site]] = true
		}
		if len(pairs) != 2 || len(procs) != 2 {
			t.Errorf("%s: shrunk set %v has the sites of processes %v, want one process of each pair", m, set, procs)
		}
	}
}

// With no room to search (a limit of one state), nothing shrinks.
func TestShrinkLimit(t *testing.T) {
	sys, err := cs.Parse("ring.cs", []byte(progen.SBRing(4, nil)))
	if err != nil {
		t.Fatal(err)
	}
	c := memmodel.NewConcrete(sys, memmodel.TSO)
	tr, states := delayedRun(t, sys, c)
	if sh := Shrink(sys, c, tr, states, false, 1); sh.OK || len(sh.Set) != len(Blocking(sys, c, tr, states, false)) || sh.Searched > 1 {
		t.Errorf("with a limit of 1 state: shrunk to %v, %d states searched", sh.Set, sh.Searched)
	}
}

func mustReplay(t *testing.T, c *memmodel.Concrete, tr *memmodel.Trace) []*memmodel.State {
	t.Helper()
	states, err := c.Replay(tr)
	if err != nil {
		t.Fatal(err)
	}
	return states
}
