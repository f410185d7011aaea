package smt

import (
	"bufio"
	"fmt"
	"math/rand/v2"
	"os"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	. "fencer/expr"
)

// benchProblem is the workload of the Check benchmarks: a satisfiable
// conjunction of 10 atoms over 10 variables (the prefix, asserted once) and
// 64 atoms to check under it, negated (prefix ∧ ¬π is Unsat when the prefix
// implies π).
type benchProblem struct {
	prefix Expr
	preds  []Expr
	negs   []Expr
}

func newBenchProblem(seed uint64) benchProblem {
	r := rand.New(rand.NewPCG(seed, 7))
	vars := make([]Expr, 10)
	point := make([]int64, 10)
	for i := range vars {
		vars[i] = V(fmt.Sprintf("v%d", i))
		point[i] = int64(r.IntN(21) - 10)
	}
	type lin struct {
		coef  [10]int64
		bound int64 // Σ coef·v <= bound
	}
	expr := func(l lin) Expr {
		var sum Expr = Zero
		for j, c := range l.coef {
			if c != 0 {
				sum = Add(sum, Mul(N(c), vars[j]))
			}
		}
		return Le(sum, N(l.bound))
	}
	// random is an atom over 3 variables that holds at the point with the
	// given slack (a negative slack makes it false there).
	random := func(slack int64) lin {
		var l lin
		for _, j := range r.Perm(10)[:3] {
			c := int64(r.IntN(3) + 1)
			if r.IntN(2) == 0 {
				c = -c
			}
			l.coef[j] = c
			l.bound += c * point[j]
		}
		l.bound += slack
		return l
	}
	var p benchProblem
	var prefix []lin
	var conj []Expr
	for i := 0; i < 10; i++ {
		l := random(int64(r.IntN(4)))
		prefix = append(prefix, l)
		conj = append(conj, expr(l))
	}
	p.prefix = And(conj...)
	for i := 0; i < 64; i++ {
		var l lin
		if i%2 == 0 {
			// The sum of two prefix atoms, loosened or tightened a little:
			// implied by the prefix when loosened.
			a, b := prefix[r.IntN(10)], prefix[r.IntN(10)]
			for j := range l.coef {
				l.coef[j] = a.coef[j] + b.coef[j]
			}
			l.bound = a.bound + b.bound + int64(r.IntN(5)-2)
		} else {
			l = random(int64(r.IntN(11) - 5))
		}
		pi := expr(l)
		p.preds = append(p.preds, pi)
		p.negs = append(p.negs, Not(pi))
	}
	return p
}

// cpuNow returns the CPU time (user + system) of the process so far: on a
// shared machine it measures the cost of a query better than wall time.
func cpuNow() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// start resets the timer and returns the CPU time at that moment.
func start(b *testing.B) time.Duration {
	b.ResetTimer()
	return cpuNow()
}

func reportQPS(b *testing.B, nsat int, cpu0 time.Duration) {
	cpu := cpuNow() - cpu0
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "queries/s")
	b.ReportMetric(float64(cpu.Nanoseconds())/float64(b.N), "cpu-ns/query")
	b.ReportMetric(float64(nsat)/float64(b.N), "sat/query")
}

// BenchmarkCheck: push, assert ¬π, check, pop through the binding, with the
// prefix asserted once in one long-lived solver.
func BenchmarkCheck(b *testing.B) {
	p := newBenchProblem(1)
	c := newCtx(b)
	s, _ := c.NewSolver()
	defer s.Close()
	if err := s.Assert(p.prefix); err != nil {
		b.Fatal(err)
	}
	nsat := 0
	cpu0 := start(b)
	for i := 0; i < b.N; i++ {
		s.Push()
		s.Assert(p.negs[i%len(p.negs)])
		r, err := s.Check()
		if err != nil {
			b.Fatal(err)
		}
		s.Pop()
		if r == Sat {
			nsat++
		}
	}
	reportQPS(b, nsat, cpu0)
}

