package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// A1: bench --runs 0 or negative is a usage error, not a panic.
func TestBenchRunsInvalid(t *testing.T) {
	for _, runs := range []string{"0", "-1"} {
		_, stderr, code := fencer(t, "bench", "--runs", runs, bench("sb.cs"))
		if code != 2 || strings.Contains(stderr, "panic") || !strings.Contains(stderr, "--runs") {
			t.Errorf("bench --runs %s: exit %d, stderr %q", runs, code, stderr)
		}
	}
}

// A2: check --json writes one object per expectation.
func TestCheckJSON(t *testing.T) {
	path := filepath.Join(t.TempDir(), "c.json")
	_, stderr, code := fencer(t, "check", "--json", path, "testdata/wrong_expect.cs", bench("mp.cs"))
	if code != 1 {
		t.Fatalf("exit %d, want 1: %s", code, stderr)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Expectations []map[string]any `json:"expectations"`
		Passed       *int             `json:"passed"`
		Failed       *int             `json:"failed"`
	}
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatalf("%v: %s", err, b)
	}
	if len(doc.Expectations) != 7 || doc.Passed == nil || *doc.Passed != 6 || doc.Failed == nil || *doc.Failed != 1 {
		t.Fatalf("report: %s", b)
	}
	first := doc.Expectations[0]
	for _, k := range []string{"file", "line", "model", "expected", "got", "pass", "time_seconds"} {
		if _, ok := first[k]; !ok {
			t.Errorf("expectation lacks %q: %v", k, first)
		}
	}
	if first["file"] != "testdata/wrong_expect.cs" || first["line"] != 1.0 || first["model"] != "tso" ||
		first["expected"] != "fences=0" || first["got"] != "fences=2" || first["pass"] != false {
		t.Errorf("first expectation: %v", first)
	}
	if doc.Expectations[3]["model"] != "pso" || doc.Expectations[3]["pass"] != true {
		t.Errorf("last expectation: %v", doc.Expectations[3])
	}
}

// A2: bench writes JSON with --format json (TestBenchJSON in
// bench_test.go); the --json FILE flag of insert is not offered by bench, so
// it is a usage error, not silently ignored.
func TestBenchJSONFlagRefused(t *testing.T) {
	path := filepath.Join(t.TempDir(), "b.json")
	_, stderr, code := fencer(t, "bench", "--runs", "1", "--json", path, bench("sb.cs"))
	if code != 2 || !strings.Contains(stderr, "json") {
		t.Errorf("bench --json: exit %d, want 2; stderr %s", code, stderr)
	}
	if _, err := os.Stat(path); err == nil {
		t.Errorf("bench --json wrote %s", path)
	}
}

// A3: a file that does not parse is an input error, and the other files
// still run.
func TestCheckParseError(t *testing.T) {
	for f, line := range map[string]int{"testdata/syntax.cs": 4, "testdata/syntax_expect.cs": 5} {
		out, stderr, code := fencer(t, "check", f, bench("mp.cs"))
		if code != 2 {
			t.Errorf("check %s: exit %d, want 2", f, code)
		}
		if !regexp.MustCompile(`(?m)^` + regexp.QuoteMeta(f) + fmt.Sprintf(`:%d:3: expected ';'`, line)).MatchString(stderr) {
			t.Errorf("check %s: stderr lacks the positioned error: %q", f, stderr)
		}
		if !strings.Contains(out, "mp.cs:13: expect pso fences=1") || strings.Contains(out, f+": no expectations") {
			t.Errorf("check %s: output:\n%s", f, out)
		}
	}
}

// A4: a flush step names the write that reaches memory: its line and
// statement are those of the latest earlier write of the same process and
// variable still buffered (report version 1; version 0 had no line).
func TestJSONFlushNamesItsWrite(t *testing.T) {
	path := filepath.Join(t.TempDir(), "r.json")
	_, stderr, code := fencer(t, "verify", "--model", "pso", "--json", path, bench("mp.cs"))
	if code != 1 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var rep struct {
		Trace struct{ Steps []map[string]any }
	}
	b, _ := os.ReadFile(path)
	if err := json.Unmarshal(b, &rep); err != nil {
		t.Fatal(err)
	}
	flushes := 0
	writeLine := map[string]any{} // variable -> line of its last write
	for _, s := range rep.Trace.Steps {
		switch s["action"] {
		case "write":
			writeLine[s["variable"].(string)] = s["line"]
		case "flush":
			flushes++
			if l, ok := writeLine[s["variable"].(string)]; !ok || s["line"] != l || s["line"] == 0.0 {
				t.Errorf("flush %v: line %v, want the write's %v", s, s["line"], l)
			}
		}
	}
	if flushes == 0 {
		t.Errorf("trace without a flush: %s", b)
	}
}

