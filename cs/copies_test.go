package cs

import "testing"

// A point inside the body of a for loop has one copy per iteration (the
// product over nested loops); a fence after the loop is preferred to one
// in its body, which runs that many times (issue 26).
func TestSiteCopies(t *testing.T) {
	s := mustParse(t, `shared a[6], f;
process P {
  for (i in 0..1)
    for (j in 0..2)
      a[3*i + j] = 1;
  f = 1;
}
`)
	copies := map[string]int{}
	var inner, outer *Site
	for _, site := range s.Sites {
		copies[site.Describe()] = site.Copies
		switch site.Describe() {
		case "after a[3*i + j] = 1;":
			inner = site
		case "after for (i in 0..1) …":
			outer = site
		}
	}
	if inner == nil || outer == nil {
		t.Fatalf("sites %v", copies)
	}
	if inner.Copies != 6 || outer.Copies != 1 {
		t.Errorf("copies %v: want 6 in the inner body, 1 after the loops", copies)
	}
	if !Preferred(outer, inner) || Preferred(inner, outer) {
		t.Error("the point after the loops should be preferred to the loop body")
	}
}
