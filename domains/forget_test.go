package domains

import (
	"testing"

	"fencer/cs"
)

// A counter that no guard reads is forgotten (every variable is then
// explicit); one that a guard reads (dynamic then), or any variable
// beside an unbounded one, is not.
func TestForgetIrrelevant(t *testing.T) {
	for _, c := range []struct {
		name, src string
		forgot    []string
		allFinite bool
	}{
		{"counter never tested", `shared f, c;
process P[i in 0..1] { local r, t; f = 1; r = f; if (r == 1) { t = c; c = t + 1; } }`,
			[]string{"c", "P[0].t", "P[1].t"}, true},
		{"counter tested", `shared f, c;
process P[i in 0..1] { local r, t; f = 1; r = f; if (r == 1) { t = c; c = t + 1; } t = c; assume(t < 5); }`,
			nil, true}, // c is dynamic
		{"havoc beside it", `shared f, c;
process P[i in 0..1] { local r, t, h; h = *; f = h; t = c; c = t + 1; r = f; assume(r == 1); }`,
			nil, false},
	} {
		sys, err := cs.Parse("t.cs", []byte(c.src))
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		in := Analyze(sys)
		if in.AllFinite() != c.allFinite {
			t.Errorf("%s: AllFinite %v, want %v", c.name, in.AllFinite(), c.allFinite)
		}
		var got []string
		for _, d := range sys.Decls() {
			if in.Forgotten(d.Name) {
				got = append(got, d.Name)
				if !in.Finite(d.Name) || len(in.Values(d.Name)) != 1 || in.Values(d.Name)[0] != 0 {
					t.Errorf("%s: forgotten %s is not explicit with the domain {0}", c.name, d.Name)
				}
			}
		}
		if len(got) != len(c.forgot) {
			t.Errorf("%s: forgotten %v, want %v", c.name, got, c.forgot)
			continue
		}
		for i := range got {
			if got[i] != c.forgot[i] {
				t.Errorf("%s: forgotten %v, want %v", c.name, got, c.forgot)
			}
		}
	}
}
