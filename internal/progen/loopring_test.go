package progen

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"fencer/internal/refsem"
)

// BenchmarkLoopRing (issue 38) compares fencer with an exact explicit
// search on the programs of LoopRing under TSO: package refsem, an
// interpreter that shares no code with the engine, explores the concrete
// system breadth first (PROGEN_REF_STATES states at most, default
// 3,000,000) and answers whether a bad state is reachable; fencer insert
// (the binary, built once, --timeout PROGEN_RING_TIMEOUT, default 60s)
// answers with fences, and the reference then explores the program with
// them. It logs one row per program (seconds; "-" where the reference
// hit its bound) and reports how many fencer answers were unknown where
// the reference answered within 10 s, how many fencer runs were slower
// than the reference's search of the input, and any disagreement (a
// failure). PROGEN_LOOPRING_N sets the number of programs (default 16),
// PROGEN_LOOPRING_FIRST the first seed (default 0); PROGEN_FENCER_BEFORE
// names another fencer binary (an older build) to run on each program
// too, so that before and after are measured in one run.
// Run with -benchtime 1x.
func BenchmarkLoopRing(b *testing.B) {
	n := envInt("PROGEN_LOOPRING_N", 16)
	first := envInt("PROGEN_LOOPRING_FIRST", 0)
	maxStates := envInt("PROGEN_REF_STATES", 3_000_000)
	timeout := envString("PROGEN_RING_TIMEOUT", "60s")
	dir := b.TempDir()
	bin := buildFencer(b)
	for i := 0; i < b.N; i++ {
		var timeouts, slower int
		before := os.Getenv("PROGEN_FENCER_BEFORE")
		fmt.Printf("%5s %2s %12s %8s %12s %10s %14s %10s %14s %8s\n", "seed", "N", "ref states", "ref s", "verdict", "before s", "before", "fencer s", "fencer", "ref(fenced) s")
		for seed := first; seed < first+n; seed++ {
			src := LoopRing(int64(seed))
			path := filepath.Join(dir, "lr"+strconv.Itoa(seed)+".cs")
			if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
				b.Fatal(err)
			}
			p, err := refsem.Compile(path, []byte(src))
			if err != nil {
				b.Fatal(err)
			}
			t0 := time.Now()
			want := ""
			ref, err := p.Run(refsem.SC, refsem.Options{MaxStates: maxStates})
			if err == nil && ref.Bad {
				want = "sc-bug"
			} else if err == nil && ref.Complete {
				ref, err = p.Run(refsem.TSO, refsem.Options{MaxStates: maxStates})
				switch {
				case err == nil && ref.Bad:
					want = "unsafe"
				case err == nil && ref.Complete:
					want = "safe"
				}
			}
			if err != nil {
				b.Fatal(err)
			}
			refTime := time.Since(t0).Seconds()
			bTime, bGot := 0.0, "-"
			if before != "" {
				t0 = time.Now()
				g, f, _ := runInsert(b, before, path, timeout)
				bTime, bGot = time.Since(t0).Seconds(), fmt.Sprintf("%s/%d", g, f)
			}
			t0 = time.Now()
			got, fences, patched := runInsert(b, bin, path, timeout)
			fTime := time.Since(t0).Seconds()
			refS := fmt.Sprintf("%.2f", refTime)
			if want == "" {
				refS = "-"
			}
			// The reference on fencer's answer: the program with its
			// fences must be correct under TSO.
			fenced := ""
			if got == "correct" {
				t0 = time.Now()
				pp, err := refsem.Compile(path, patched)
				if err != nil {
					b.Fatal(err)
				}
				r, err := pp.Run(refsem.TSO, refsem.Options{MaxStates: maxStates})
				switch {
				case err != nil:
					b.Fatal(err)
				case r.Bad:
					b.Errorf("seed %d: fencer's fences leave a bad state under TSO\n%s", seed, src)
				case r.Complete:
					fenced = fmt.Sprintf("%.2f", time.Since(t0).Seconds())
				default:
					fenced = "-"
				}
			}
			switch {
			case want == "sc-bug" && got != "sc-bug" && got != "unknown",
				want == "safe" && got != "correct" && got != "unknown",
				want == "unsafe" && got != "correct" && got != "unknown":
				b.Errorf("seed %d: fencer %s, reference %s\n%s", seed, got, want, src)
			}
			if got == "unknown" && want != "" && refTime < 10 {
				timeouts++
			}
			if want != "" && fTime > refTime {
				slower++
			}
			fmt.Printf("%5d %2s %12d %8s %12s %10.2f %14s %10.2f %14s %8s\n", seed, src[10:11], ref.States, refS, want, bTime, bGot, fTime, fmt.Sprintf("%s/%d", got, fences), fenced)
		}
		b.ReportMetric(float64(timeouts), "unknown-where-ref<10s")
		b.ReportMetric(float64(slower), "slower-than-ref")
	}
}

// runInsert runs fencer insert under TSO and returns its verdict, the
// number of fences and the patched program.
func runInsert(b *testing.B, bin, path, timeout string) (string, int, []byte) {
	out := path + ".patched"
	_ = os.Remove(out)
	verdict, fences := insertReport(b, bin, path, "tso", timeout, out)
	patched, _ := os.ReadFile(out)
	return verdict, fences, patched
}
