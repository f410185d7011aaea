package domains

import (
	"slices"
	"testing"

	"fencer/kabs"
	"fencer/memmodel"
)

// ApplyInPlace gives what Apply gives, on every step of the explicit graph
// of a program with buffers of two slots under TSO and PSO: a flush moves
// each slot of its buffer into the one before, assignments that read what
// another one writes, which in place must all be read first.
func TestApplyInPlace(t *testing.T) {
	sys := parse(t, `
shared x, y;
process P { local r; x = 1; y = 2; x = 3; r = y; assume(r != 1); y = r + 1; }
process Q { local s; y = 1; s = x; x = s + 2; y = s; }
`)
	for _, m := range []memmodel.Model{memmodel.TSO, memmodel.PSO} {
		abs, err := kabs.NewAbs(sys, m, 2)
		if err != nil {
			t.Fatal(err)
		}
		lay := NewLayout(Analyze(sys), abs)
		type st struct {
			c    *kabs.Ctl
			vals []int64
		}
		c0 := abs.Init()
		v0 := lay.Init(c0)
		seen := map[string]bool{c0.Key() + Key(v0): true}
		queue := []st{{c0, v0}}
		scratch := make([]int64, lay.Len())
		inPlace, moves, disabled := 0, 0, 0
		for len(queue) > 0 {
			s := queue[0]
			queue = queue[1:]
			for _, succ := range abs.Successors(s.c) {
				step, err := lay.Compile(lay.Explicit(s.c), lay.Explicit(succ.Ctl), succ.T, succ.Step)
				if err != nil {
					t.Fatal(err)
				}
				var want [][]int64
				zero := lay.Zero(succ.Ctl)
				err = step.Apply(s.vals, zero, scratch, func(next []int64) bool {
					want = append(want, slices.Clone(next))
					k := succ.Ctl.Key() + Key(next)
					if !seen[k] {
						seen[k] = true
						queue = append(queue, st{succ.Ctl, slices.Clone(next)})
					}
					return true
				})
				if err != nil {
					t.Fatal(err)
				}
				if !step.InPlace() {
					continue
				}
				inPlace++
				if len(step.assigns) > 1 {
					moves++
				}
				got := slices.Clone(s.vals)
				ok, err := step.ApplyInPlace(got, ZerosOf(zero))
				switch {
				case err != nil:
					t.Fatal(err)
				case ok != (len(want) == 1) || len(want) > 1:
					t.Fatalf("%v %v: ApplyInPlace enabled %v, Apply gave %d successors", m, succ.Step, ok, len(want))
				case !ok:
					disabled++
					if !slices.Equal(got, s.vals) {
						t.Fatalf("%v %v: disabled, ApplyInPlace changed %v to %v", m, succ.Step, s.vals, got)
					}
				case !slices.Equal(got, want[0]):
					t.Fatalf("%v %v from %v: ApplyInPlace gave %v, Apply %v", m, succ.Step, s.vals, got, want[0])
				}
			}
		}
		// The steps must include those the test is about.
		if inPlace == 0 || moves == 0 || disabled == 0 {
			t.Errorf("%v: %d steps applied in place, %d with several assignments, %d disabled", m, inPlace, moves, disabled)
		}
	}
}