// BenchmarkCheckWith is BenchmarkCheck with the fused CheckWith.
func BenchmarkCheckWith(b *testing.B) {
	p := newBenchProblem(1)
	c := newCtx(b)
	s, _ := c.NewSolver()
	defer s.Close()
	s.Assert(p.prefix)
	nsat := 0
	cpu0 := start(b)
	for i := 0; i < b.N; i++ {
		r, err := s.CheckWith(p.negs[i%len(p.negs)])
		if err != nil {
			b.Fatal(err)
		}
		if r == Sat {
			nsat++
		}
	}
	reportQPS(b, nsat, cpu0)
}

// BenchmarkCheckFreshNot builds ¬π anew for every query, so the binding
// converts one node each time (π itself is cached).
func BenchmarkCheckFreshNot(b *testing.B) {
	p := newBenchProblem(1)
	c := newCtx(b)
	s, _ := c.NewSolver()
	defer s.Close()
	s.Assert(p.prefix)
	nsat := 0
	cpu0 := start(b)
	for i := 0; i < b.N; i++ {
		r, err := s.CheckWith(Not(p.preds[i%len(p.preds)]))
		if err != nil {
			b.Fatal(err)
		}
		if r == Sat {
			nsat++
		}
	}
	reportQPS(b, nsat, cpu0)
}

// BenchmarkCheckRawC runs the loop of BenchmarkCheck in C against the Z3
// API (z3shim.c: shim_bench_loop) on the same terms: the cost without the
// binding (no Go, no timeout, no error handling beyond the error code).
func BenchmarkCheckRawC(b *testing.B) {
	p := newBenchProblem(1)
	c := newCtx(b)
	var cpu0 time.Duration
	nsat, err := c.rawLoop(p.prefix, p.negs, int64(b.N), func() { cpu0 = start(b) })
	if err != nil {
		b.Fatal(err)
	}
	reportQPS(b, int(nsat), cpu0)
}

// BenchmarkCheckRawCPerQuery is BenchmarkCheckRawC with one cgo call per
// query (the C loop run for one iteration): the cost of crossing into C for
// a call of tens of microseconds, without any logic of the binding.
func BenchmarkCheckRawCPerQuery(b *testing.B) {
	p := newBenchProblem(1)
	c := newCtx(b)
	var cpu0 time.Duration
	nsat, err := c.rawPerCall(p.prefix, p.negs, int64(b.N), false, func() { cpu0 = start(b) })
	if err != nil {
		b.Fatal(err)
	}
	reportQPS(b, int(nsat), cpu0)
}

// BenchmarkOverhead measures what the binding adds to a query besides Z3:
// the cache lookup of a converted formula and the timeout guard.
func BenchmarkOverhead(b *testing.B) {
	p := newBenchProblem(1)
	c := newCtx(b)
	c.terms(p.negs...)
	cpu0 := start(b)
	for i := 0; i < b.N; i++ {
		if _, err := c.terms(p.negs[i%len(p.negs)]); err != nil {
			b.Fatal(err)
		}
		c.g.begin(c.timeout)
		c.g.end()
	}
	b.ReportMetric(float64((cpuNow()-cpu0).Nanoseconds())/float64(b.N), "cpu-ns/op")
}

// BenchmarkConvert converts a 10-atom conjunction that is not cached (117
// nodes as a tree; the cache is cleared before each conversion, which is
// included).
func BenchmarkConvert(b *testing.B) {
	c := newCtx(b)
	var fs []Expr
	for i := 0; i < 64; i++ {
		fs = append(fs, newBenchProblem(uint64(i)).prefix)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		c.ClearCache()
		if _, err := c.terms(fs[i%len(fs)]); err != nil {
			b.Fatal(err)
		}
	}
}

