package cegar

import (
	"testing"

	"fencer/expr"
	"fencer/kabs"
)

func TestSymmetryImages(t *testing.T) {
	g := findGroup(benchSystem(t, "scale", "ticket.cs:N=3"))
	if g == nil {
		t.Fatal("ticket_3 is symmetric")
	}
	f := expr.Le(expr.V("P[0].t"), expr.Add(expr.V("P[1].$0"), expr.V(kabs.LWVar("P[2]", "owner"))))
	got := map[string]bool{}
	for _, h := range g.images(f) {
		got[h.String()] = true
	}
	if len(got) != 5 {
		t.Errorf("%d images of %v, want 5: %v", len(got), f, got)
	}
	want := expr.Le(expr.V("P[1].t"), expr.Add(expr.V("P[0].$0"), expr.V(kabs.LWVar("P[2]", "owner"))))
	if !got[want.String()] {
		t.Errorf("no image %v among %v", want, got)
	}
}

func TestSymmetryArrays(t *testing.T) {
	g := findGroup(benchSystem(t, "sb.cs"))
	if g == nil {
		t.Fatal("sb.cs is symmetric")
	}
	f := expr.Eq(expr.V(kabs.SlotVarX("P[0]", "flag[0]", 1)), expr.V("flag[1]"))
	imgs := g.images(f)
	want := expr.Eq(expr.V(kabs.SlotVarX("P[1]", "flag[1]", 1)), expr.V("flag[0]"))
	if len(imgs) != 1 || imgs[0].String() != want.String() {
		t.Errorf("images of %v = %v, want [%v]", f, imgs, want)
	}
}

// Bakery's instances differ (the tie-break compares the constants j < i):
// no symmetry, so no images.
func TestSymmetryAsymmetric(t *testing.T) {
	for _, f := range [][]string{{"bakery.cs"}, {"scale", "bakery.cs:N=3"}} {
		if g := findGroup(benchSystem(t, f...)); g != nil {
			t.Errorf("%v: symmetric (%d automorphisms)", f, len(g.elems))
		}
	}
	if g := findGroup(benchSystem(t, "ticket_lock.cs")); g == nil {
		t.Errorf("ticket_lock.cs: not symmetric")
	}
}
