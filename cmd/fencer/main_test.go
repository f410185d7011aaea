package main

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"
)

var binary string

// TestMain builds the fencer binary once; the tests run it as a user would.
func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "fencer-test")
	if err != nil {
		panic(err)
	}
	binary = filepath.Join(dir, "fencer")
	if out, err := exec.Command("go", "build", "-o", binary, ".").CombinedOutput(); err != nil {
		panic(string(out))
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

func bench(name string) string { return filepath.Join("..", "..", "benchmarks", name) }

// fencer runs the binary and returns stdout, stderr and the exit code.
func fencer(t *testing.T, args ...string) (string, string, int) {
	t.Helper()
	cmd := exec.Command(binary, args...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	checkReportsOf(t, args, out.String())
	return out.String(), errb.String(), code
}

func TestExitCodesAndErrors(t *testing.T) {
	cases := []struct {
		args []string
		code int
		rx   string // matched against stderr
	}{
		{[]string{"show", "testdata/syntax.cs"}, 2, `(?m)^testdata/syntax\.cs:4:3: expected ';', found identifier x$`},
		{[]string{"insert", "testdata/syntax.cs"}, 2, `testdata/syntax\.cs:4:3: `},
		{[]string{"explore", "no-such-file.cs"}, 2, `no-such-file\.cs`},
		{[]string{"explore", "--model", "power", bench("sb.cs")}, 2, `unknown memory model "power"`},
		{[]string{"explore", "--model", "arm", bench("sb.cs")}, 2, `explore: arm is not a store-buffer model`},
		{[]string{"insert"}, 2, `exactly one FILE`},
		{[]string{"insert", "--no-such-flag", bench("sb.cs")}, 2, `no-such-flag`},
		{[]string{"insert", "-o", "x", "-w", bench("sb.cs")}, 2, `either -o or -w`},
		{[]string{"explore", "--model", "sc", bench("sb.cs")}, 0, ``},
		{[]string{"explore", "--model", "tso", bench("sb.cs")}, 1, ``},
		{[]string{"explore", "--max-states", "5", bench("peterson.cs")}, 3, ``},
		{[]string{"verify", "--model", "tso", bench("peterson.cs")}, 1, ``},
		{[]string{"verify", "--model", "sc", bench("peterson.cs")}, 0, ``},
		{[]string{"insert", bench("sc_bug.cs")}, 1, `wrong under SC`},
		{[]string{"insert", "--max-states", "20", bench("peterson.cs")}, 3, `unknown under tso: .*state limit`},
		{[]string{"verify", "--max-k", "1", "testdata/klimit.cs"}, 3, ``}, // the verdict line is on stdout
		{[]string{"insert", "--max-k", "1", "testdata/klimit.cs"}, 0, `(?s)correct under tso with 2 fences.*for robustness only.*proof: correct under SC, and robust: every TSO run is equivalent to an SC run with these fences \(the k case did not end: k limit reached`},
		{[]string{"insert", "--max-predicates", "5", bench("seqlock.cs")}, 3, `unknown under tso: .*predicate limit reached`},
		// bakery_4's SC check runs for minutes: the limit is always hit
		// (bakery_3's ends in about 0.5 s, bakery.cs's in 0.1 s).
		{[]string{"insert", "--timeout", "300ms", "-D", "N=4", bench("scale/bakery.cs")}, 3, `unknown under tso: .*time limit reached`},
		{[]string{"verify", "--model", "sc", "--timeout", "300ms", "-D", "N=4", bench("scale/bakery.cs")}, 3, ``}, // the verdict line is on stdout
	}
	for _, c := range cases {
		_, stderr, code := fencer(t, c.args...)
		if code != c.code {
			t.Errorf("fencer %s: exit %d, want %d\nstderr: %s", strings.Join(c.args, " "), code, c.code, stderr)
		}
		if !regexp.MustCompile(c.rx).MatchString(stderr) {
			t.Errorf("fencer %s: stderr %q does not match %q", strings.Join(c.args, " "), stderr, c.rx)
		}
	}
}

func TestExploreTrace(t *testing.T) {
	out, _, code := fencer(t, "explore", "--model", "tso", bench("sb.cs"))
	if code != 1 || !strings.Contains(out, "bad state reachable under tso in 6 steps") {
		t.Fatalf("exit %d, output:\n%s", code, out)
	}
	for _, col := range []string{"process", "where", "statement", "effect", "its buffer (oldest first)", "memory touched", "sb.cs:20", "flag[i] = 1;", "write flag[0] = 1 (buffered)",
		"violated: mutex zero: P[0] and P[1] both at zero (line 26)"} {
		if !strings.Contains(out, col) {
			t.Errorf("trace table lacks %q:\n%s", col, out)
		}
	}
	// --trace full: every buffer and every cell in each row (row 2: both
	// processes have a buffered write).
	full, _, _ := fencer(t, "explore", "--model", "tso", "--trace", "full", bench("sb.cs"))
	if !strings.Contains(full, "P[0]: [flag[0]=1]; P[1]: [flag[1]=1]  flag[0]=0 flag[1]=0") || strings.Contains(out, "flag[0]=0 flag[1]=0") {
		t.Errorf("--trace full does not show every buffer and cell, or touched does:\n%s\n%s", full, out)
	}
	if _, stderr, code := fencer(t, "explore", "--trace", "some", bench("sb.cs")); code != exitInput || !strings.Contains(stderr, "want touched or full") {
		t.Errorf("--trace some: exit %d, %s", code, stderr)
	}
	out, _, code = fencer(t, "explore", "--model", "sc", bench("sb.cs"))
	if code != 0 || !strings.Contains(out, "safe under sc") {
		t.Errorf("sc: exit %d, %s", code, out)
	}
}

func TestInsertIdempotentAndReport(t *testing.T) {
	dir := t.TempDir()
	report := filepath.Join(dir, "r.json")
	out, stderr, code := fencer(t, "insert", "--json", report, bench("sb.cs"))
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	src, _ := os.ReadFile(bench("sb.cs"))
	want := strings.Replace(string(src), "  flag[i] = 1;\n", "  flag[i] = 1;\n  fence;\n", 1)
	if out != want {
		t.Errorf("patched output:\n%s\nwant:\n%s", out, want)
	}
	if !strings.Contains(stderr, "sb.cs:20: after flag[i] = 1;") {
		t.Errorf("summary lacks the fence: %s", stderr)
	}
	var rep map[string]any
	b, _ := os.ReadFile(report)
	if err := json.Unmarshal(b, &rep); err != nil {
		t.Fatal(err)
	}
	if rep["verdict"] != "correct" || rep["model"] != "tso" {
		t.Errorf("report: %v", rep)
	}
	fs := rep["fences"].([]any)
	if len(fs) != 1 {
		t.Fatalf("report fences: %v", fs)
	}
	f := fs[0].(map[string]any)
	if f["line"] != 20.0 || f["column"] != 3.0 || f["process"] != "P" || f["statement"] != "flag[i] = 1;" {
		t.Errorf("fence entry: %v", f)
	}
	w := f["witness"].(map[string]any)
	if len(w["steps"].([]any)) == 0 {
		t.Errorf("fence without witness trace: %v", f)
	}
	for _, k := range []string{"k", "predicates", "refinements", "states", "smt_queries", "time_seconds"} {
		if _, ok := rep["stats"].(map[string]any)[k]; !ok {
			t.Errorf("stats lack %s", k)
		}
	}
	// The output is a fixed point.
	patched := filepath.Join(dir, "sb.cs")
	os.WriteFile(patched, []byte(out), 0o644)
	again, stderr, code := fencer(t, "insert", patched)
	if code != 0 || again != out || !strings.Contains(stderr, "no fence needed") {
		t.Errorf("insert on its own output: exit %d, changed %v, %s", code, again != out, stderr)
	}
}

func TestSCBugReport(t *testing.T) {
	report := filepath.Join(t.TempDir(), "r.json")
	_, _, code := fencer(t, "insert", "--json", report, bench("sc_bug.cs"))
	var rep struct {
		Verdict string
		Trace   struct{ Steps []map[string]any }
	}
	b, _ := os.ReadFile(report)
	if err := json.Unmarshal(b, &rep); err != nil || code != 1 || rep.Verdict != "sc-bug" || len(rep.Trace.Steps) == 0 {
		t.Errorf("exit %d, report %s (%v)", code, b, err)
	}
}

func TestCheck(t *testing.T) {
	out, _, code := fencer(t, "check", "testdata/wrong_expect.cs")
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if code != 1 || lines[len(lines)-1] != "0 passed, 1 failed" || !strings.Contains(out, "got fences=2") {
		t.Errorf("exit %d, output:\n%s", code, out)
	}
	out, _, code = fencer(t, "check", bench("sb.cs"), bench("mp.cs"))
	if code != 0 || !strings.HasSuffix(strings.TrimSpace(out), "12 passed, 0 failed") {
		t.Errorf("exit %d, output:\n%s", code, out)
	}
}

// Ctrl-C stops a long run cleanly: verdict unknown, exit 3, report written.
func TestInterrupt(t *testing.T) {
	report := filepath.Join(t.TempDir(), "r.json")
	cmd := exec.Command(binary, "insert", "--json", report, "-D", "N=4", bench("scale/bakery.cs"))
	var errb bytes.Buffer
	cmd.Stderr = &errb
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	time.Sleep(1500 * time.Millisecond)
	cmd.Process.Signal(syscall.SIGINT)
	err := cmd.Wait()
	ee, ok := err.(*exec.ExitError)
	if !ok || ee.ExitCode() != 3 {
		t.Fatalf("after SIGINT: %v, stderr %s", err, errb.String())
	}
	var rep map[string]any
	b, _ := os.ReadFile(report)
	if err := json.Unmarshal(b, &rep); err != nil || rep["verdict"] != "unknown" || !strings.Contains(rep["reason"].(string), "interrupted") {
		t.Errorf("report after SIGINT: %s (%v)", b, err)
	}
	// What was known is reported, not verified, wherever the run stopped.
	p, ok := rep["partial"].(map[string]any)
	if !ok || p["verified"] != false || !strings.Contains(errb.String(), "stopped") && !strings.Contains(errb.String(), "what was known when it stopped") {
		t.Errorf("no partial result after SIGINT: %s\nstderr %s", b, errb.String())
	}
}
