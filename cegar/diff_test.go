package cegar

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"fencer/cs"
	"fencer/internal/progen"
	"fencer/internal/refsem"
	"fencer/memmodel"
)

// The differential suite. On generated finite-state programs two oracles
// are exact: the explicit checker (kabs, on the automata that cs builds)
// and the reference semantics (refsem, on the syntax tree, sharing no code
// with cs's lowering or the engine). Under SC, TSO and PSO the engine, the
// explicit checker and refsem must agree on the verdict; under TSO and PSO
// the engine's number of fences must be the minimum that brute force over
// subsets of fence sites (program points) finds with either oracle, and its patched program must
// be safe for both.
//
// The number of programs is diffCount: 500 by default, 5 with -short (make
// test runs that under the race detector), 10,000 with FENCER_SOAK=1 (make
// soak: hours), and FENCER_COUNT=N overrides all three.
// FENCER_SEED=N starts at seed N (with one program unless FENCER_COUNT
// says otherwise), to replay a failure.
//
// The engine gets programTimeout per program (60 s, FENCER_PROGRAM_TIMEOUT
// to change it; its calls together, the oracles' time not counted): a
// program it does not finish in time is a failure that names its seed, and
// the run goes on with the next one. The programs are
// run by diffWorkers goroutines (GOMAXPROCS, FENCER_WORKERS to change it),
// each with its own Z3 context (smt: one context per goroutine); results
// are reported in seed order, so the log reads as if they ran one by one.
func TestDifferential(t *testing.T) {
	defer lowParallelFrom()()
	n, first := diffCount(), int64(1)
	if s := os.Getenv("FENCER_SEED"); s != "" {
		v, err := strconv.ParseInt(s, 10, 64)
		if err != nil {
			t.Fatal(err)
		}
		first = v
		if os.Getenv("FENCER_COUNT") == "" {
			n = 1
		}
	}
	timeout, err := programTimeout()
	if err != nil {
		t.Fatal(err)
	}
	workers := min(diffWorkers(), n)
	type result struct {
		seed int64
		src  string
		msg  string
		st   *diffStats
		took time.Duration
	}
	seeds, results := make(chan int64), make(chan result)
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sol, _ := NewZ3Solver()
			defer func() { sol.Close() }()
			for seed := range seeds {
				src := progen.Program(seed)
				st := newDiffStats()
				t0 := time.Now()
				msg, timedOut := runProgram(sol, timeout, fmt.Sprintf("gen%d.cs", seed), []byte(src), st)
				if timedOut { // a fresh solver: nothing of the interrupted run stays
					sol.Close()
					sol, _ = NewZ3Solver()
				}
				results <- result{seed, src, msg, st, time.Since(t0)}
			}
		}()
	}
	go func() {
		for seed := first; seed < first+int64(n); seed++ {
			seeds <- seed
		}
		close(seeds)
		wg.Wait()
		close(results)
	}()
	st := newDiffStats()
	pending := map[int64]result{}
	next := first
	for r := range results {
		pending[r.seed] = r
		for {
			r, ok := pending[next]
			if !ok {
				break
			}
			delete(pending, next)
			next++
			st.merge(r.st)
			if r.msg != "" {
				t.Errorf("seed %d (replay: FENCER_SEED=%d go test -run 'TestDifferential$' ./cegar): %s\n%s", r.seed, r.seed, r.msg, r.src)
			}
			if r.took > time.Minute {
				t.Logf("seed %d took %v (engine: %v)", r.seed, r.took.Round(time.Second), r.st.time["engine"].Round(time.Second))
			}
			if st.programs%50 == 0 && st.programs < n {
				t.Logf("so far: %s", st.summary())
			}
		}
	}
	t.Log(st.summary())
}

// runProgram runs differential on one program under SC, TSO and PSO with
// timeout for the engine's calls together (the oracles' time does not
// count: they are bounded by their state limits), and says whether the
// engine ran out of time.
func runProgram(sol *Z3Solver, timeout time.Duration, name string, src []byte, st *diffStats) (string, bool) {
	clock := &engineClock{sol: sol, left: timeout}
	msg := differential(clock, sol, name, src, st, memmodel.TSO, memmodel.PSO)
	if msg != "" && clock.out {
		st.timeouts++
		return fmt.Sprintf("engine time limit of %v reached (FENCER_PROGRAM_TIMEOUT): %s", timeout, msg), true
	}
	return msg, false
}

