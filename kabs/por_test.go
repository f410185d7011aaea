package kabs

import (
	"testing"

	"fencer/memmodel"
)

// Which steps the partial-order reduction may treat as local: P's
// assignment and its first write (exact room with k = 1) are, its second
// write (the buffer is full: WRITE-G, which a flush would change) and its
// read are not; the fence is only with an empty buffer. The location of
// cs and the assert sink are visible, the others are not.
func TestLocalAndVisibility(t *testing.T) {
	sys := parse(t, "por", `
shared x, y;
process P {
  local r;
  r = 1;
  x = r;
  y = 2;
  fence;
  r = y;
cs: skip;
}
process Q {
  local s;
  s = x;
  assert(s == 0);
cs: skip;
}
mutex cs;
`)
	abs, err := NewAbs(sys, memmodel.TSO, 1)
	if err != nil {
		t.Fatal(err)
	}
	c := abs.Init()
	step := func(p int, want bool, what string) {
		t.Helper()
		if got := abs.Local(c, p); got != want {
			t.Errorf("%s: Local = %v, want %v", what, got, want)
		}
		for _, s := range abs.Successors(c) {
			if s.Step.Proc == p && s.Step.Edge >= 0 {
				c = s.Ctl
				return
			}
		}
		t.Fatalf("%s: no step of process %d", what, p)
	}
	step(0, true, "r = 1")
	step(0, true, "x = r (empty buffer)")
	step(0, false, "y = 2 (buffer full at k = 1)")
	if abs.Local(c, 0) {
		t.Errorf("fence with a non-empty buffer: Local = true")
	}
	if abs.Local(c, 1) {
		t.Errorf("Q's read of x: Local = true")
	}
	sc, _ := NewAbs(sys, memmodel.SC, 0)
	c0 := sc.Init()
	if !sc.Local(c0, 0) {
		t.Errorf("SC, r = 1: Local = false")
	}
	c0 = sc.Successors(c0)[0].Ctl
	if sc.Local(c0, 0) {
		t.Errorf("SC, x = r (to memory): Local = true")
	}
	vis := Visibility(sys)
	p, q := sys.Procs[0], sys.Procs[1]
	if !vis[0][p.Labels["cs"]] || !vis[1][q.Labels["cs"]] || !vis[1][q.ErrLoc] {
		t.Errorf("cs or the assert sink not visible: %v", vis)
	}
	if vis[0][0] || vis[1][0] {
		t.Errorf("initial locations visible: %v", vis)
	}
}
