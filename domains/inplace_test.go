package domains

import (
	"slices"
	"testing"

	"fencer/kabs"
	"fencer/memmodel"
)

// Enabled says whether Apply gives a successor, and ApplyInPlace gives
// what Apply gives, on every step of the explicit graph of a program with
// buffers of two slots under TSO and PSO: a flush moves each slot of its
// buffer into the one before, assignments that read what another one
// writes, which in place must all be read first; the guard r != 1
// disables a step in some states.
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
		inPlace, moves, disabled := 0, 0, 0
		walkExplicit(t, lay, abs, func([]int64) {}, func(vals []int64, succ kabs.Succ, step *Step, want [][]int64) {
			if !step.InPlace() {
				return
			}
			inPlace++
			if len(step.assigns) > 1 {
				moves++
			}
			ok, err := step.Enabled(vals)
			switch {
			case err != nil:
				t.Fatal(err)
			case ok != (len(want) == 1) || len(want) > 1:
				t.Fatalf("%v %v: Enabled %v, Apply gave %d successors", m, succ.Step, ok, len(want))
			case !ok:
				disabled++
				return
			}
			got := slices.Clone(vals)
			if err := step.ApplyInPlace(got, ZerosOf(lay.Zero(succ.Ctl))); err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(got, want[0]) {
				t.Fatalf("%v %v from %v: ApplyInPlace gave %v, Apply %v", m, succ.Step, vals, got, want[0])
			}
		})
		// The steps must include those the test is about.
		if inPlace == 0 || moves == 0 || disabled == 0 {
			t.Errorf("%v: %d steps applied in place, %d with several assignments, %d disabled", m, inPlace, moves, disabled)
		}
	}
}
