package cegar

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"fencer/cs"
)

// benchSystem parses the benchmark at benchmarks/<path...> (file name with
// its extension, and ":N=3" to set a const), ending the test on an error.
func benchSystem(tb testing.TB, path ...string) *cs.System {
	tb.Helper()
	file, consts := withConsts(filepath.Join(append([]string{"..", "benchmarks"}, path...)...))
	src, err := os.ReadFile(file)
	if err != nil {
		tb.Fatal(err)
	}
	sys, err := cs.ParseWith(file, src, cs.Options{Consts: consts})
	if err != nil {
		tb.Fatal(err)
	}
	return sys
}

// withConsts splits "scale/bakery.cs:N=3" into the file and its const
// settings (-D N=3 on the command line); a path without ":" has none.
func withConsts(path string) (string, map[string]int64) {
	file, set, ok := strings.Cut(path, ":")
	if !ok {
		return path, nil
	}
	name, val, _ := strings.Cut(set, "=")
	n, err := strconv.ParseInt(val, 10, 64)
	if err != nil {
		panic("withConsts: " + path)
	}
	return file, map[string]int64{name: n}
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
