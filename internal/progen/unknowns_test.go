package progen

import (
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"fencer/internal/refsem"
)

// BenchmarkUnknowns runs fencer insert (the binary, built once) on the
// programs of Ring under SC, TSO and PSO and compares it with the
// minimum fence count of the reference semantics, where that finishes
// within 300,000 states per run. It reports, over the runs the reference
// decides, how many fencer answered unknown, how many it answered wrongly
// (a different verdict or fence count: also a failure), the runs the
// reference could not decide, and how many of those fencer answered
// unknown too. PROGEN_RING_N sets the number of programs
// (default 20), PROGEN_RING_TIMEOUT fencer's --timeout (default 30s).
// Run with -benchtime 1x.
func BenchmarkUnknowns(b *testing.B) {
	n := envInt("PROGEN_RING_N", 20)
	timeout := envString("PROGEN_RING_TIMEOUT", "30s")
	dir := b.TempDir()
	bin := buildFencer(b)
	for i := 0; i < b.N; i++ {
		var decided, unknown, wrong, undecided, undecidedUnknown int
		for seed := 0; seed < n; seed++ {
			src := Ring(int64(seed))
			path := filepath.Join(dir, "p"+strconv.Itoa(seed)+".cs")
			if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
				b.Fatal(err)
			}
			p, err := refsem.Compile(path, []byte(src))
			if err != nil {
				b.Fatal(err)
			}
			for _, m := range []refsem.Model{refsem.SC, refsem.TSO, refsem.PSO} {
				want := ""
				if r, err := p.Run(refsem.SC, refsem.Options{MaxStates: 300000}); err == nil && r.Bad {
					want = "sc-bug"
				} else if sites, ok, err := p.MinFences(m, 300000, 10); err == nil && ok {
					want = "fences=" + strconv.Itoa(len(sites))
				}
				if want == "" {
					undecided++
					if runFencer(b, bin, path, m.String(), timeout) == "unknown" {
						undecidedUnknown++
					}
					continue
				}
				decided++
				got := runFencer(b, bin, path, m.String(), timeout)
				switch {
				case got == "unknown":
					unknown++
					b.Logf("seed %d %s: unknown (reference %s)", seed, m, want)
				case got != want:
					wrong++
					b.Errorf("seed %d %s: fencer %s, reference %s\n%s", seed, m, got, want, src)
				}
			}
		}
		b.ReportMetric(float64(decided), "decided")
		b.ReportMetric(float64(unknown), "unknown")
		b.ReportMetric(float64(wrong), "wrong")
		b.ReportMetric(float64(undecided), "undecided-by-reference")
		b.ReportMetric(float64(undecidedUnknown), "unknown-where-undecided")
	}
}

// runFencer returns "sc-bug", "fences=K" or "unknown" (anything else is
// unknown too: an error is reported by the exit code and the verdict).
func runFencer(b *testing.B, bin, path, model, timeout string) string {
	switch verdict, fences := insertReport(b, bin, path, model, timeout, os.DevNull); verdict {
	case "sc-bug":
		return "sc-bug"
	case "correct":
		return "fences=" + strconv.Itoa(fences)
	}
	return "unknown"
}
