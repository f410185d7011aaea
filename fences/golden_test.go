package fences

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"

	"fencer/cs"
)

var update = flag.Bool("update", false, "rewrite the .golden files of testdata")

// patchHeader matches the optional "// patch: lines=3,7" header comment;
// pointHeader a "// patch: point=after x = 1;" line (cs.Site.Describe),
// one per chosen point.
var (
	patchHeader = regexp.MustCompile(`(?m)^//\s*patch:\s*lines=([0-9, ]+)\s*$`)
	pointHeader = regexp.MustCompile(`(?m)^//\s*patch:\s*point=(.*?)\s*$`)
)

// TestGolden parses every testdata/*.cs file, fences the points right after
// all its writes (or after the writes starting on the lines its "// patch:
// lines=..." header lists, or the points its "// patch: point=..." lines
// name), and compares the output with the .golden file next to it. The
// output must parse again and mean what cs.System.WithFences means
// (checkPatched).
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

// selectSites returns the points chosen by the header of src (see
// TestGolden).
func selectSites(t *testing.T, sys *cs.System, src []byte) []*cs.Site {
	if ms := pointHeader.FindAllSubmatch(src, -1); ms != nil {
		var chosen []*cs.Site
		for _, m := range ms {
			n := len(chosen)
			for _, s := range sys.Sites {
				if s.Describe() == string(m[1]) {
					chosen = append(chosen, s)
				}
			}
			if len(chosen) != n+1 {
				t.Fatalf("%d points are %q", len(chosen)-n, m[1])
			}
		}
		return chosen
	}
	var lines map[int]bool
	if m := patchHeader.FindSubmatch(src); m != nil {
		lines = map[int]bool{}
		for _, f := range strings.Split(string(m[1]), ",") {
			n, err := strconv.Atoi(strings.TrimSpace(f))
			if err != nil {
				t.Fatalf("bad patch header %q", m[0])
			}
			lines[n] = true
		}
	}
	var chosen []*cs.Site
	for _, s := range sys.Sites {
		if !s.AfterWrite {
			continue
		}
		if line := sys.File.Line(s.Pos()); lines == nil || lines[line] {
			chosen = append(chosen, s)
			delete(lines, line)
		}
	}
	if len(lines) > 0 {
		t.Fatalf("no write on lines %v", lines)
	}
	return chosen
}

// checkPatched parses the patched source out and checks that each process
// has the same runs as in sys.WithFences(chosen): the same sequences of
// operations up to a bounded length, with fences where WithFences puts
// them (consecutive fences count as one).
func checkPatched(t *testing.T, sys *cs.System, chosen []*cs.Site, out []byte) {
	t.Helper()
	got, err := cs.Parse("patched.cs", out)
	if err != nil {
		t.Fatalf("patched output does not parse: %v", err)
	}
	fenced := map[int]bool{}
	for _, s := range chosen {
		fenced[s.ID] = true
	}
	want := sys.WithFences(fenced)
	if len(got.Procs) != len(want.Procs) {
		t.Fatalf("patched output has %d processes, want %d", len(got.Procs), len(want.Procs))
	}
	for i, p := range got.Procs {
		g, w := runs(p, 12), runs(want.Procs[i], 12)
		if strings.Join(g, "\n") != strings.Join(w, "\n") {
			t.Errorf("%s: the patched program's runs differ from WithFences:\npatched:\n\t%s\nwant:\n\t%s",
				p.Name, strings.Join(g, "\n\t"), strings.Join(w, "\n\t"))
		}
	}
}

// runs lists the sorted, distinct runs of p of at most n operations other
// than fences, as operation texts; a run of fences counts as one "fence".
func runs(p *cs.Process, n int) []string {
	set := map[string]bool{}
	var walk func(l cs.Loc, path []string, left int)
	walk = func(l cs.Loc, path []string, left int) {
		set[strings.Join(path, "; ")] = true
		if left == 0 || len(set) > 20000 {
			return
		}
		for _, ei := range p.Out[l] {
			e := p.Edges[ei]
			op := e.Op.String()
			switch {
			case e.Op.Kind == cs.OpFence && e.Op.Fence == cs.FullFence:
				if len(path) > 0 && path[len(path)-1] == "fence" {
					walk(e.To, path, left)
				} else {
					walk(e.To, append(path[:len(path):len(path)], "fence"), left)
				}
			default:
				walk(e.To, append(path[:len(path):len(path)], op), left-1)
			}
		}
	}
	walk(0, nil, n)
	out := make([]string, 0, len(set))
	for s := range set {
		out = append(out, s)
	}
	sort.Strings(out)
	return out
}
