package cs_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"fencer/cs"
	"fencer/fences"
	"fencer/formats"
)

// readSystem reads a benchmark file in the format of its extension, as
// the command line does (formats.ByExtension).
func readSystem(t *testing.T, path string) *cs.System {
	t.Helper()
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	sys, _, err := formats.ByExtension(path).Parse(path, src, formats.Options{})
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return sys
}

// fenced returns sys with full fences at the sites of set as the patched
// text lowers them (read again) and as the CEGAR loop builds them.
func fenced(t *testing.T, sys *cs.System, set []fences.Element) (patched, built *cs.System) {
	t.Helper()
	src, _, err := fences.Place(sys, set)
	if err != nil {
		t.Fatalf("%s: Place %v: %v", sys.File.Name, set, err)
	}
	psys, err := sys.Reparse(src)
	if err != nil {
		t.Fatalf("%s: the patched text does not parse: %v\n%s", sys.File.Name, err, src)
	}
	kinds := map[int]cs.FenceKind{}
	for _, f := range set {
		kinds[f.Site] = f.Kind
	}
	return psys, sys.WithFenceKinds(kinds)
}

func listing(s *cs.System) string {
	var b strings.Builder
	s.Format(&b)
	return b.String()
}

func TestSameAutomataSameProgram(t *testing.T) {
	for _, path := range []string{"../benchmarks/dijkstra.cs", "../benchmarks/bakery.cs", "../benchmarks/rmm/dekker_full.rmm", "../benchmarks/c/peterson.c"} {
		a, b := readSystem(t, path), readSystem(t, path)
		if !cs.SameAutomata(a, b) {
			t.Errorf("%s read twice: not the same automata", path)
		}
		if !cs.SameAutomata(a, a.WithFenceKinds(nil)) {
			t.Errorf("%s: not the same as itself with no fence added", path)
		}
	}
}

// TestSameAutomataPatched: the patched text of benchmarks in every format,
// with a fence after each write alone and after all writes together (the
// fences insert chooses), lowers to the automata WithFenceKinds builds:
// the same up to renumbering where one edge passes the point, with one
// fence where the text joins what WithFenceKinds splits (after an if, a
// cas). Other points of .cs files are only counted: a fence before the
// first statement or after a goto is a step of the text that no edge of
// WithFenceKinds passes, and SameAutomata says no to it.
func TestSameAutomataPatched(t *testing.T) {
	files, _ := filepath.Glob("../benchmarks/*.cs")
	files = append(files, "../benchmarks/rmm/dekker_full.rmm", "../benchmarks/rmm/bakery.rmm",
		"../benchmarks/litmus/x86/sb.litmus", "../benchmarks/c/peterson.c", "../benchmarks/c/dijkstra.c")
	for _, path := range files {
		if _, err := os.Stat(path); err != nil {
			t.Errorf("%v", err)
			continue
		}
		sys := readSystem(t, path)
		writes := sys.WriteSites()
		if len(writes) == 0 {
			t.Errorf("%s: no site after a write", path)
			continue
		}
		var all []fences.Element
		for _, st := range writes {
			one := []fences.Element{{Site: st.ID, Kind: cs.FullFence}}
			all = append(all, one[0])
			p, w := fenced(t, sys, one)
			if !cs.SameAutomata(p, w) {
				t.Errorf("%s: fence at site %d (%s): the patched text is not the same automata\npatched:\n%s\nbuilt:\n%s", path, st.ID, st.Describe(), listing(p), listing(w))
			}
		}
		p, w := fenced(t, sys, all)
		if !cs.SameAutomata(p, w) {
			t.Errorf("%s: fences after all %d writes: the patched text is not the same automata", path, len(all))
		}
		if sys.Reader != nil {
			continue
		}
		same := 0
		for _, st := range sys.Sites {
			if p, w := fenced(t, sys, []fences.Element{{Site: st.ID, Kind: cs.FullFence}}); cs.SameAutomata(p, w) {
				same++
			}
		}
		t.Logf("%s: %d of %d sites the same, %d after writes", path, same, len(sys.Sites), len(writes))
	}
}

// parse parses a .cs text or fails the test.
func parse(t *testing.T, src string) *cs.System {
	t.Helper()
	s, err := cs.Parse("iso.cs", []byte(src))
	if err != nil {
		t.Fatalf("%v\n%s", err, src)
	}
	return s
}

// cloneProc returns sys with a copy of process i that f may change.
func cloneProc(sys *cs.System, i int, f func(p *cs.Process)) *cs.System {
	out := *sys
	out.Procs = append([]*cs.Process(nil), sys.Procs...)
	p := *sys.Procs[i]
	p.Edges = append([]cs.Edge(nil), p.Edges...)
	p.Out = make([][]int, len(sys.Procs[i].Out))
	for l, o := range sys.Procs[i].Out {
		p.Out[l] = append([]int(nil), o...)
	}
	f(&p)
	out.Procs[i] = &p
	return &out
}

const isoProg = `
shared flag[2], turn, x = 1;
process P[i in 0..1] {
  local r;
L:
  flag[i] = 1;
  turn = 1 - i;
  r = flag[1 - i];
  if (r == 1) {
    r = turn;
    if (r == 1 - i) goto L;
  }
cs:
  x = 2;
  r = x;
  assert(r == 2);
  flag[i] = 0;
}
mutex cs;
`

