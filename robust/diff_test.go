package robust

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"fencer/cs"
	"fencer/internal/progen"
	"fencer/memmodel"
)

// The differential suite. For every generated program that the analysis
// calls robust under TSO (resp. PSO), and for every generated program
// patched with its minimum robust fences, the explicit checker must reach
// under the model no combination of control locations and local values
// that it does not reach under SC: that is what "every run is equivalent to
// an SC run" promises. Programs whose state space the checker cannot
// exhaust within its bounds are skipped (counted). FENCER_SOAK=1 runs more
// programs; FENCER_SEED=N replays one.
func TestDifferentialRobust(t *testing.T) {
	n, first := 150, int64(1)
	if os.Getenv("FENCER_SOAK") != "" {
		n = 5000
	}
	if testing.Short() {
		n = 30
	}
	if s := os.Getenv("FENCER_SEED"); s != "" {
		v, err := strconv.ParseInt(s, 10, 64)
		if err != nil {
			t.Fatal(err)
		}
		first, n = v, 1
	}
	counts := map[string]int{}
	for seed := first; seed < first+int64(n); seed++ {
		src := progen.Accesses(seed)
		sys, err := cs.Parse(fmt.Sprintf("gen%d.cs", seed), []byte(src))
		if err != nil {
			t.Fatalf("seed %d: generated program does not parse: %v\n%s", seed, err, src)
		}
		for _, m := range []memmodel.Model{memmodel.TSO, memmodel.PSO} {
			an := Analyze(sys, m)
			if ok, _ := an.Robust(nil); ok {
				counts[m.String()+" robust"]++
				if msg := compareReach(sys, m, counts, 200_000); msg != "" {
					t.Errorf("seed %d (replay: FENCER_SEED=%d go test -run DifferentialRobust ./robust): robust under %s, but %s\n%s", seed, seed, m, msg, src)
				}
				continue
			}
			counts[m.String()+" not robust"]++
			fs, err := an.MinFences()
			if err != nil {
				t.Fatalf("seed %d: %v", seed, err)
			}
			fenced := map[int]bool{}
			for _, s := range fs.Sites {
				fenced[s] = true
			}
			fsys := sys.WithFences(fenced)
			if ok, p := Analyze(fsys, m).Robust(nil); !ok {
				t.Errorf("seed %d: not robust under %s with its robust fences %v: %s\n%s", seed, m, fs.Sites, Analyze(fsys, m).Describe(p.Cycle), src)
				continue
			}
			if msg := compareReach(fsys, m, counts, 200_000); msg != "" {
				t.Errorf("seed %d: patched with its robust fences %v under %s, %s\n%s", seed, fs.Sites, m, msg, src)
			}
		}
	}
	t.Logf("%d programs: %v", n, counts)
	// With -short (30 programs) and more, every kind is there (30: 21
	// robust and 14 not robust under PSO, 59 comparisons when this was
	// written); a replayed seed alone proves nothing about the generator.
	if n >= 30 && (counts["tso robust"] < n/10 || counts["pso not robust"] < n/10 || counts["compared"] < n/2) {
		t.Errorf("the generator gives too few programs of some kind: %v", counts)
	}
}

// compareReach returns "" when every (control, locals) reached under m is
// reached under SC, else a description of one that is not.
func compareReach(sys *cs.System, m memmodel.Model, counts map[string]int, maxStates int) string {
	ctx := context.Background()
	lim := memmodel.Limits{MaxStates: maxStates}
	sc, ok, err := memmodel.NewConcrete(sys, memmodel.SC).ReachSet(ctx, lim)
	if err != nil {
		return "explicit checker under SC: " + err.Error()
	}
	if !ok {
		counts["bounded"]++
		return ""
	}
	c := memmodel.NewConcrete(sys, m)
	weak, ok, err := c.ReachSet(ctx, lim)
	if err != nil {
		return "explicit checker: " + err.Error()
	}
	if !ok {
		counts["bounded"]++
		return ""
	}
	counts["compared"]++
	for k, s := range weak {
		if _, ok := sc[k]; !ok {
			return fmt.Sprintf("the explicit checker reaches %s under %s and not under SC", c.DescribeControl(s), m)
		}
	}
	return ""
}

// The oracle is not vacuous: on SB it finds a TSO-only state.
func TestCompareReachFindsSB(t *testing.T) {
	sys := parseSrc(t, `shared x, y;
process A { local r; x = 1; r = y; }
process B { local s; y = 1; s = x; }
`)
	if msg := compareReach(sys, memmodel.TSO, map[string]int{}, 1000); msg == "" {
		t.Fatal("no TSO-only state found on SB")
	}
}

// The same property on the benchmark programs: where the analysis says
// robust (or after its robust fences) and the explicit checker can explore
// the whole state space, no state under the model is missing under SC.
func TestBenchmarksReach(t *testing.T) {
	var files []string
	for _, pat := range []string{"*.cs", "regressions/*.cs", "litmus/*.cs"} {
		m, _ := filepath.Glob(filepath.Join("..", "benchmarks", pat))
		files = append(files, m...)
	}
	counts := map[string]int{}
	for _, f := range files {
		sys, err := cs.ParseFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range []memmodel.Model{memmodel.TSO, memmodel.PSO} {
			an := Analyze(sys, m)
			fs, err := an.MinFences()
			if err != nil {
				t.Fatal(err)
			}
			fenced := map[int]bool{}
			for _, s := range fs.Sites {
				fenced[s] = true
			}
			if msg := compareReach(sys.WithFences(fenced), m, counts, 30_000); msg != "" {
				t.Errorf("%s with its robust fences %v under %s: %s", f, fs.Sites, m, msg)
			}
		}
	}
	t.Logf("%d files: %v", len(files), counts)
	// 62 files, 116 (file, model) pairs explored to the end when this was
	// written: fewer means benchmarks vanished or the explicit checker
	// stopped ending on them, and the test would check little.
	if len(files) < 62 || counts["compared"] < 116 {
		t.Errorf("%d files, %d comparisons; want at least 62 and 116", len(files), counts["compared"])
	}
}
