package cs

import "testing"

// A nondeterministic initial value that every path writes before reading
// is fixed; one that some path reads first, or a shared one, is kept.
func TestWithoutDeadInits(t *testing.T) {
	s := mustParse(t, `
shared x = *, y;
process A {
  local r = *, u = *, w = *;
  r = y;
  if (r == 0) { u = 1; }
  w = u + r;
  y = w;
}
process B {
  local q = 3;
  q = x;
}
`)
	out := s.WithoutDeadInits()
	if out == s {
		t.Fatal("nothing fixed")
	}
	got := map[string]Init{}
	for _, v := range proc(t, out, "A").Locals {
		got[v.Name] = v.Init
	}
	if got["A.r"] != (Init{}) {
		t.Errorf("r (written before read): %+v, want a fixed 0", got["A.r"])
	}
	if !got["A.u"].Nondet {
		t.Errorf("u (read on the path where r != 0): %+v, want nondeterministic", got["A.u"])
	}
	if got["A.w"] != (Init{}) {
		t.Errorf("w: %+v, want a fixed 0", got["A.w"])
	}
	if !out.Shared[0].Init.Nondet {
		t.Error("a shared initial value was fixed")
	}
	for _, v := range proc(t, s, "A").Locals {
		if v.Name == "A.r" && !v.Init.Nondet {
			t.Error("the input was changed")
		}
	}
	if again := out.WithoutDeadInits(); again != out {
		t.Error("not idempotent")
	}
	if b := mustParse(t, "process B { local q = 3; q = q + 1; }"); b.WithoutDeadInits() != b {
		t.Error("a system with nothing to fix was copied")
	}
}
