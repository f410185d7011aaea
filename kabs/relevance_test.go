package kabs

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"fencer/memmodel"
)

// AppendMask appends the same mask and key after any prefix, its key is
// the mask as a bit set, and the mask is the conjunction of the processes'
// AppendProcMask, each of which reads only its process's part: on every
// control state of a search of Peterson's lock under TSO and under SC,
// with predicates over locals, buffer slots and last-write values, the
// mask and key appended after a prefix equal those appended to nothing
// (the prefix left alone), the processes' masks AND to the mask, and a
// step of one process leaves the others' masks alone; some predicates are
// relevant at some states and not at others.
func TestAppendMask(t *testing.T) {
	src, err := os.ReadFile(filepath.Join("..", "benchmarks", "peterson.cs"))
	if err != nil {
		t.Fatal(err)
	}
	sys := parse(t, "peterson", string(src))
	for _, m := range []memmodel.Model{memmodel.TSO, memmodel.SC} {
		abs, err := NewAbs(sys, m, 2)
		if err != nil {
			t.Fatal(err)
		}
		checkMasks(t, abs)
	}
}

func checkMasks(t *testing.T, abs *Abs) {
	t.Helper()
	sys := abs.Sys
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
	ever, never := make([]bool, r.Len()), make([]bool, r.Len())
	n := eachCtl(abs, 2000, func(c *Ctl, succs []Succ) {
		m, key := r.AppendMask(nil, nil, c)
		for i, v := range m {
			if (key[i/8]&(1<<(i%8)) != 0) != v {
				t.Fatalf("at %s: mask %v, key %x", c.Key(), m, key)
			}
		}
		pm, pk := []bool{true, false, true}, []byte{0xa5}
		am, ak := r.AppendMask(slices.Clone(pm), slices.Clone(pk), c)
		if !slices.Equal(am[:len(pm)], pm) || !slices.Equal(ak[:len(pk)], pk) {
			t.Fatalf("AppendMask changed the prefix: %v %x", am[:len(pm)], ak[:len(pk)])
		}
		if !slices.Equal(am[len(pm):], m) || !slices.Equal(ak[len(pk):], key) {
			t.Fatalf("at %s: after a prefix %v %x, alone %v %x", c.Key(), am[len(pm):], ak[len(pk):], m, key)
		}
		for i, v := range m {
			ever[i] = ever[i] || v
			never[i] = never[i] || !v
		}
		and := slices.Repeat([]bool{true}, r.Len())
		for p := range sys.Procs {
			pm := r.AppendProcMask(nil, c, p)
			for i := range and {
				and[i] = and[i] && pm[i]
			}
		}
		if !slices.Equal(and, m) {
			t.Fatalf("at %s: the processes' masks AND to %v, the mask is %v", c.Key(), and, m)
		}
		for _, s := range succs {
			for p := range sys.Procs {
				if p != s.Step.Proc && !slices.Equal(r.AppendProcMask(nil, c, p), r.AppendProcMask(nil, s.Ctl, p)) {
					t.Fatalf("process %d's mask changed by a step of %d", p, s.Step.Proc)
				}
			}
		}
	})
	varied := 0
	for i := range ever {
		if ever[i] && never[i] {
			varied++
		}
	}
	if varied == 0 {
		t.Errorf("no predicate is relevant at some states and not at others (%d states)", n)
	}
}
