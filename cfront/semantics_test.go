package cfront

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"testing"
	"time"

	"fencer/cegar"
	"fencer/memmodel"
)

var expectRE = regexp.MustCompile(`(?m)^// fencer: expect (sc|tso|pso) (safe|bug|fences=\d+)$`)

// TestSemantics runs the "// fencer: expect" lines of testdata/semantics
// (switch, do/while, continue, structs, SV-COMP functions, mutexes, CAS,
// C11 threads, &ids[i] arguments, indices out of bounds, lost updates)
// through the engine, as fencer check does.
func TestSemantics(t *testing.T) {
	sol, err := cegar.NewZ3Solver()
	if err != nil {
		t.Fatal(err)
	}
	defer sol.Close()
	for _, path := range files(t, "semantics") {
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		exps := expectRE.FindAllStringSubmatch(string(src), -1)
		if len(exps) == 0 {
			t.Fatalf("%s: no expectation", path)
		}
		for _, e := range exps {
			t.Run(filepath.Base(path)+"/"+e[1]+"/"+e[2], func(t *testing.T) {
				sys, err := Reader{}.Parse(filepath.Base(path), src)
				if err != nil {
					t.Fatal(err)
				}
				m := map[string]memmodel.Model{"sc": memmodel.SC, "tso": memmodel.TSO, "pso": memmodel.PSO}[e[1]]
				ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
				defer cancel()
				res, patched, err := cegar.Insert(ctx, sys, sol, cegar.Options{Model: m})
				if err != nil {
					t.Fatal(err)
				}
				switch {
				case e[2] == "bug":
					if res.Verdict != cegar.SCBug {
						t.Errorf("got %v, want an SC bug", res.Verdict)
					}
				case res.Verdict != cegar.Correct:
					t.Errorf("got %v (%s), want %s", res.Verdict, res.Reason, e[2])
				default:
					want := 0
					if e[2] != "safe" {
						want, _ = strconv.Atoi(e[2][len("fences="):])
					}
					if len(res.Fences) != want {
						t.Errorf("got %d fences, want %d", len(res.Fences), want)
					}
					if want == 0 {
						return
					}
					verifyPatched(ctx, t, Reader{}, filepath.Base(path), patched, sol, m)
				}
			})
		}
	}
}