// TestSameAutomataDifferent: a fence at another site, a changed constant,
// a swapped edge order, another initial value, another property, dead
// code, a split bad location: not the same.
func TestSameAutomataDifferent(t *testing.T) {
	sys := parse(t, isoProg)
	writes := sys.WriteSites()
	if len(writes) < 2 {
		t.Fatalf("want two sites after writes, have %d", len(writes))
	}
	p0, _ := fenced(t, sys, []fences.Element{{Site: writes[0].ID}})
	_, w1 := fenced(t, sys, []fences.Element{{Site: writes[1].ID}})
	if !cs.SameAutomata(p0, sys.WithFenceKinds(map[int]cs.FenceKind{writes[0].ID: cs.FullFence})) {
		t.Fatalf("the patched text is not the same as the fenced system: the cases below prove nothing")
	}
	if cs.SameAutomata(p0, w1) {
		t.Errorf("fence after %q the same as after %q", writes[0].Describe(), writes[1].Describe())
	}
	if cs.SameAutomata(p0, sys) || cs.SameAutomata(sys, p0) {
		t.Errorf("fenced the same as unfenced")
	}
	if cs.SameAutomata(sys.WithFenceKinds(map[int]cs.FenceKind{writes[0].ID: cs.StoreFence}), sys.WithFenceKinds(map[int]cs.FenceKind{writes[0].ID: cs.FullFence})) {
		t.Errorf("store fence the same as full fence")
	}
	for _, c := range []struct{ name, old, new string }{
		{"constant", "x = 2;", "x = 3;"},
		{"initial value", "x = 1;", "x = 0;"},
		{"nondeterministic initial value", "x = 1;", "x = *;"},
		{"assertion", "r == 2", "r != 2"},
		{"property", "mutex cs;", "forbidden P[0]@cs, P[1]@L;"},
		{"no property", "mutex cs;", ""},
		{"variable order", "flag[2], turn,", "turn, flag[2],"},
		{"branch order", "if (r == 1) {\n    r = turn;\n    if (r == 1 - i) goto L;\n  }", "if (r != 1) {} else {\n    r = turn;\n    if (r == 1 - i) goto L;\n  }"},
		{"dead code", "goto L;", "{ goto L; fence; }"},
		{"local", "local r;", "local r, s;"},
	} {
		if !strings.Contains(isoProg, c.old) {
			t.Fatalf("%s: %q not in the program", c.name, c.old)
		}
		other := parse(t, strings.Replace(isoProg, c.old, c.new, 1))
		if cs.SameAutomata(sys, other) || cs.SameAutomata(other, sys) {
			t.Errorf("%s changed: still the same", c.name)
		}
	}
	// Ranged initial values differ by their range.
	ranged := func(lo, hi int64) *cs.System {
		out := *sys
		out.Shared = append([]cs.VarDecl(nil), sys.Shared...)
		out.Shared[0].Init = cs.Init{Nondet: true, Ranged: true, Lo: lo, Hi: hi}
		return &out
	}
	if !cs.SameAutomata(ranged(0, 2), ranged(0, 2)) || cs.SameAutomata(ranged(0, 2), ranged(0, 3)) || cs.SameAutomata(ranged(0, 2), sys) {
		t.Errorf("ranged initial values: wrong answer")
	}
	// The outgoing edges of a branching location, swapped.
	p := sys.Procs[0]
	branch := -1
	for l, o := range p.Out {
		if len(o) == 2 {
			branch = l
			break
		}
	}
	if branch < 0 {
		t.Fatal("no branching location")
	}
	swapped := cloneProc(sys, 0, func(q *cs.Process) { q.Out[branch][0], q.Out[branch][1] = q.Out[branch][1], q.Out[branch][0] })
	if cs.SameAutomata(sys, swapped) || cs.SameAutomata(swapped, sys) {
		t.Errorf("swapped edges of location %d: still the same", branch)
	}
	// The critical section split in two locations with the same future:
	// the same runs, but only one of them is a bad location.
	cs0 := p.Labels["cs"]
	split := cloneProc(sys, 0, func(q *cs.Process) {
		m := cs.Loc(q.NumLocs)
		q.NumLocs++
		q.Out = append(q.Out, nil)
		q.LocPos = append(append([]cs.Pos(nil), q.LocPos...), cs.NoPos)
		for _, j := range q.Out[cs0] {
			e := q.Edges[j]
			e.From = m
			q.Edges = append(q.Edges, e)
			q.Out[m] = append(q.Out[m], len(q.Edges)-1)
		}
		for j := range q.Edges {
			if q.Edges[j].To == cs0 {
				q.Edges[j].To = m // every edge into cs now enters m
				break
			}
		}
	})
	if cs.SameAutomata(sys, split) {
		t.Errorf("a split critical section: the same")
	}
	// Without the property, the split is the same runs.
	noProp := parse(t, strings.Replace(isoProg, "mutex cs;", "", 1))
	cs1 := noProp.Procs[0].Labels["cs"]
	if cs1 != cs0 {
		t.Fatalf("cs at %d and %d", cs0, cs1)
	}
	splitNoProp := *split
	splitNoProp.Bad = nil
	if !cs.SameAutomata(noProp, &splitNoProp) {
		t.Errorf("a split location with no property on it: not the same (the merge of locations with the same future)")
	}
}
