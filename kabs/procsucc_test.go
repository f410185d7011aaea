package kabs

import (
	"os"
	"path/filepath"
	"testing"

	"fencer/memmodel"
)

// The steps of a control state are those of its processes, each of which
// changes only its own part: Successors is the concatenation of
// ProcSuccessors in the order of the processes, and each step's target
// equals the state outside the part of the step's process. And the steps
// of p depend only on p's part: in a state that shares p's part with
// another (here: the same state with another process moved), p has the
// same steps, transitions and parts of targets. Checked on every control
// state reached by a search of a few benchmarks under each model, k = 1
// and 2.
func TestProcSuccessors(t *testing.T) {
	for _, name := range []string{"sb", "mp", "dijkstra", "peterson", "spinlock_cas"} {
		src, err := os.ReadFile(filepath.Join("..", "benchmarks", name+".cs"))
		if err != nil {
			t.Fatal(err)
		}
		sys := parse(t, name, string(src))
		for _, m := range memmodel.BufferModels() {
			for _, k := range []int{1, 2} {
				abs, err := NewAbs(sys, m, k)
				if err != nil {
					t.Fatal(err)
				}
				checkProcSuccessors(t, abs, name+" "+m.String())
			}
		}
	}
}

func checkProcSuccessors(t *testing.T, abs *Abs, what string) {
	t.Helper()
	n := eachCtl(abs, 3000, func(c *Ctl, all []Succ) {
		var cat []Succ
		for p := range abs.Sys.Procs {
			ps := abs.ProcSuccessors(c, p)
			for _, s := range ps {
				if s.Step.Proc != p {
					t.Fatalf("%s: a step of process %d among those of %d", what, s.Step.Proc, p)
				}
				for q := range abs.Sys.Procs {
					if q != p && !s.Ctl.SameProc(c, q) {
						t.Fatalf("%s: step %v of process %d changes process %d's part", what, s.Step, p, q)
					}
				}
			}
			cat = append(cat, ps...)
		}
		if len(cat) != len(all) {
			t.Fatalf("%s: %d steps, %d by process", what, len(all), len(cat))
		}
		for i := range all {
			if all[i].Step != cat[i].Step || all[i].T != cat[i].T || all[i].Ctl.Key() != cat[i].Ctl.Key() {
				t.Fatalf("%s: step %d differs: %v, by process %v", what, i, all[i].Step, cat[i].Step)
			}
		}
		// Another process moved: p's steps are the same.
		for _, s := range all {
			d := s.Ctl
			for p := range abs.Sys.Procs {
				if p == s.Step.Proc {
					continue
				}
				a, b := abs.ProcSuccessors(c, p), abs.ProcSuccessors(d, p)
				if len(a) != len(b) {
					t.Fatalf("%s: process %d has %d steps, %d after a step of %d", what, p, len(a), len(b), s.Step.Proc)
				}
				for i := range a {
					if a[i].Step != b[i].Step || a[i].T != b[i].T || !a[i].Ctl.SameProc(b[i].Ctl, p) {
						t.Fatalf("%s: process %d's step %d differs after a step of %d", what, p, i, s.Step.Proc)
					}
				}
			}
		}
	})
	if n < 5 {
		t.Fatalf("%s: only %d control states", what, n)
	}
}
