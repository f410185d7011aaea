package cs_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"fencer/cfront"
	"fencer/cs"
	"fencer/fences"
	"fencer/litmus"
	"fencer/rmm"
)

// readSystem reads a benchmark file by its extension.
func readSystem(t *testing.T, path string) *cs.System {
	t.Helper()
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var sys *cs.System
	switch filepath.Ext(path) {
	case ".rmm":
		sys, err = rmm.Parse(path, src)
	case ".litmus":
		sys, err = litmus.Parse(path, src)
	case ".c":
		sys, err = cfront.Reader{}.Parse(path, src)
	default:
		sys, err = cs.Parse(path, src)
	}
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