// A5: file errors are "file: message".
func TestFileErrors(t *testing.T) {
	dir := t.TempDir()
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"explore", "no-such-file.cs"}, "no-such-file.cs: no such file or directory\n"},
		{[]string{"insert", "testdata"}, "testdata: is a directory\n"},
		{[]string{"check", "no-such-file.cs"}, "no-such-file.cs: no such file or directory\n"},
		{[]string{"check", "testdata"}, "testdata: is a directory\n"},
		{[]string{"show", "testdata/syntax.cs/x.cs"}, "testdata/syntax.cs/x.cs: not a directory\n"},
		{[]string{"verify", "--json", "testdata", bench("sb.cs")}, "testdata: is a directory\n"},
		{[]string{"check", "--junit", "testdata/syntax.cs/r.xml", bench("sb.cs")}, "testdata/syntax.cs/r.xml: not a directory\n"},
		{[]string{"insert", "-o", filepath.Join(dir, "no", "x.cs"), bench("sb.cs")}, filepath.Join(dir, "no", "x.cs") + ": no such file or directory\n"},
	}
	if os.Geteuid() != 0 { // root reads everything
		locked := filepath.Join(dir, "locked.cs")
		os.WriteFile(locked, []byte("shared x;\n"), 0)
		cases = append(cases, struct {
			args []string
			want string
		}{[]string{"show", locked}, locked + ": permission denied\n"})
	}
	for _, c := range cases {
		_, stderr, code := fencer(t, c.args...)
		if code != 2 || !strings.HasSuffix(stderr, c.want) || strings.Contains(stderr, "fencer:") {
			t.Errorf("fencer %s: exit %d, stderr %q, want %q", strings.Join(c.args, " "), code, stderr, c.want)
		}
	}
}

// A6: negative limits (and limits that cannot be met) are usage errors.
func TestNegativeLimits(t *testing.T) {
	cases := [][]string{
		{"insert", "--max-k", "-1"},
		{"insert", "--max-k=0"},
		{"insert", "--max-states", "-5"},
		{"insert", "--max-predicates", "-1"},
		{"insert", "--timeout", "-1s"},
		{"verify", "--max-states=-1"},
		{"verify", "--timeout", "-3m"},
		{"explore", "--max-depth", "-1"},
		{"explore", "--max-states", "-1"},
		{"check", "--max-k", "-2"},
		{"bench", "--max-states", "-1"},
		{"insert", "--workers", "0"},
		{"bench", "--workers=-1"},
	}
	for _, args := range cases {
		flag := strings.SplitN(args[1], "=", 2)[0]
		args = append(args, bench("sb.cs"))
		_, stderr, code := fencer(t, args...)
		if code != 2 || !strings.Contains(stderr, flag) {
			t.Errorf("fencer %s: exit %d, stderr %q", strings.Join(args, " "), code, stderr)
		}
	}
}

// A7: an output that cannot be created is an error before the analysis.
func TestUnwritableOutputFailsFirst(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "no", "such", "dir", "r.json")
	cases := [][]string{
		{"insert", "--json", missing, bench("bakery.cs")},
		{"verify", "--json", missing, bench("bakery.cs")},
		{"insert", "-o", missing, bench("bakery.cs")},
		{"check", "--json", missing, bench("bakery.cs")},
	}
	for _, args := range cases {
		start := time.Now()
		_, stderr, code := fencer(t, args...)
		if code != 2 || !strings.Contains(stderr, missing+": no such file or directory") || time.Since(start) > 5*time.Second {
			t.Errorf("fencer %s: exit %d after %v, stderr %q", strings.Join(args, " "), code, time.Since(start), stderr)
		}
	}
}

// The profiles are written where asked, and a profile that cannot be
// created is bad input before any work.
func TestProfiles(t *testing.T) {
	dir := t.TempDir()
	cpu, mem, block := filepath.Join(dir, "cpu.out"), filepath.Join(dir, "mem.out"), filepath.Join(dir, "block.out")
	_, stderr, code := fencer(t, "--cpuprofile", cpu, "--memprofile", mem, "--blockprofile", block, "verify", bench("sb.cs"))
	if code != 1 {
		t.Fatalf("verify sb.cs with profiles: exit %d, stderr %q", code, stderr)
	}
	for _, f := range []string{cpu, mem, block} {
		if st, err := os.Stat(f); err != nil || st.Size() == 0 {
			t.Errorf("profile %s: %v", f, err)
		}
	}
	missing := filepath.Join(dir, "no", "cpu.out")
	_, stderr, code = fencer(t, "--cpuprofile", missing, "verify", bench("sb.cs"))
	if code != 2 || !strings.Contains(stderr, "--cpuprofile") {
		t.Errorf("unwritable --cpuprofile: exit %d, stderr %q", code, stderr)
	}
	_, stderr, code = fencer(t, "--blockprofile", missing, "verify", bench("sb.cs"))
	if code != 2 || !strings.Contains(stderr, "--blockprofile") {
		t.Errorf("unwritable --blockprofile: exit %d, stderr %q", code, stderr)
	}
}
