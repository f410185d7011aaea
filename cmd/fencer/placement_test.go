package main

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

var updateGolden = flag.Bool("update", false, "rewrite the .golden files of testdata/placement")

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
				if *updateGolden {
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
