package fences_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"fencer/cs"
	"fencer/fences"
	"fencer/litmus"
	"fencer/memmodel"
	"fencer/rmm"
	"fencer/robust"
)

// FuzzSites reads arbitrary .cs, .rmm and x86 .litmus programs (the first
// byte chooses: 0, 1, 2 modulo 3) and, for every program that reads, does
// what insert
// does with it short of the CEGAR loop: checks its fence sites against its
// source, finds a bad run under TSO and PSO with the explicit-state
// checker (bounded), computes the candidate sets and the blocking elements
// of that run and shrinks it, computes the robustness fences, and patches
// fences at every site and reads the result again. Nothing may panic, and
// the sites must be pieces of the source (a reader that put a statement's
// end before its start made Lower panic: issue 37).
func FuzzSites(f *testing.F) {
	for _, g := range []struct {
		tag     byte
		pattern string
	}{
		{0, "../benchmarks/*.cs"}, {0, "../benchmarks/litmus/*.cs"}, {0, "../benchmarks/regressions/*.cs"},
		{1, "../benchmarks/rmm/*.rmm"}, {1, "../benchmarks/rmm/constructs/*.rmm"}, {1, "../rmm/testdata/*.rmm"},
		{2, "../benchmarks/litmus/x86/*.litmus"}, {2, "../benchmarks/litmus/x86/herd/*.litmus"},
	} {
		files, _ := filepath.Glob(g.pattern)
		for _, path := range files {
			if src, err := os.ReadFile(path); err == nil {
				f.Add(append([]byte{g.tag}, src...))
			}
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) == 0 {
			return
		}
		src := data[1:]
		var sys *cs.System
		var err error
		switch data[0] % 3 {
		case 0:
			sys, err = cs.Parse("fuzz.cs", src)
		case 1:
			sys, err = rmm.Parse("fuzz.rmm", src)
		default:
			sys, err = litmus.Parse("fuzz.litmus", src)
		}
		if err != nil {
			return
		}
		checkSites(t, sys, src)
		if len(sys.Sites) > 40 || len(sys.Procs) > 4 {
			return // the searches below are exponential in these
		}
		for _, name := range []string{"tso", "pso"} {
			m, err := memmodel.Parse(name)
			if err != nil {
				t.Fatal(err)
			}
			bsys, err := memmodel.ForBuffers(sys, m)
			if err != nil {
				continue
			}
			runAndCandidates(t, bsys, m)
			if fs, err := robust.Analyze(bsys, m).MinFences(); err == nil {
				for _, id := range fs.Sites {
					if id < 0 || id >= len(bsys.Sites) {
						t.Fatalf("%s: robustness fence at site %d of %d", name, id, len(bsys.Sites))
					}
				}
			}
		}
		var writes []*cs.Site
		for _, s := range sys.Sites {
			if s.AfterWrite {
				writes = append(writes, s)
			}
		}
		if _, psys, err := fences.PatchAndParse(sys, writes); err == nil {
			checkSites(t, psys, psys.File.Src)
		}
	})
}

// checkSites checks that the sites of sys are numbered in order, are
// pieces of src, and that every edge passes existing sites only.
func checkSites(t *testing.T, sys *cs.System, src []byte) {
	t.Helper()
	for i, s := range sys.Sites {
		if s.ID != i {
			t.Fatalf("site %d has ID %d", i, s.ID)
		}
		if s.Start < 0 || s.Start > s.End || s.End > len(src) || s.Text != string(src[s.Start:s.End]) {
			t.Fatalf("site %d: [%d:%d] %q is not a piece of the %d-byte source", i, s.Start, s.End, s.Text, len(src))
		}
	}
	for _, p := range sys.Procs {
		for _, e := range p.Edges {
			for _, id := range e.Points {
				if id < 0 || id >= len(sys.Sites) {
					t.Fatalf("%s: an edge passes site %d of %d", p.Name, id, len(sys.Sites))
				}
			}
		}
	}
}

// runAndCandidates finds a shortest bad run of sys under m in a small
// bound and computes what insert computes from it.
func runAndCandidates(t *testing.T, sys *cs.System, m memmodel.Model) {
	t.Helper()
	c := memmodel.NewConcrete(sys, m)
	res, err := c.Explore(context.Background(), memmodel.Limits{MaxStates: 3000, MaxDepth: 60})
	if err != nil || res.Trace == nil {
		return
	}
	states, err := c.Replay(res.Trace)
	if err != nil {
		t.Fatalf("%s: the explorer's own trace does not replay: %v", m, err)
	}
	for _, ids := range [][]int{fences.Candidates(sys, c, res.Trace, states), fences.StoreCandidates(sys, c, res.Trace, states)} {
		for _, id := range ids {
			if id < 0 || id >= len(sys.Sites) {
				t.Fatalf("%s: candidate site %d of %d", m, id, len(sys.Sites))
			}
		}
	}
	fences.Blocking(sys, c, res.Trace, states, true)
	fences.Shrink(sys, c, res.Trace, states, false, 200)
}
