package main

import (
	"encoding/csv"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

func TestBenchFlagValidation(t *testing.T) {
	cases := []struct {
		args []string
		rx   string
	}{
		{[]string{"bench", "--runs", "0", bench("sb.cs")}, `--runs must be at least 1 \(got 0\)`},
		{[]string{"bench", "--runs", "-2", bench("sb.cs")}, `--runs must be at least 1 \(got -2\)`},
		{[]string{"bench", "--format", "xml", bench("sb.cs")}, `unknown --format "xml"`},
		{[]string{"bench", "--model", "tso,power", bench("sb.cs")}, `unknown memory model "power"`},
		{[]string{"bench", "--model", "", bench("sb.cs")}, `unknown memory model|names no model`},
		{[]string{"bench"}, `no files given`},
		{[]string{"bench", "no-such-file.cs"}, `no-such-file\.cs`},
		{[]string{"bench", "testdata/syntax.cs"}, `testdata/syntax\.cs:4:3: `},
	}
	for _, c := range cases {
		out, stderr, code := fencer(t, c.args...)
		if code != 2 {
			t.Errorf("fencer %s: exit %d, want 2\nstderr: %s", strings.Join(c.args, " "), code, stderr)
		}
		if !regexp.MustCompile(c.rx).MatchString(stderr) {
			t.Errorf("fencer %s: stderr %q does not match %q", strings.Join(c.args, " "), stderr, c.rx)
		}
		if out != "" {
			t.Errorf("fencer %s: printed a table on bad input: %s", strings.Join(c.args, " "), out)
		}
	}
}

func TestBenchJSON(t *testing.T) {
	out, stderr, code := fencer(t, "bench", "--runs", "1", "--model", "sc", "--model", "tso,pso", "--format", "json", bench("sb.cs"))
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var rows []map[string]any
	if err := json.Unmarshal([]byte(out), &rows); err != nil {
		t.Fatalf("not a JSON array: %v\n%s", err, out)
	}
	if len(rows) != 3 {
		t.Fatalf("want 3 rows (sc, tso, pso), got %d:\n%s", len(rows), out)
	}
	wantFences := map[string]float64{"sc": 0, "tso": 1, "pso": 1}
	for i, model := range []string{"sc", "tso", "pso"} {
		r := rows[i]
		for _, k := range []string{"program", "model", "verdict", "fences", "wall_s", "peak_rss_mb", "k", "predicates", "states", "smt_queries", "runs", "paper_s"} {
			if _, ok := r[k]; !ok {
				t.Errorf("row %d lacks %q: %v", i, k, r)
			}
		}
		if r["model"] != model || r["verdict"] != "correct" || r["fences"] != wantFences[model] || r["runs"] != 1.0 {
			t.Errorf("row %d: %v", i, r)
		}
		if !strings.HasSuffix(r["program"].(string), "sb.cs") {
			t.Errorf("row %d program: %v", i, r["program"])
		}
		// A Go binary linked with Z3 has a resident set of several MB at least.
		if rss, _ := r["peak_rss_mb"].(float64); rss < 1 || rss > 4096 {
			t.Errorf("row %d: implausible peak RSS %v MB", i, r["peak_rss_mb"])
		}
		if w, _ := r["wall_s"].(float64); w <= 0 {
			t.Errorf("row %d: wall time %v", i, r["wall_s"])
		}
		if r["paper_s"] != nil {
			t.Errorf("row %d: sb.cs has no Table-1 time, got %v", i, r["paper_s"])
		}
		// Every model explores some states: a rate and a size per state.
		if v, _ := r["states_per_s"].(float64); v <= 0 {
			t.Errorf("row %d: states per second %v", i, r["states_per_s"])
		}
		if v, _ := r["store_bytes_per_state"].(float64); v <= 0 {
			t.Errorf("row %d: store bytes per state %v", i, r["store_bytes_per_state"])
		}
		if v, _ := r["control_bytes_per_state"].(float64); v <= 0 {
			t.Errorf("row %d: control bytes per state %v", i, r["control_bytes_per_state"])
		}
	}
}

// The md and csv formats, the median over runs, and the paper's time taken
// from paper_times.json beside the benchmark (TSO rows only).
func TestBenchFormatsAndPaperTime(t *testing.T) {
	dir := t.TempDir()
	src, err := os.ReadFile(bench("sb.cs"))
	if err != nil {
		t.Fatal(err)
	}
	prog := filepath.Join(dir, "sb.cs")
	os.WriteFile(prog, src, 0o644)
	os.WriteFile(filepath.Join(dir, paperTimesFile), []byte(`{"source": "test", "machine": "none", "model": "tso",
		"programs": {"sb.cs": {"name": "SB", "time_s": 0.25, "fences_per_proc": 1}}}`), 0o644)

	out, stderr, code := fencer(t, "bench", "--runs", "3", "--model", "tso,sc", "--format", "csv", prog)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	recs, err := csv.NewReader(strings.NewReader(out)).ReadAll()
	if err != nil || len(recs) != 3 {
		t.Fatalf("csv: %v, %d records:\n%s", err, len(recs), out)
	}
	col := map[string]int{}
	for i, h := range recs[0] {
		col[h] = i
	}
	for _, h := range []string{"program", "model", "verdict", "fences", "runs", "median wall s", "median peak RSS MB", "paper s (TSO)"} {
		if _, ok := col[h]; !ok {
			t.Fatalf("csv header lacks %q: %v", h, recs[0])
		}
	}
	tso, sc := recs[1], recs[2]
	if tso[col["model"]] != "tso" || tso[col["fences"]] != "1" || tso[col["runs"]] != "3" || tso[col["paper s (TSO)"]] != "0.25" {
		t.Errorf("tso row: %v", tso)
	}
	if sc[col["model"]] != "sc" || sc[col["fences"]] != "0" || sc[col["paper s (TSO)"]] != "-" {
		t.Errorf("sc row (the paper's times are TSO times): %v", sc)
	}
	if n := strings.Count(stderr, "bench: "); n != 6 {
		t.Errorf("want 6 progress lines (2 models x 3 runs), got %d:\n%s", n, stderr)
	}

	out, stderr, code = fencer(t, "bench", "--runs", "1", prog)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 3 || !strings.HasPrefix(lines[0], "| program | model | verdict | fences |") ||
		!regexp.MustCompile(`^\|(-+:?\|)+$`).MatchString(lines[1]) ||
		!regexp.MustCompile(`^\| \S*sb\.cs \| tso \| correct \| 1 \| .* \| 0\.25 \|$`).MatchString(lines[2]) {
		t.Errorf("md table:\n%s", out)
	}
}

// A run that hits --timeout is reported as such and not repeated.
func TestBenchTimeout(t *testing.T) {
	out, stderr, code := fencer(t, "bench", "--runs", "3", "--timeout", "2ms", "--format", "json", bench("bakery.cs"))
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var rows []benchRow
	if err := json.Unmarshal([]byte(out), &rows); err != nil || len(rows) != 1 {
		t.Fatalf("%v:\n%s", err, out)
	}
	if r := rows[0]; r.Verdict != "timeout" || r.Runs != 1 || r.Fences != nil || r.PaperS == nil || *r.PaperS != 154 {
		t.Errorf("row: %+v", r)
	}
}

// The Table-1 data file names existing benchmarks and says where its
// numbers come from.
func TestPaperTimesFile(t *testing.T) {
	p, err := loadPaperTimes(bench(paperTimesFile))
	if err != nil || p == nil {
		t.Fatalf("%v", err)
	}
	if !strings.Contains(p.Source, "SAS 2012") || !strings.Contains(p.Machine, "2.27 GHz") || p.Model != "tso" || len(p.Programs) != 8 {
		t.Errorf("paper times: %+v", p)
	}
	for name, e := range p.Programs {
		if _, err := os.Stat(bench(name)); err != nil {
			t.Errorf("%s: %v", name, err)
		}
		if e.TimeS <= 0 || e.Name == "" {
			t.Errorf("%s: %+v", name, e)
		}
	}
}

func TestMedian(t *testing.T) {
	for _, c := range []struct {
		xs   []float64
		want float64
	}{{nil, 0}, {[]float64{3}, 3}, {[]float64{5, 1, 3}, 3}, {[]float64{4, 1, 3, 2}, 2.5}} {
		if got := median(c.xs); got != c.want {
			t.Errorf("median(%v) = %v, want %v", c.xs, got, c.want)
		}
	}
}
