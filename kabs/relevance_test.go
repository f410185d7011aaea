package kabs

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"fencer/memmodel"
)

// AppendMask appends what Mask returns: on every control state of a
// search of Peterson's lock under TSO, with predicates over locals, buffer
// slots and last-write values, the mask and key appended after a prefix
// equal Mask's, and the prefix is left alone; some predicates are
// relevant at some states and not at others.
func TestAppendMask(t *testing.T) {
	src, err := os.ReadFile(filepath.Join("..", "benchmarks", "peterson.cs"))
	if err != nil {
		t.Fatal(err)
	}
	sys := parse(t, "peterson", string(src))
	abs, err := NewAbs(sys, memmodel.TSO, 2)
	if err != nil {
		t.Fatal(err)
	}
	r := NewRelevance(sys)
	p0, p1 := sys.Procs[0], sys.Procs[1]
	var locals []string
	for _, l := range p0.Locals {
		locals = append(locals, l.Name)
	}
	if len(locals) == 0 || ParseVar(locals[0]).Kind != VarLocal {
		t.Fatalf("the locals of %s: %v", p0.Name, locals)
	}
	r.Add(map[string]bool{})
	for _, l := range locals {
		r.Add(map[string]bool{l: true})
	}
	r.Add(map[string]bool{SlotVar(p0.Name, 1): true})
	r.Add(map[string]bool{SlotVar(p1.Name, 2): true, LWVar(p0.Name, sys.Shared[0].Name): true})
	if r.Len() < 4 {
		t.Fatalf("%d predicates", r.Len())
	}
	seen := map[string]bool{}
	ever, never := make([]bool, r.Len()), make([]bool, r.Len())
	queue := []*Ctl{abs.Init()}
	for len(queue) > 0 && len(seen) < 2000 {
		c := queue[0]
		queue = queue[1:]
		if seen[c.Key()] {
			continue
		}
		seen[c.Key()] = true
		m, key := r.Mask(c)
		pm, pk := []bool{true, false, true}, []byte{0xa5}
		am, ak := r.AppendMask(slices.Clone(pm), slices.Clone(pk), c)
		if !slices.Equal(am[:len(pm)], pm) || !slices.Equal(ak[:len(pk)], pk) {
			t.Fatalf("AppendMask changed the prefix: %v %x", am[:len(pm)], ak[:len(pk)])
		}
		if !slices.Equal(am[len(pm):], m) || string(ak[len(pk):]) != key {
			t.Fatalf("at %s: AppendMask %v %x, Mask %v %x", c.Key(), am[len(pm):], ak[len(pk):], m, key)
		}
		for i, v := range m {
			ever[i] = ever[i] || v
			never[i] = never[i] || !v
		}
		for _, s := range abs.Successors(c) {
			queue = append(queue, s.Ctl)
		}
	}
	varied := 0
	for i := range ever {
		if ever[i] && never[i] {
			varied++
		}
	}
	if varied == 0 {
		t.Errorf("no predicate is relevant at some states and not at others (%d states)", len(seen))
	}
}
