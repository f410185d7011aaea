package kabs

import (
	"testing"

	"fencer/cs"
)

func parse(t *testing.T, name, src string) *cs.System {
	t.Helper()
	sys, err := cs.Parse(name, []byte(src))
	if err != nil {
		t.Fatalf("parse %s: %v", name, err)
	}
	return sys
}

// eachCtl calls visit with each control state of abs that a breadth-first
// search from the initial state reaches, and its steps (abs.Successors),
// at most limit of them, and returns how many it visited.
func eachCtl(abs *Abs, limit int, visit func(c *Ctl, succs []Succ)) int {
	seen := map[string]bool{abs.Init().Key(): true}
	queue := []*Ctl{abs.Init()}
	n := 0
	for ; len(queue) > 0 && n < limit; n++ {
		c := queue[0]
		queue = queue[1:]
		succs := abs.Successors(c)
		visit(c, succs)
		for _, s := range succs {
			if k := s.Ctl.Key(); !seen[k] {
				seen[k] = true
				queue = append(queue, s.Ctl)
			}
		}
	}
	return n
}
