package cegar

import (
	"path/filepath"
	"testing"

	"fencer/cs"
)

// benchSystem parses the benchmark at benchmarks/<path...> (file name with
// its extension), ending the test on an error.
func benchSystem(tb testing.TB, path ...string) *cs.System {
	tb.Helper()
	sys, err := cs.ParseFile(filepath.Join(append([]string{"..", "benchmarks"}, path...)...))
	if err != nil {
		tb.Fatal(err)
	}
	return sys
}

// newSolver returns a Z3 solver that is closed when the test ends.
func newSolver(tb testing.TB) *Z3Solver {
	tb.Helper()
	sol, err := NewZ3Solver()
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(sol.Close)
	return sol
}

// lowParallelFrom makes the workers expand every level of an exploration,
// however small, so that small programs exercise the pipeline; the
// returned function restores the default.
func lowParallelFrom() func() {
	old := parallelFrom
	parallelFrom = 1
	return func() { parallelFrom = old }
}
