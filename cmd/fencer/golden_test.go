package main

import (
	"bufio"
	"bytes"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// Golden files: what a user reads (the insert and verify summaries, the
// --explain output, trace tables, JSON reports) compared byte for byte with
// testdata/golden/*. After a deliberate change of the output, or of the
// engine when it finds another (equally valid) witness,
//
//	go test ./cmd/fencer -run 'Golden|README' -update
//
// rewrites them; review the diff before committing it.

var update = flag.Bool("update", false, "rewrite the golden files of cmd/fencer (testdata/golden, the README examples)")

// repoRoot is where golden runs happen, so that file names read
// benchmarks/sb.cs as a user in the repository would type them.
const repoRoot = "../.."

// statsLine is the statistics line on stderr: counts and time depend on
// the engine's version and on the machine, so golden files hold a
// placeholder. The counts are checked by the engine's own tests.
var statsLine = regexp.MustCompile(`(?m)^k=\d+, \d+ predicates?, refinements: .*s$`)

// runAt runs the binary in dir and returns stdout, stderr and the exit code.
func runAt(t *testing.T, dir string, args ...string) (string, string, int) {
	t.Helper()
	cmd := exec.Command(binary, args...)
	cmd.Dir = dir
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return out.String(), errb.String(), code
}

// normalise replaces what varies between runs and engine versions: the
// statistics line and, in a JSON report, the stats object.
func normalise(s string) string {
	return statsLine.ReplaceAllString(s, "<statistics>")
}

// normaliseReport validates a JSON report and replaces its stats object
// (the last key of the indented report, as fencer writes it) by a
// placeholder, keeping the rest byte for byte.
func normaliseReport(t *testing.T, b []byte) string {
	t.Helper()
	validateReport(t, "golden report", b)
	s := string(b)
	const key = "\n  \"stats\": {"
	if i := strings.Index(s, key); i >= 0 {
		j := strings.Index(s[i:], "\n  }")
		if j < 0 {
			t.Fatalf("stats object not closed: %s", s)
		}
		s = s[:i] + "\n  \"stats\": \"<statistics>\"" + s[i+j+len("\n  }"):]
	}
	return s
}

// compareGolden compares got with testdata/golden/name (or writes it with
// -update).
func compareGolden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", "golden", name)
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./cmd/fencer -run Golden -update to create it)", err)
	}
	if string(want) != got {
		t.Errorf("%s differs from the output (go test ./cmd/fencer -run Golden -update rewrites it after a deliberate change):\n%s", path, lineDiff(string(want), got))
	}
}

// lineDiff shows the first differing lines of want and got.
func lineDiff(want, got string) string {
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	var b strings.Builder
	shown := 0
	for i := 0; i < len(w) || i < len(g); i++ {
		var wl, gl string
		if i < len(w) {
			wl = w[i]
		}
		if i < len(g) {
			gl = g[i]
		}
		if wl != gl {
			fmt.Fprintf(&b, "line %d:\n  want %q\n  got  %q\n", i+1, wl, gl)
			if shown++; shown == 5 {
				break
			}
		}
	}
	return b.String()
}

// The text a user reads, per case: exit code, stdout, stderr.
func TestGoldenText(t *testing.T) {
	cases := []struct {
		name string
		args []string
	}{
		// Store buffering under TSO: one fence, what it forbids, its witness.
		{"insert_sb_tso_explain", []string{"insert", "--explain", "benchmarks/sb.cs"}},
		// Peterson under TSO: the fence after turn = i.
		{"insert_peterson_tso_explain", []string{"insert", "--explain", "--diff", "benchmarks/peterson.cs"}},
		// Message passing under PSO: a write overtaking a write.
		{"insert_mp_pso_explain", []string{"insert", "--explain", "--model", "pso", "--diff", "benchmarks/mp.cs"}},
		// An SC bug: the trace ends on the failing assert.
		{"insert_sc_bug_explain", []string{"insert", "--explain", "benchmarks/sc_bug.cs"}},
		// A failing assert under PSO found by verify.
		{"verify_mp_pso_explain", []string{"verify", "--explain", "--model", "pso", "benchmarks/mp.cs"}},
		// The store-buffering litmus test: a forbidden outcome.
		{"verify_litmus_sb_tso_explain", []string{"verify", "--explain", "benchmarks/litmus/sdm_8_3_sb.cs"}},
		// A correct verdict: the properties it covers.
		{"verify_sb_sc_explain", []string{"verify", "--explain", "--model", "sc", "benchmarks/sb.cs"}},
		// The other input formats: a herd .litmus test, a Memorax .rmm model.
		{"verify_litmus_x86_mp_pso_explain", []string{"verify", "--explain", "--model", "pso", "benchmarks/litmus/x86/mp.litmus"}},
		{"insert_rmm_dekker_tso_explain", []string{"insert", "--explain", "--diff", "benchmarks/rmm/dekker_simple.rmm"}},
		// One column per process.
		{"verify_mp_pso_columns", []string{"verify", "--layout", "columns", "--model", "pso", "benchmarks/mp.cs"}},
		{"explore_peterson_tso_columns", []string{"explore", "--layout", "columns", "benchmarks/peterson.cs"}},
		// Without --explain: the summaries as they are by default.
		{"insert_sb_tso", []string{"insert", "--diff", "benchmarks/sb.cs"}},
		{"verify_peterson_tso", []string{"verify", "benchmarks/peterson.cs"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			out, errOut, code := runAt(t, repoRoot, c.args...)
			got := fmt.Sprintf("$ fencer %s\nexit %d\n--- stdout\n%s--- stderr\n%s", strings.Join(c.args, " "), code, normalise(out), normalise(errOut))
			compareGolden(t, c.name+".txt", got)
		})
	}
}