// engineClock bounds the time the engine spends on one program: each call
// gets what is left of the budget. A nil clock sets no limit.
type engineClock struct {
	sol  *Z3Solver // interrupted when a call runs out of time
	left time.Duration
	out  bool // a call ran out of time
}

// run calls f with a context that ends when the budget is spent.
func (c *engineClock) run(f func(ctx context.Context)) {
	if c == nil {
		f(context.Background())
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), max(c.left, 0))
	defer cancel()
	stop := c.sol.InterruptOn(ctx)
	defer stop()
	t0 := time.Now()
	f(ctx)
	c.left -= time.Since(t0)
	if ctx.Err() != nil {
		c.out = true
	}
}

// programTimeout is the engine's time limit per generated program.
func programTimeout() (time.Duration, error) {
	s := os.Getenv("FENCER_PROGRAM_TIMEOUT")
	if s == "" {
		return time.Minute, nil
	}
	d, err := time.ParseDuration(s)
	if err != nil || d <= 0 {
		return 0, fmt.Errorf("FENCER_PROGRAM_TIMEOUT=%q: want a positive duration such as 90s", s)
	}
	return d, nil
}

// diffWorkers is the number of goroutines that run programs.
func diffWorkers() int {
	if v, err := strconv.Atoi(os.Getenv("FENCER_WORKERS")); err == nil && v > 0 {
		return v
	}
	return runtime.GOMAXPROCS(0)
}

// diffCount is the number of generated programs of one run.
func diffCount() int {
	n := 500
	if testing.Short() {
		n = 5
	}
	if os.Getenv("FENCER_SOAK") != "" {
		n = 10_000
	}
	if c := os.Getenv("FENCER_COUNT"); c != "" {
		if v, err := strconv.Atoi(c); err == nil && v > 0 {
			n = v
		}
	}
	return n
}

// debugLog prints the engine's refinement log when FENCER_DEBUG is set.
var debugLog = func(format string, args ...any) {
	if os.Getenv("FENCER_DEBUG") != "" {
		fmt.Printf(format+"\n", args...)
	}
}

// oracleLimit bounds both oracles; generated programs stay far below it.
const oracleLimit = 300_000

// engineWorkers is the number of goroutines of each engine run (parallel.go):
// two, from levels of one state on, so that the oracles check the parallel
// expansion (TestWorkersSameRun checks that it explores what one goroutine
// does); FENCER_ENGINE_WORKERS=1 checks the expansion without the
// pipeline (batches of states, reach.go) instead.
func engineWorkers() int {
	if v, err := strconv.Atoi(os.Getenv("FENCER_ENGINE_WORKERS")); err == nil && v > 0 {
		return v
	}
	return 2
}

// diffStats are the counts the suite prints at the end. Each program fills
// its own, merged into the run's in seed order.
type diffStats struct {
	start     time.Time
	programs  int
	agreed    map[string]int    // programs where all three agreed, per model
	fences    map[string][4]int // per weak model: programs needing 0, 1, 2, 3+ fences
	scBugs    int
	timeouts  int                      // programs the engine did not finish in time
	kinds     int                      // programs whose --kinds full,store answer was checked
	storeUsed int                      // of those, answers with a store fence
	undecided map[string]int           // why a program could not be compared
	time      map[string]time.Duration // spent in the engine, kabs and refsem (summed over workers)
}

// merge adds the counts of o to s.
func (s *diffStats) merge(o *diffStats) {
	s.programs += o.programs
	s.scBugs += o.scBugs
	s.timeouts += o.timeouts
	s.kinds += o.kinds
	s.storeUsed += o.storeUsed
	for k, v := range o.agreed {
		s.agreed[k] += v
	}
	for k, v := range o.fences {
		f := s.fences[k]
		for i := range f {
			f[i] += v[i]
		}
		s.fences[k] = f
	}
	for k, v := range o.undecided {
		s.undecided[k] += v
	}
	for k, v := range o.time {
		s.time[k] += v
	}
}

