package fences

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"fencer/cs"
)

var update = flag.Bool("update", false, "rewrite the .golden files of testdata")

// patchHeader matches the optional "// patch: lines=3,7" header comment.
var patchHeader = regexp.MustCompile(`(?m)^//\s*patch:\s*lines=([0-9, ]+)\s*$`)

// TestGolden parses every testdata/*.cs file, fences all its sites (or those
// starting on the lines its "// patch: lines=..." header lists), and compares
// the output with the .golden file next to it. The output must parse again,
// with the same write statements, and each fenced write must now be
// followed by a fence in the automata.
func TestGolden(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "*.cs"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no testdata: %v", err)
	}
	for _, file := range files {
		t.Run(filepath.Base(file), func(t *testing.T) {
			src, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			sys, err := cs.Parse(file, src)
			if err != nil {
				t.Fatalf("parse: %v", err)
			}
			chosen := selectSites(t, sys, src)
			if len(chosen) == 0 {
				t.Fatal("no site selected")
			}
			out, err := Apply(src, FenceEdits(src, chosen))
			if err != nil {
				t.Fatal(err)
			}

			golden := strings.TrimSuffix(file, ".cs") + ".golden"
			if *update {
				if err := os.WriteFile(golden, out, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(out, want) {
				t.Errorf("output differs from %s:\n%s", golden, out)
			}

			checkPatched(t, sys, chosen, out)
		})
	}
}

// selectSites returns the sites of sys starting on the lines listed in the
// patch header of src, or all of them.
func selectSites(t *testing.T, sys *cs.System, src []byte) []*cs.Site {
	m := patchHeader.FindSubmatch(src)
	if m == nil {
		return sys.Sites
	}
	lines := map[int]bool{}
	for _, f := range strings.Split(string(m[1]), ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil {
			t.Fatalf("bad patch header %q", m[0])
		}
		lines[n] = true
	}
	var chosen []*cs.Site
	for _, s := range sys.Sites {
		if line := sys.File.Line(s.Pos()); lines[line] {
			chosen = append(chosen, s)
			delete(lines, line)
		}
	}
	if len(lines) > 0 {
		t.Fatalf("no site on lines %v", lines)
	}
	return chosen
}

// checkPatched parses the patched source out and checks that it has the
// same sites with the same texts as sys, none of them a bare body any more
// if it was fenced, and that every write edge of a fenced site leads to a
// location whose only step is a fence.
func checkPatched(t *testing.T, sys *cs.System, chosen []*cs.Site, out []byte) {
	t.Helper()
	got, err := cs.Parse("patched.cs", out)
	if err != nil {
		t.Fatalf("patched output does not parse: %v", err)
	}
	if len(got.Sites) != len(sys.Sites) {
		t.Fatalf("patched output has %d sites, want %d", len(got.Sites), len(sys.Sites))
	}
	fenced := map[int]bool{}
	for _, s := range chosen {
		fenced[s.ID] = true
	}
	for i, s := range got.Sites {
		if s.Text != sys.Sites[i].Text {
			t.Errorf("site %d is %q, want %q", i, s.Text, sys.Sites[i].Text)
		}
		if fenced[i] && s.BareBody {
			t.Errorf("fenced site %d %q is still a bare body", i, s.Text)
		}
	}
	if len(got.Procs) != len(sys.Procs) {
		t.Fatalf("patched output has %d processes, want %d", len(got.Procs), len(sys.Procs))
	}
	for _, p := range got.Procs {
		for _, e := range p.Edges {
			if e.Op.Kind != cs.OpWrite || e.Site < 0 || !fenced[e.Site] {
				continue
			}
			out := p.Out[e.To]
			if len(out) != 1 || p.Edges[out[0]].Op.Kind != cs.OpFence {
				t.Errorf("%s: write of site %d %q is not followed by a fence", p.Name, e.Site, got.Sites[e.Site].Text)
			}
		}
	}
}