// The JSON reports of the same runs.
func TestGoldenJSON(t *testing.T) {
	cases := []struct {
		name string
		args []string
	}{
		{"insert_sb_tso", []string{"insert", "-q", "-o", os.DevNull, "benchmarks/sb.cs"}},
		{"insert_mp_pso", []string{"insert", "-q", "--model", "pso", "-o", os.DevNull, "benchmarks/mp.cs"}},
		{"insert_sc_bug", []string{"insert", "-q", "benchmarks/sc_bug.cs"}},
		{"verify_litmus_sb_tso", []string{"verify", "-q", "benchmarks/litmus/sdm_8_3_sb.cs"}},
		{"verify_syntax_error", []string{"verify", "-q", "cmd/fencer/testdata/syntax.cs"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "r.json")
			args := append([]string{c.args[0], "--json", path}, c.args[1:]...)
			runAt(t, repoRoot, args...)
			b, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			compareGolden(t, c.name+".json", normaliseReport(t, b))
		})
	}
}

// The README's examples: every block that starts with "$ fencer" in a
// ```console fence is run from the repository root and its output (stdout,
// then stderr; "> /dev/null" drops stdout) must be the text that follows.
// With -update the README's blocks are rewritten.
func TestREADMEExamples(t *testing.T) {
	readme := filepath.Join(repoRoot, "README.md")
	src, err := os.ReadFile(readme)
	if err != nil {
		t.Fatal(err)
	}
	var out strings.Builder
	sc := bufio.NewScanner(bytes.NewReader(src))
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	examples := 0
	inBlock := false
	var cmdLine string
	var shown []string
	flush := func() {
		if cmdLine == "" {
			return
		}
		examples++
		args := strings.Fields(strings.TrimPrefix(cmdLine, "$ fencer "))
		dropStdout := false
		if n := len(args); n >= 2 && args[n-2] == ">" && args[n-1] == "/dev/null" {
			args, dropStdout = args[:n-2], true
		}
		stdout, stderr, _ := runAt(t, repoRoot, args...)
		got := stderr
		if !dropStdout {
			got = stdout + stderr
		}
		want := strings.Join(shown, "")
		if *update {
			want = got
		} else if normalise(got) != normalise(want) {
			t.Errorf("README example %q: output differs:\n%s", cmdLine, lineDiff(want, got))
		}
		out.WriteString(cmdLine + "\n" + want)
		cmdLine, shown = "", nil
	}
	for sc.Scan() {
		line := sc.Text()
		switch {
		case !inBlock && line == "```console":
			inBlock = true
			out.WriteString(line + "\n")
		case inBlock && line == "```":
			flush()
			inBlock = false
			out.WriteString(line + "\n")
		case inBlock && strings.HasPrefix(line, "$ fencer "):
			flush()
			cmdLine = line
		case inBlock && cmdLine != "":
			shown = append(shown, line+"\n")
		default:
			out.WriteString(line + "\n")
		}
	}
	if examples == 0 {
		t.Fatal("README.md has no ```console example starting with \"$ fencer\"")
	}
	if *update {
		if err := os.WriteFile(readme, []byte(out.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