// timed adds the time f takes to s.time[what].
func (s *diffStats) timed(what string, f func()) {
	t := time.Now()
	f()
	s.time[what] += time.Since(t)
}

func newDiffStats() *diffStats {
	return &diffStats{start: time.Now(), agreed: map[string]int{}, fences: map[string][4]int{}, undecided: map[string]int{}, time: map[string]time.Duration{}}
}

func (s *diffStats) summary() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%d programs in %v; agreement per model:", s.programs, time.Since(s.start).Round(time.Millisecond))
	for _, m := range []string{"sc", "tso", "pso"} {
		fmt.Fprintf(&b, " %s %d", m, s.agreed[m])
	}
	fmt.Fprintf(&b, "; SC bugs %d (%.0f%%)", s.scBugs, pct(s.scBugs, s.programs))
	for _, m := range []string{"tso", "pso"} {
		f := s.fences[m]
		need := f[1] + f[2] + f[3]
		fmt.Fprintf(&b, "; %s fences 0/1/2/3+: %d/%d/%d/%d (need fences: %.0f%%)", m, f[0], f[1], f[2], f[3], pct(need, s.programs))
	}
	fmt.Fprintf(&b, "; pso --kinds full,store checked %d (store fences used in %d)", s.kinds, s.storeUsed)
	if s.timeouts > 0 {
		fmt.Fprintf(&b, "; engine timeouts %d", s.timeouts)
	}
	fmt.Fprintf(&b, "; time (summed over workers): engine %v, explicit checker %v, refsem %v", s.time["engine"].Round(time.Millisecond), s.time["kabs"].Round(time.Millisecond), s.time["refsem"].Round(time.Millisecond))
	if len(s.undecided) > 0 {
		var keys []string
		for k := range s.undecided {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		b.WriteString("; not compared:")
		for _, k := range keys {
			fmt.Fprintf(&b, " %s %d", k, s.undecided[k])
		}
	}
	return b.String()
}

func pct(a, b int) float64 {
	if b == 0 {
		return 0
	}
	return 100 * float64(a) / float64(b)
}

// refModel maps a kabs model to refsem's.
func refModel(m memmodel.Model) refsem.Model {
	switch m {
	case memmodel.TSO:
		return refsem.TSO
	case memmodel.PSO:
		return refsem.PSO
	}
	return refsem.SC
}

// differential compares the engine and both oracles on one program under SC
// and the weak models given; "" means agreement. clock bounds the engine
// only.
func differential(clock *engineClock, sol Solver, name string, src []byte, st *diffStats, weak ...memmodel.Model) string {
	oracle := context.Background()
	st.programs++
	sys, err := cs.Parse(name, src)
	if err != nil {
		return "does not parse: " + err.Error()
	}
	ref, err := refsem.Compile(name, src)
	if err != nil {
		return "refsem does not compile it: " + err.Error()
	}
	if msg := sameSites(sys, ref); msg != "" {
		return msg
	}
	refBad := map[memmodel.Model]bool{}
	for _, m := range append([]memmodel.Model{memmodel.SC}, weak...) {
		var rr refsem.Result
		st.timed("refsem", func() { rr, err = ref.Run(refModel(m), refsem.Options{MaxStates: oracleLimit}) })
		if err != nil {
			return fmt.Sprintf("refsem %s: %v", m, err)
		}
		if !rr.Complete {
			st.undecided["refsem bounded"]++
			return ""
		}
		var r *memmodel.Result
		st.timed("kabs", func() { r, err = memmodel.NewConcrete(sys, m).Explore(oracle, memmodel.Limits{MaxStates: oracleLimit}) })
		if err != nil {
			return "explicit checker: " + err.Error()
		}
		if r.Verdict == memmodel.Bounded {
			st.undecided["explicit checker bounded"]++
			return ""
		}
		if (r.Verdict == memmodel.Unsafe) != rr.Bad {
			return fmt.Sprintf("%s: explicit checker says %s, refsem says bad=%v\nrefsem trace:\n  %s", m, r.Verdict, rr.Bad, strings.Join(rr.Trace, "\n  "))
		}
		refBad[m] = rr.Bad
		var res *Result
		st.timed("engine", func() {
			clock.run(func(ctx context.Context) {
				res, err = Verify(ctx, sys, sol, Options{Model: m, Log: debugLog, Workers: engineWorkers()})
			})
		})
		if err != nil {
			return fmt.Sprintf("verify %s: %v", m, err)
		}
		if res.Verdict == Unknown {
			return fmt.Sprintf("verify %s: unknown: %s", m, res.Reason)
		}
		if (res.Verdict != Correct) != rr.Bad {
			return fmt.Sprintf("verify %s: engine says %s, refsem bad=%v\nrefsem trace:\n  %s", m, res.Verdict, rr.Bad, strings.Join(rr.Trace, "\n  "))
		}
		if res.Trace != nil {
			if msg := realTrace(sys, m, res.Trace, len(r.Trace.Steps)); msg != "" {
				return "verify " + m.String() + ": " + msg
			}
		}
	}
	if refBad[memmodel.SC] {
		st.scBugs++
	}
	for _, m := range weak {
		if msg := differentialInsert(clock, sol, sys, ref, m, refBad[memmodel.SC], st); msg != "" {
			return msg
		}
	}
	for _, m := range append([]memmodel.Model{memmodel.SC}, weak...) {
		st.agreed[m.String()]++
	}
	return ""
}

