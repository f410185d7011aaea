package cegar

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"fencer/cs"
	"fencer/kabs"
)

// The differential suite: on generated loop-free programs the explicit
// checker is exact, so the abstract engine must agree with it on verdicts,
// on the minimum number of fences (found by brute force over subsets of
// sites) and on the safety of the patched program. FENCER_SOAK=1 runs many
// more programs; FENCER_SEED=N starts at seed N (to replay a failure).
func TestDifferential(t *testing.T) {
	n, first := 200, int64(1)
	if os.Getenv("FENCER_SOAK") != "" {
		n = 3000
	}
	if testing.Short() {
		n = 20
	}
	if s := os.Getenv("FENCER_SEED"); s != "" {
		v, err := strconv.ParseInt(s, 10, 64)
		if err != nil {
			t.Fatal(err)
		}
		first, n = v, 1
		if c := os.Getenv("FENCER_COUNT"); c != "" {
			n, _ = strconv.Atoi(c)
		}
	}
	sol, err := NewZ3Solver()
	if err != nil {
		t.Fatal(err)
	}
	defer sol.Close()
	counts := map[string]int{}
	start := time.Now()
	for seed := first; seed < first+int64(n); seed++ {
		src := genProgram(seed)
		sys, err := cs.Parse(fmt.Sprintf("gen%d.cs", seed), []byte(src))
		if err != nil {
			t.Fatalf("seed %d: generated program does not parse: %v\n%s", seed, err, src)
		}
		if msg := differential(sol, sys, counts, kabs.TSO, kabs.PSO); msg != "" {
			t.Errorf("seed %d (replay: FENCER_SEED=%d go test -run Differential ./cegar): %s\n%s", seed, seed, msg, src)
		}
	}
	t.Logf("%d programs in %v: %v", n, time.Since(start).Round(time.Millisecond), counts)
}

// debugLog prints the engine's refinement log when FENCER_DEBUG is set.
var debugLog = func(format string, args ...any) {
	if os.Getenv("FENCER_DEBUG") != "" {
		fmt.Printf(format+"\n", args...)
	}
}

// differential compares engine and oracle on one program under SC and the
// weak models given; "" means agreement.
func differential(sol Solver, sys *cs.System, counts map[string]int, weak ...kabs.Model) string {
	ctx := context.Background()
	oracle := map[kabs.Model]kabs.Verdict{}
	for _, m := range append([]kabs.Model{kabs.SC}, weak...) {
		r, err := kabs.NewConcrete(sys, m).Explore(ctx, kabs.Limits{MaxStates: 300_000})
		if err != nil {
			return "explicit checker: " + err.Error()
		}
		if r.Verdict == kabs.Bounded {
			counts["oracle bounded"]++
			return ""
		}
		oracle[m] = r.Verdict
		res, err := Verify(ctx, sys, sol, Options{Model: m, Log: debugLog})
		if err != nil {
			return fmt.Sprintf("verify %s: %v", m, err)
		}
		if res.Verdict == Unknown {
			return fmt.Sprintf("verify %s: unknown: %s", m, res.Reason)
		}
		if (res.Verdict == Correct) != (r.Verdict == kabs.Safe) {
			return fmt.Sprintf("verify %s: engine says %s, explicit checker %s", m, res.Verdict, r.Verdict)
		}
		if res.Trace != nil && len(res.Trace.Trace.Steps) != len(r.Trace.Steps) {
			return fmt.Sprintf("verify %s: engine trace of %d steps, the shortest has %d", m, len(res.Trace.Trace.Steps), len(r.Trace.Steps))
		}
		counts[m.String()+" verified"]++
	}
	for _, m := range weak {
		if msg := differentialInsert(sol, sys, m, oracle[kabs.SC] == kabs.Unsafe, counts); msg != "" {
			return msg
		}
	}
	return ""
}

