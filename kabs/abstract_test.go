package kabs

import (
	"math/rand"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"fencer/expr"
	"fencer/memmodel"
)

// The k-abstraction over-approximates the real semantics: every concrete
// execution is a path of the abstraction for every k, and at each step the
// abstract transition relates the concrete data before and after it (the
// buffer-slot and last-write variables read off the real buffers). Checked
// on random walks through the loop-free benchmarks.
func TestAbstractionContainsConcreteRuns(t *testing.T) {
	for _, name := range []string{"sb", "sb_procs", "mp", "mp_array", "lb", "spinlock_cas", "nondet", "sc_bug", "tail"} {
		src, err := os.ReadFile(filepath.Join("..", "benchmarks", name+".cs"))
		if name == "tail" { // several writes of one variable in the abstract tail (UPDATE-AM)
			src, err = []byte(tailSrc), nil
		}
		if err != nil {
			t.Fatal(err)
		}
		sys := parse(t, name, string(src))
		for mi, m := range memmodel.BufferModels() {
			for _, k := range []int{1, 2, Unbounded} {
				abs, err := NewAbs(sys, m, k)
				if err != nil {
					t.Fatal(err)
				}
				c := memmodel.NewConcrete(sys, m)
				rng := rand.New(rand.NewSource(int64(k + 10*mi)))
				for walk := 0; walk < 40; walk++ {
					if msg := checkWalk(c, abs, rng); msg != "" {
						t.Fatalf("%s under %s, k=%d: %s", name, m, k, msg)
					}
				}
			}
		}
	}
}

const tailSrc = `
shared a, x, y;
process A { a = 1; x = 1; y = 1; x = 2; y = 2; x = 3; }
process B { local r, s; r = x; s = y; r = x; s = a; }
`

func checkWalk(c *memmodel.Concrete, abs *Abs, rng *rand.Rand) string {
	inits := c.Initials(8)
	s := inits[rng.Intn(len(inits))]
	var steps []AStep
	var states = []*memmodel.State{s}
	var taken []memmodel.Step
	for len(steps) < 40 {
		st, succ, err := c.Successors(s)
		if err != nil {
			return err.Error()
		}
		if len(st) == 0 {
			break
		}
		i := rng.Intn(len(st))
		taken = append(taken, st[i])
		steps = append(steps, AStep{Proc: st[i].Proc, Edge: st[i].Edge, Var: st[i].Var})
		s = succ[i]
		states = append(states, s)
	}
	ts, ctls, bad, ok := abs.Interpret(steps)
	if !ok {
		return "the abstraction cannot take step " + c.StepString(taken[bad])
	}
	for i, t := range ts {
		before := valuation(c, abs, states[i], ctls[i])
		after := valuation(c, abs, states[i+1], ctls[i+1])
		env := func(n string) (int64, bool) {
			if strings.HasPrefix(n, "?") { // the step's own choice
				if taken[i].IsFlush() {
					x := c.Slot(c.Sys.Shared[taken[i].Var].Name)
					return states[i+1].Vals[x], true
				}
				return taken[i].Val, true
			}
			v, ok := before[n]
			return v, ok
		}
		if ok, err := expr.Holds(t.Guard, env); err != nil || !ok {
			return "guard " + t.Guard.String() + " fails at " + c.StepString(taken[i])
		}
		assigned := map[string]bool{}
		for _, a := range t.Assign {
			assigned[a.Var] = true
			want, live := after[a.Var]
			if !live {
				continue
			}
			got, err := expr.Eval(a.Val, env)
			if err != nil || got != want {
				return c.StepString(taken[i]) + ": " + a.Var + " := " + a.Val.String() + " gives a value the real run does not have"
			}
		}
		for v, want := range after {
			if assigned[v] {
				continue
			}
			if got, ok := before[v]; !ok || got != want {
				return c.StepString(taken[i]) + ": " + v + " changes without being assigned"
			}
		}
	}
	return ""
}

// valuation reads X off a concrete state: memory and locals, and for the
// buffered writes the exact slots and the last-write values (only those
// the control state says are meaningful).
func valuation(c *memmodel.Concrete, abs *Abs, s *memmodel.State, ctl *Ctl) map[string]int64 {
	v := map[string]int64{}
	for i, val := range s.Vals {
		v[c.Name(i)] = val
	}
	if abs.Model == memmodel.SC {
		return v
	}
	for p, proc := range c.Sys.Procs {
		buf := c.Buffered(s, p)
		for _, e := range buf { // oldest first: the last one per variable wins
			v[LWVar(proc.Name, c.Name(e.Var))] = e.Val
		}
		switch abs.Model {
		case memmodel.TSO:
			for i := range ctl.B[p] {
				v[SlotVar(proc.Name, i+1)] = buf[i].Val
			}
		case memmodel.PSO:
			n := map[int]int{}
			for _, e := range buf {
				n[e.Var]++
				if n[e.Var] <= abs.exactCount(ctl.B[p], e.Var) {
					v[SlotVarX(proc.Name, c.Name(e.Var), n[e.Var])] = e.Val
				}
			}
		}
	}
	return v
}
