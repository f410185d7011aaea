package domains

import (
	"testing"

	"fencer/cs"
	"fencer/kabs"
	"fencer/memmodel"
)

// A variable that starts at any value of a range is explicit, with one
// initial vector per choice; one without a range stays unbounded.
func TestRangedInits(t *testing.T) {
	src := `
shared x = *, y = *, z;
process P { local r = *; r = x; z = r; y = 1; }
`
	sys, err := cs.Parse("t.cs", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	ranged := func(ds []cs.VarDecl, name string, lo, hi int64) {
		for i := range ds {
			if ds[i].Name == name {
				ds[i].Init.Ranged, ds[i].Init.Lo, ds[i].Init.Hi = true, lo, hi
			}
		}
	}
	ranged(sys.Shared, "x", 0, 2)
	ranged(sys.Procs[0].Locals, "P.r", -1, 0)
	in := Analyze(sys)
	for v, want := range map[string]bool{"x": true, "z": true, "P.r": true, "y": false} {
		if in.Finite(v) != want {
			t.Errorf("Finite(%s) = %v, want %v", v, in.Finite(v), want)
		}
	}
	if got := in.Values("x"); len(got) != 3 || got[0] != 0 || got[2] != 2 {
		t.Errorf("Values(x) = %v, want [0 1 2]", got)
	}
	if in.AllFinite() {
		t.Errorf("y has no range: AllFinite")
	}
	abs, err := kabs.NewAbs(sys, memmodel.SC, 0)
	if err != nil {
		t.Fatal(err)
	}
	lay := NewLayout(in, abs)
	inits := lay.Inits(abs.Init())
	// r is dead at the start (assigned before it is read): x alone branches.
	seen := map[int64]bool{}
	xi, _ := lay.Index("x")
	for _, v := range inits {
		seen[v[xi]] = true
	}
	if len(inits) != 3 || len(seen) != 3 {
		t.Errorf("Inits = %v, want one vector per value of x", inits)
	}
	// Ranges whose product passes maxInits are left to predicates.
	big := `shared a = *, b = *, c = *; process P { local r; r = a + b + c; }`
	sys2, err := cs.Parse("t.cs", []byte(big))
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range []string{"a", "b", "c"} {
		ranged(sys2.Shared, n, 0, 20)
	}
	in2 := Analyze(sys2)
	n := 0
	for _, v := range []string{"a", "b", "c"} {
		if in2.Finite(v) {
			n++
		}
	}
	if n != 2 {
		t.Errorf("%d of three ranges of 21 values kept, want 2 (441 <= %d < 9261)", n, maxInits)
	}
}
