package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// runLine matches "// run: insert --model tso" header lines.
var runLine = regexp.MustCompile(`(?m)^//\s*run:\s*(.*?)\s*$`)

// TestPlacementGolden runs each "// run:" line of every
// testdata/placement/*.cs file on it and compares stdout and the summary on
// stderr with FILE.<n>.golden (the summary after a line "--- stderr").
func TestPlacementGolden(t *testing.T) {
	files, _ := filepath.Glob("testdata/placement/*.cs")
	if len(files) == 0 {
		t.Fatal("no testdata/placement")
	}
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		runs := runLine.FindAllSubmatch(src, -1)
		if len(runs) == 0 {
			t.Fatalf("%s: no run line", f)
		}
		for i, m := range runs {
			args := append(strings.Fields(string(m[1])), f)
			golden := strings.TrimSuffix(f, ".cs") + "." + string(rune('1'+i)) + ".golden"
			t.Run(filepath.Base(golden), func(t *testing.T) {
				stdout, stderr, code := fencer(t, args...)
				if code != 0 {
					t.Fatalf("fencer %v: exit %d\n%s", args, code, stderr)
				}
				got := []byte(stdout + "\n--- stderr\n" + stableSummary(stderr))
				if *update {
					if err := os.WriteFile(golden, got, 0o644); err != nil {
						t.Fatal(err)
					}
				}
				want, err := os.ReadFile(golden)
				if err != nil {
					t.Fatal(err)
				}
				if !bytes.Equal(got, want) {
					t.Errorf("fencer %v differs from %s:\n%s", args, golden, got)
				}
			})
		}
	}
}

// stableSummary drops the lines of the summary that vary between runs
// (statistics and timings).
func stableSummary(s string) string {
	var keep []string
	for _, l := range strings.Split(s, "\n") {
		if strings.HasPrefix(l, "k=") || l == "" {
			continue
		}
		keep = append(keep, l)
	}
	return strings.Join(keep, "\n") + "\n"
}

// The JSON report lists the alternatives of --all and the fences that
// --reconsider keeps (existing) and removes.
func TestPlacementJSON(t *testing.T) {
	dir := t.TempDir()
	var doc struct {
		Fences []struct {
			Line     int    `json:"line"`
			Place    string `json:"place"`
			Existing bool   `json:"existing"`
		} `json:"fences"`
		Removed      []struct{ Line int } `json:"removed"`
		Alternatives [][]struct {
			Line int `json:"line"`
		} `json:"alternatives"`
	}
	read := func(path string) {
		t.Helper()
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		doc.Fences, doc.Removed, doc.Alternatives = nil, nil, nil
		if err := json.Unmarshal(b, &doc); err != nil {
			t.Fatalf("%v: %s", err, b)
		}
	}
	all := filepath.Join(dir, "all.json")
	if _, stderr, code := fencer(t, "insert", "--all", "--json", all, "testdata/placement/sb_all.cs"); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	read(all)
	if len(doc.Fences) != 2 || len(doc.Alternatives) != 3 || len(doc.Removed) != 0 {
		t.Errorf("--all: %d fences, %d alternatives, %d removed; want 2, 3, 0", len(doc.Fences), len(doc.Alternatives), len(doc.Removed))
	}
	rec := filepath.Join(dir, "rec.json")
	if _, stderr, code := fencer(t, "insert", "--reconsider", "--json", rec, "testdata/placement/peterson_fenced.cs"); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	read(rec)
	if len(doc.Fences) != 1 || !doc.Fences[0].Existing || doc.Fences[0].Line != 45 || len(doc.Removed) != 2 {
		t.Errorf("--reconsider: fences %+v, removed %+v; want the fence of line 45 kept, 2 removed", doc.Fences, doc.Removed)
	}
	if _, stderr, code := fencer(t, "insert", "--all=0", "testdata/placement/sb_all.cs"); code != 2 || !strings.Contains(stderr, "--all=N") {
		t.Errorf("--all=0: exit %d, %s", code, stderr)
	}
}

// --kinds takes full or full,store, nothing else.
func TestKindsFlag(t *testing.T) {
	for _, k := range []string{"store", "full,load", "full,,store"} {
		_, stderr, code := fencer(t, "insert", "--kinds", k, "testdata/placement/mp_kinds.cs")
		if code != 2 || !strings.Contains(stderr, "--kinds") {
			t.Errorf("--kinds %q: exit %d, %s", k, code, stderr)
		}
	}
}