// rssKB returns VmRSS of the process in kB.
func rssKB(t testing.TB) int64 {
	f, err := os.Open("/proc/self/status")
	if err != nil {
		t.Skip("no /proc/self/status")
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if rest, ok := strings.CutPrefix(sc.Text(), "VmRSS:"); ok {
			v, _ := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(rest), "kB")), 10, 64)
			return v
		}
	}
	t.Skip("no VmRSS")
	return 0
}

// TestLeak runs a mixed workload of queries that build fresh expressions
// (so the term cache fills and empties), take models, open and close (or
// abandon) solvers and interpolate now and then, and watches the resident
// set size. With FENCER_LEAKTEST=1 it runs 100,000 queries and asserts that
// the RSS stays flat; otherwise 5,000 queries and only reports.
func TestLeak(t *testing.T) {
	n, full := 5_000, os.Getenv("FENCER_LEAKTEST") == "1"
	if full {
		n = 100_000
	}
	p := newBenchProblem(3)
	c := newCtx(t)
	s, _ := c.NewSolver()
	s.Assert(p.prefix)
	r := rand.New(rand.NewPCG(5, 5))
	var raw, trimmed, z3 []int64
	sample := func() {
		runtime.GC()
		debug.FreeOSMemory()
		raw = append(raw, rssKB(t))
		mallocTrim()
		trimmed = append(trimmed, rssKB(t))
		z3b, _, _ := memStats()
		z3 = append(z3, int64(z3b/1024))
	}
	sample()
	for i := 1; i <= n; i++ {
		v := V(fmt.Sprintf("v%d", r.IntN(10)))
		f := Le(Add(Mul(N(int64(r.IntN(5)+1)), v), N(int64(r.IntN(1000)))), N(int64(r.IntN(1000)))) // fresh nodes
		switch {
		case i%1000 == 0:
			if _, res, err := c.Interpolate(counterTrace(), 0); res != Unsat {
				t.Fatal(res, err)
			}
		case i%100 == 0: // a short-lived solver, closed or abandoned
			s2, err := c.NewSolver()
			if err != nil {
				t.Fatal(err)
			}
			s2.Assert(p.prefix, f)
			s2.Check()
			if i%200 == 0 {
				s2.Close()
			}
		case i%10 == 0:
			s.Push()
			s.Assert(f)
			if res, err := s.Check(); res == Sat {
				m, err := s.Model()
				if err != nil {
					t.Fatal(err)
				}
				m.Eval(Add(v, N(1)))
			} else if err != nil {
				t.Fatal(err)
			}
			s.Pop()
		default:
			if _, err := s.CheckWith(f); err != nil {
				t.Fatal(err)
			}
		}
		if i%(n/10) == 0 {
			sample()
		}
	}
	s.Close()
	t.Logf("over %d queries, every %d (kB):", n, n/10)
	t.Logf("  VmRSS                   %v", raw)
	t.Logf("  VmRSS after malloc_trim %v", trimmed)
	t.Logf("  Z3 allocation           %v", z3)
	if !full {
		return
	}
	// Flat: the second half may not grow beyond the first half's peak by
	// more than 10% + 8 MB (the term cache fills and empties in between).
	// Untrimmed RSS also holds what glibc keeps in its arenas after frees,
	// which swings by tens of MB; it gets a wider band.
	flat := func(what string, xs []int64, pct, slackKB int64) {
		var peak1, peak2 int64
		for i, v := range xs {
			if i <= len(xs)/2 {
				peak1 = max(peak1, v)
			} else {
				peak2 = max(peak2, v)
			}
		}
		if peak2 > peak1+peak1*pct/100+slackKB {
			t.Errorf("%s grows: first half peak %d kB, second half peak %d kB", what, peak1, peak2)
		}
	}
	flat("trimmed RSS", trimmed, 10, 8*1024)
	flat("Z3 allocation", z3, 10, 8*1024)
	flat("RSS", raw, 25, 32*1024)
}