// sameSites checks that cs and refsem see the same fence sites: the same
// program points, each computed by both from the syntax tree on its own.
func sameSites(sys *cs.System, ref *refsem.Program) string {
	var a, b []string
	for _, s := range sys.Sites {
		a = append(a, keyString(refKey(s)))
	}
	for _, s := range ref.Sites() {
		b = append(b, keyString(s.Key))
	}
	sort.Strings(a)
	sort.Strings(b)
	if strings.Join(a, ",") != strings.Join(b, ",") {
		return fmt.Sprintf("fence sites %v (cs) and %v (refsem)", a, b)
	}
	return ""
}

// refKey is refsem's name for the site s of cs.
func refKey(s *cs.Site) refsem.SiteKey {
	return refsem.SiteKey{Start: s.Start, End: s.End, Before: s.Place == cs.Before, Bare: s.BareBody}
}

func keyString(k refsem.SiteKey) string {
	side := "after"
	if k.Before {
		side = "before"
	}
	if k.Bare {
		side += "-bare"
	}
	return fmt.Sprintf("%s[%d,%d)", side, k.Start, k.End)
}

// differentialInsert checks insert under m against brute force with both
// oracles; clock bounds the engine.
func differentialInsert(clock *engineClock, sol Solver, sys *cs.System, ref *refsem.Program, m memmodel.Model, scBug bool, st *diffStats) string {
	var (
		res     *Result
		patched []byte
		err     error
	)
	st.timed("engine", func() {
		clock.run(func(ctx context.Context) {
			res, patched, err = Insert(ctx, sys, sol, Options{Model: m, Log: debugLog, Workers: engineWorkers()})
		})
	})
	if err != nil {
		return fmt.Sprintf("insert %s: %v", m, err)
	}
	if scBug {
		if res.Verdict != SCBug {
			return fmt.Sprintf("insert %s: %s, want sc-bug", m, res.Verdict)
		}
		return ""
	}
	if res.Verdict != Correct {
		return fmt.Sprintf("insert %s: %s (%s), want correct", m, res.Verdict, res.Reason)
	}
	var (
		refMin []refsem.SiteKey
		ok     bool
	)
	st.timed("refsem", func() { refMin, ok, err = ref.MinFences(refModel(m), oracleLimit, maxBruteSites) })
	if err != nil {
		return fmt.Sprintf("refsem brute force %s: %v", m, err)
	}
	if !ok {
		st.undecided["refsem brute force gave up"]++
		return ""
	}
	var min int
	st.timed("kabs", func() { min, ok = bruteForceMinimum(sys, m) })
	if !ok {
		st.undecided["explicit brute force gave up"]++
		return ""
	}
	if min != len(refMin) {
		return fmt.Sprintf("brute force under %s: %d fences with the explicit checker, %d with refsem (at %v)", m, min, len(refMin), refMin)
	}
	if len(res.Fences) != min {
		return fmt.Sprintf("insert %s: %d fences, brute force finds a minimum of %d (refsem: at %v)", m, len(res.Fences), min, refMin)
	}
	// The engine's sites, named as refsem names them, make the program
	// safe for refsem...
	chosen := map[refsem.SiteKey]bool{}
	for _, f := range res.Fences {
		chosen[refKey(f.Site)] = true
	}
	rr, err := ref.Run(refModel(m), refsem.Options{Fences: chosen, MaxStates: oracleLimit})
	if err != nil || rr.Bad || !rr.Complete {
		return fmt.Sprintf("the engine's fences under %s per refsem: bad=%v complete=%v %v\n  %s", m, rr.Bad, rr.Complete, err, strings.Join(rr.Trace, "\n  "))
	}
	// ...and so does the patched text, for both oracles.
	psys, err := cs.Parse(sys.File.Name, patched)
	if err != nil {
		return "patched program does not parse: " + err.Error()
	}
	r, err := memmodel.NewConcrete(psys, m).Explore(context.Background(), memmodel.Limits{MaxStates: oracleLimit})
	if err != nil || r.Verdict != memmodel.Safe {
		return fmt.Sprintf("patched program under %s per the explicit checker: %v %v", m, r.Verdict, err)
	}
	pref, err := refsem.Compile(sys.File.Name, patched)
	if err != nil {
		return "patched program does not compile in refsem: " + err.Error()
	}
	rr, err = pref.Run(refModel(m), refsem.Options{MaxStates: oracleLimit})
	if err != nil || rr.Bad || !rr.Complete {
		return fmt.Sprintf("patched program under %s per refsem: bad=%v complete=%v %v\n%s", m, rr.Bad, rr.Complete, err, patched)
	}
	if m == memmodel.PSO && min > 0 {
		if msg := differentialKinds(clock, sol, sys, ref, st); msg != "" {
			return msg
		}
	}
	f := st.fences[m.String()]
	f[min3(min)]++
	st.fences[m.String()] = f
	return ""
}