// differentialInsert checks insert under m against brute force.
func differentialInsert(sol Solver, sys *cs.System, m kabs.Model, scBug bool, counts map[string]int) string {
	ctx := context.Background()
	res, patched, err := Insert(ctx, sys, sol, Options{Model: m, Log: debugLog})
	if err != nil {
		return fmt.Sprintf("insert %s: %v", m, err)
	}
	if scBug {
		if res.Verdict != SCBug {
			return fmt.Sprintf("insert %s: %s, want sc-bug", m, res.Verdict)
		}
		counts["sc bugs"]++
		return ""
	}
	if res.Verdict != Correct {
		return fmt.Sprintf("insert %s: %s (%s), want correct", m, res.Verdict, res.Reason)
	}
	min, ok := bruteForceMinimum(sys, m)
	if !ok {
		counts["brute force gave up"]++
		return ""
	}
	if len(res.Fences) != min {
		return fmt.Sprintf("insert %s: %d fences, brute force finds a minimum of %d", m, len(res.Fences), min)
	}
	psys, err := cs.Parse(sys.File.Name, patched)
	if err != nil {
		return "patched program does not parse: " + err.Error()
	}
	r, err := kabs.NewConcrete(psys, m).Explore(ctx, kabs.Limits{MaxStates: 300_000})
	if err != nil || r.Verdict != kabs.Safe {
		return fmt.Sprintf("patched program under %s per the explicit checker: %v %v", m, r.Verdict, err)
	}
	counts[fmt.Sprintf("%s fences=%d", m, min)]++
	return ""
}

// bruteForceMinimum finds the least number of fence sites that make sys safe
// under m by the explicit checker, trying subsets by increasing size.
func bruteForceMinimum(sys *cs.System, m kabs.Model) (int, bool) {
	n := len(sys.Sites)
	if n > 12 {
		return 0, false
	}
	for size := 0; size <= n; size++ {
		found, ok := false, true
		forSubsets(n, size, func(set map[int]bool) bool {
			r, err := kabs.NewConcrete(sys.WithFences(set), m).Explore(context.Background(), kabs.Limits{MaxStates: 300_000})
			if err != nil || r.Verdict == kabs.Bounded {
				ok = false
				return false
			}
			if r.Verdict == kabs.Safe {
				found = true
				return false
			}
			return true
		})
		if !ok {
			return 0, false
		}
		if found {
			return size, true
		}
	}
	return 0, false
}

// forSubsets calls f on each subset of {0..n-1} of the given size until f
// returns false.
func forSubsets(n, size int, f func(map[int]bool) bool) {
	var rec func(start int, set map[int]bool) bool
	rec = func(start int, set map[int]bool) bool {
		if len(set) == size {
			return f(set)
		}
		for i := start; i < n; i++ {
			set[i] = true
			if !rec(i+1, set) {
				return false
			}
			delete(set, i)
		}
		return true
	}
	rec(0, map[int]bool{})
}

// The loop-free benchmarks, where the explicit checker is exact: verdicts,
// shortest traces and minimum fence counts must agree under every model.
func TestBenchmarksAgainstOracle(t *testing.T) {
	sol, err := NewZ3Solver()
	if err != nil {
		t.Fatal(err)
	}
	defer sol.Close()
	counts := map[string]int{}
	for _, name := range []string{"sb", "sb_procs", "mp", "mp_array", "lb", "sc_bug", "spinlock_cas"} {
		sys, err := cs.ParseFile(filepath.Join("..", "benchmarks", name+".cs"))
		if err != nil {
			t.Fatal(err)
		}
		if msg := differential(sol, sys, counts, kabs.TSO, kabs.PSO); msg != "" {
			t.Errorf("%s: %s", name, msg)
		}
	}
	if counts["oracle bounded"] > 0 || counts["brute force gave up"] > 0 {
		t.Errorf("the oracle could not decide some benchmark: %v", counts)
	}
	t.Logf("%v", counts)
}
