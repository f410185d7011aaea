package csprint_test

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"fencer/cs"
	"fencer/csprint"
	"fencer/litmus"
	"fencer/rmm"
)

// automata is the listing of sys without source positions and fence site
// numbers and texts: they differ between a model and its printed .cs form,
// where each instance of a process(N) is a process of its own, with sites
// of its own.
func automata(t *testing.T, sys *cs.System) string {
	var b strings.Builder
	if err := sys.Format(&b); err != nil {
		t.Fatal(err)
	}
	s := b.String()
	if i := strings.Index(s, "\nfence sites:"); i >= 0 {
		s = s[:i]
	}
	s = regexp.MustCompile(`  \(sites? [^)]*\)`).ReplaceAllString(s, "")
	return regexp.MustCompile(`\S+\.(rmm|litmus|cs):\d+`).ReplaceAllString(s, "POS")
}

// TestRoundTrip prints the .cs form of every .rmm and .litmus benchmark,
// parses it with cs.Parse and checks that it gives the same automata, bad
// states and number of fence sites as the reader.
func TestRoundTrip(t *testing.T) {
	files, _ := filepath.Glob("../benchmarks/rmm/*.rmm")
	lit, _ := filepath.Glob("../benchmarks/litmus/x86/*.litmus")
	files = append(files, lit...)
	if len(files) < 10 {
		t.Fatalf("only %d benchmark files", len(files))
	}
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		parse, program := rmm.Parse, rmm.Program
		if strings.HasSuffix(f, ".litmus") {
			parse, program = litmus.Parse, litmus.Program
		}
		sys, err := parse(f, src)
		if err != nil {
			t.Fatal(err)
		}
		prog, err := program(f, src)
		if err != nil {
			t.Fatal(err)
		}
		var b strings.Builder
		if err := csprint.Fprint(&b, prog); err != nil {
			t.Fatal(err)
		}
		back, err := cs.Parse("printed.cs", []byte(b.String()))
		if err != nil {
			t.Fatalf("%s: the printed program does not parse: %v\n%s", f, err, b.String())
		}
		// The .cs language has no ranged initial value: a Memorax "x = * :
		// [0:1]" prints as "x = *" (show --cs says so), the only difference
		// the automata may have.
		unranged := regexp.MustCompile(`=\*\[-?\d+:-?\d+\]`)
		if a, c := unranged.ReplaceAllString(automata(t, sys), "=*"), automata(t, back); a != c {
			t.Errorf("%s: automata differ\nreader:\n%s\nprinted:\n%s", f, a, c)
		}
		if !strings.Contains(string(src), "process(") && len(sys.WriteSites()) != len(back.WriteSites()) {
			t.Errorf("%s: %d sites, printed %d", f, len(sys.WriteSites()), len(back.WriteSites()))
		}
	}
}
