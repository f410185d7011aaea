package cgen

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A main that only starts the threads, waits for them and then checks
// their results is a parent: its harness needs a CPU per thread, not for
// main (issue 37: run --hw refused such a C program on 2 CPUs). Any other
// shape keeps main a thread of its own.
func TestParent(t *testing.T) {
	src, err := os.ReadFile("testdata/parent.cs")
	if err != nil {
		t.Fatal(err)
	}
	sys := parseSrc(t, string(src))
	par, ok := parentOf(sys)
	if !ok || sys.Procs[par.proc].Name != "main" || CPUs(sys) != 2 {
		t.Fatalf("parentOf = %+v, %v; CPUs %d", par, ok, CPUs(sys))
	}
	h, err := NewHarness(sys)
	if err != nil {
		t.Fatal(err)
	}
	if h.Threads != 2 || h.Parent != "main" || !strings.Contains(string(h.Source), "#define NW 2\n#define PARENT 0\n#define LEAD 1\n") {
		t.Errorf("harness: %d threads, parent %q", h.Threads, h.Parent)
	}
	needGCC(t)
	f := filepath.Join(t.TempDir(), "h.c")
	if err := os.WriteFile(f, h.Source, 0o644); err != nil {
		t.Fatal(err)
	}
	gcc(t, []string{"-fsyntax-only", "-std=gnu11", "-pthread", "-Wall", "-Werror"}, []string{f})

	for name, edit := range map[string][2]string{
		"main writes while a thread may run": {"atomic { go1 = 1; }", "atomic { go1 = 1; } x = 2;"},
		"main writes between the starts":     {"atomic { go0 = 1; }", "atomic { go0 = 1; } x = 2;"},
		"a thread is not joined":             {"atomic { assume(done1 == 1); }", ""},
		"a thread does not wait":             {"atomic { assume(go1 == 1); }\n  y = 1;", "y = 1;"},
		"a forbidden state names main":       {"process t0 {", "forbidden main@m, t0@m; process t0 {"},
		"a thread reads a start flag":        {"r = x;", "r = go0;"},
		"a thread goes on after done":        {"atomic { done1 = 1; }", "atomic { done1 = 1; } x = 3;"},
		"main starts a thread twice":         {"atomic { go1 = 1; }", "atomic { go1 = 1; } atomic { go1 = 1; }"},
		"main joins in a loop":               {"  a = r0;", "  while (*) { atomic { go0 = 1; } }\n  a = r0;"},
	} {
		text := strings.Replace(string(src), edit[0], edit[1], 1)
		if text == string(src) {
			t.Fatalf("%s: the edit changes nothing", name)
		}
		if name == "a forbidden state names main" {
			text = strings.Replace(text, "  local a, b;\n", "  local a, b;\nm: skip;\n", 1)
			text = strings.Replace(text, "  x = 1;", "m: x = 1;", 1)
		}
		sys := parseSrc(t, text)
		if _, ok := parentOf(sys); ok || CPUs(sys) != 3 {
			t.Errorf("%s: a parent (CPUs %d)", name, CPUs(sys))
		}
	}
}