func min3(n int) int {
	if n > 3 {
		return 3
	}
	return n
}

// bruteForceMinimum finds the least number of fence sites that make sys safe
// under m by the explicit checker, trying subsets by increasing size.
func bruteForceMinimum(sys *cs.System, m memmodel.Model) (int, bool) {
	sites := distinctSites(sys)
	n := len(sites)
	if n > maxBruteSites {
		return 0, false
	}
	for size := 0; size <= n; size++ {
		found, ok := false, true
		forSubsets(n, size, func(set map[int]bool) bool {
			fenced := map[int]bool{}
			for i := range set {
				fenced[sites[i]] = true
			}
			r, err := memmodel.NewConcrete(sys.WithFences(fenced), m).Explore(context.Background(), memmodel.Limits{MaxStates: oracleLimit})
			if err != nil || r.Verdict == memmodel.Bounded {
				ok = false
				return false
			}
			if r.Verdict == memmodel.Safe {
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

// differentialKinds checks insert --kinds full,store under PSO against brute
// force over full and store fences with both oracles: the fewest fences,
// then the fewest full ones; and its patched program is safe for both.
func differentialKinds(clock *engineClock, sol Solver, sys *cs.System, ref *refsem.Program, st *diffStats) string {
	var (
		res     *Result
		patched []byte
		err     error
	)
	st.timed("engine", func() {
		clock.run(func(ctx context.Context) {
			res, patched, err = Insert(ctx, sys, sol, Options{Model: memmodel.PSO, StoreFences: true, Log: debugLog, Workers: engineWorkers()})
		})
	})
	if err != nil {
		return "insert --kinds full,store: " + err.Error()
	}
	if res.Verdict != Correct {
		st.undecided["kinds: engine "+res.Verdict.String()]++
		return ""
	}
	full := 0
	for _, f := range res.Fences {
		if f.Kind != cs.StoreFence {
			full++
		}
	}
	var (
		n, nFull int
		ok       bool
	)
	st.timed("kabs", func() { n, nFull, ok = bruteForceKinds(sys, memmodel.PSO) })
	if !ok {
		st.undecided["kinds: explicit brute force gave up"]++
		return ""
	}
	var rf, rs []refsem.SiteKey
	st.timed("refsem", func() { rf, rs, ok, err = ref.MinFencesKinds(refsem.PSO, oracleLimit, maxKindsSites, true) })
	if err != nil {
		return "refsem kinds brute force: " + err.Error()
	}
	if !ok {
		st.undecided["kinds: refsem brute force gave up"]++
		return ""
	}
	if len(rf)+len(rs) != n || len(rf) != nFull {
		return fmt.Sprintf("kinds brute force under pso: %d fences (%d full) with the explicit checker, %d (%d full) with refsem", n, nFull, len(rf)+len(rs), len(rf))
	}
	if len(res.Fences) != n || full != nFull {
		return fmt.Sprintf("insert --kinds full,store under pso: %d fences (%d full), brute force finds %d (%d full)", len(res.Fences), full, n, nFull)
	}
	psys, err := cs.Parse(sys.File.Name, patched)
	if err != nil {
		return "kinds: patched program does not parse: " + err.Error()
	}
	r, err := memmodel.NewConcrete(psys, memmodel.PSO).Explore(context.Background(), memmodel.Limits{MaxStates: oracleLimit})
	if err != nil || r.Verdict != memmodel.Safe {
		return fmt.Sprintf("kinds: patched program per the explicit checker: %v %v\n%s", r.Verdict, err, patched)
	}
	pref, err := refsem.Compile(sys.File.Name, patched)
	if err != nil {
		return "kinds: patched program does not compile in refsem: " + err.Error()
	}
	rr, err := pref.Run(refsem.PSO, refsem.Options{MaxStates: oracleLimit})
	if err != nil || rr.Bad || !rr.Complete {
		return fmt.Sprintf("kinds: patched program per refsem: bad=%v complete=%v %v\n%s", rr.Bad, rr.Complete, err, patched)
	}
	st.kinds++
	if nFull < n {
		st.storeUsed++
	}
	return ""
}

// bruteForceKinds is bruteForceMinimum over full and store fences: the
// fewest fences and, among those, the fewest full ones.
func bruteForceKinds(sys *cs.System, m memmodel.Model) (n, nFull int, ok bool) {
	sites := distinctSites(sys)
	nc := len(sites)
	if 2*nc > maxKindsSites {
		return 0, 0, false
	}
	for size := 0; size <= 2*nc; size++ {
		best, ok := -1, true
		forSubsets(2*nc, size, func(set map[int]bool) bool {
			full, kinds := map[int]bool{}, map[int]cs.FenceKind{}
			for i := range set {
				if i >= nc {
					kinds[sites[i-nc]] = cs.StoreFence
				}
			}
			for i := range set {
				if i < nc {
					full[sites[i]] = true
					kinds[sites[i]] = cs.FullFence
				}
			}
			if best >= 0 && len(full) >= best {
				return true
			}
			r, err := memmodel.NewConcrete(sys.WithFenceKinds(kinds), m).Explore(context.Background(), memmodel.Limits{MaxStates: oracleLimit})
			if err != nil || r.Verdict == memmodel.Bounded {
				ok = false
				return false
			}
			if r.Verdict == memmodel.Safe {
				best = len(full)
				return best > 0
			}
			return true
		})
		if !ok {
			return 0, 0, false
		}
		if best >= 0 {
			return size, best, true
		}
	}
	return 0, 0, false
}

// distinctSites returns one site per class of sites with the same fence
// (the same edges pass them, so WithFences gives the same system), leaving
// out the sites passed only on the way to the end of a process (a location
// with no step: bad states only look at locations a process stops at, so
// a fence there never helps).
func distinctSites(sys *cs.System) []int {
	pass := make([][]string, len(sys.Sites))
	useful := make([]bool, len(sys.Sites))
	for pi, p := range sys.Procs {
		for ei, e := range p.Edges {
			for _, id := range e.Points {
				pass[id] = append(pass[id], fmt.Sprintf("%d:%d", pi, ei))
				if len(p.Out[e.To]) > 0 {
					useful[id] = true
				}
			}
		}
	}
	seen := map[string]bool{}
	var out []int
	for id := range sys.Sites {
		k := strings.Join(pass[id], ",")
		if useful[id] && !seen[k] {
			seen[k] = true
			out = append(out, id)
		}
	}
	return out
}

// maxBruteSites bounds the fence sites (program points) of a program whose
// minimum both oracles find by brute force over subsets.
const maxBruteSites = 40

// maxKindsSites bounds the elements (sites × kinds) of the brute force with
// store fences, which tries many more subsets: past it a program's
// --kinds answer is not compared (counted as undecided).
const maxKindsSites = 16

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

// The loop-free benchmarks and the label regressions, where both oracles
// are exact: verdicts, shortest traces and minimum fence counts must agree
// under every model.
func TestBenchmarksAgainstOracle(t *testing.T) {
	sol := newSolver(t)
	files, _ := filepath.Glob(filepath.Join("..", "benchmarks", "regressions", "*label*.cs"))
	for _, name := range []string{"sb", "sb_procs", "mp", "mp_array", "lb", "sc_bug", "spinlock_cas"} {
		files = append(files, filepath.Join("..", "benchmarks", name+".cs"))
	}
	st := newDiffStats()
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if msg := differential(nil, sol, f, src, st, memmodel.TSO, memmodel.PSO); msg != "" {
			t.Errorf("%s: %s", f, msg)
		}
	}
	if len(st.undecided) > 0 {
		t.Errorf("an oracle could not decide some program: %v", st.undecided)
	}
	t.Log(st.summary())
}

// The generator must produce what the suite needs: programs that parse,
// that both oracles decide, and a useful mix of verdicts (fewer than half
// SC bugs, more than a quarter needing fences). Measured with refsem
// alone, so it is fast.
func TestGeneratorShares(t *testing.T) {
	n := 300
	if testing.Short() {
		n = 100
	}
	var scBugs, needTSO, needPSO int
	for seed := int64(1); seed <= int64(n); seed++ {
		src := progen.Program(seed)
		p, err := refsem.Compile("gen.cs", []byte(src))
		if err != nil {
			t.Fatalf("seed %d: %v\n%s", seed, err, src)
		}
		res := map[refsem.Model]refsem.Result{}
		for _, m := range []refsem.Model{refsem.SC, refsem.TSO, refsem.PSO} {
			r, err := p.Run(m, refsem.Options{MaxStates: oracleLimit})
			if err != nil || !r.Complete {
				t.Fatalf("seed %d: %s: not decided (%v, %+v)\n%s", seed, m, err, r, src)
			}
			res[m] = r
		}
		switch {
		case res[refsem.SC].Bad:
			scBugs++
		case res[refsem.TSO].Bad:
			needTSO++
			needPSO++
		case res[refsem.PSO].Bad:
			needPSO++
		}
	}
	t.Logf("%d programs: SC bugs %.0f%%, need fences under TSO %.0f%%, under PSO %.0f%%",
		n, pct(scBugs, n), pct(needTSO, n), pct(needPSO, n))
	if 2*scBugs >= n {
		t.Errorf("%d of %d programs are SC bugs: not under half", scBugs, n)
	}
	if 4*needTSO <= n || 4*needPSO <= n {
		t.Errorf("too few programs need fences: TSO %d, PSO %d of %d", needTSO, needPSO, n)
	}
}

// realTrace checks the engine's trace with the explicit checker: replayed
// from the start in a checker of its own, it is a real execution of sys
// under m that ends in a bad state, and it is no shorter than the shortest
// one the checker's breadth-first search found. The partial-order reduction
// may make it longer than the shortest (doc.go), so its length is not
// compared for equality; TestReductionTraces does that with the reduction
// off.
func realTrace(sys *cs.System, m memmodel.Model, w *Witness, shortest int) string {
	c := memmodel.NewConcrete(sys, m)
	states, err := c.Replay(w.Trace)
	if err != nil {
		return "the engine's trace does not replay in the explicit checker: " + err.Error()
	}
	if !c.IsBadState(states[len(states)-1]) {
		return "the engine's trace does not end in a bad state"
	}
	if len(w.Trace.Steps) < shortest {
		return fmt.Sprintf("engine trace of %d steps, shorter than the checker's shortest (%d)", len(w.Trace.Steps), shortest)
	}
	return ""
}
