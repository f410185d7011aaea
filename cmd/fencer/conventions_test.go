package main

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

func TestVersion(t *testing.T) {
	out, stderr, code := fencer(t, "--version")
	if code != 0 || !regexp.MustCompile(`(?m)^fencer \S+$`).MatchString(out) || !regexp.MustCompile(`(?m)^Z3 4\.\d+\.\d+`).MatchString(out) {
		t.Errorf("exit %d, stdout %q, stderr %q", code, out, stderr)
	}
}

func TestCompletion(t *testing.T) {
	out, _, code := fencer(t, "--generate-bash-completion")
	for _, cmd := range []string{"insert", "verify", "check", "explore", "show"} {
		if code != 0 || !regexp.MustCompile(`(?m)^`+cmd+`$`).MatchString(out) {
			t.Errorf("completion lacks %s: exit %d, %q", cmd, code, out)
		}
	}
	out, _, code = fencer(t, "completion", "bash")
	if code != 0 || !strings.Contains(out, "complete ") || !strings.Contains(out, "--generate-bash-completion") {
		t.Errorf("completion bash: exit %d, %q", code, out)
	}
}

func TestHelpExamples(t *testing.T) {
	for _, cmd := range []string{"show", "explore", "verify", "insert", "check", "bench", "robust", "completion"} {
		out, _, code := fencer(t, cmd, "--help")
		if code != 0 || !strings.Contains(out, "Examples:") || !strings.Contains(out, "fencer "+cmd+" ") {
			t.Errorf("fencer %s --help: exit %d, no example:\n%s", cmd, code, out)
		}
	}
}

func TestReorderArgs(t *testing.T) {
	cases := []struct{ in, want string }{
		{"fencer insert sb.cs --model pso", "fencer insert --model pso sb.cs"},
		{"fencer insert sb.cs --model=pso -w", "fencer insert --model=pso -w sb.cs"},
		{"fencer -v insert sb.cs -o out.cs --diff", "fencer -v insert -o out.cs --diff sb.cs"},
		{"fencer insert --model pso sb.cs", "fencer insert --model pso sb.cs"},
		{"fencer insert sb.cs -- --model pso", "fencer insert -- sb.cs --model pso"},
		{"fencer insert - --model sc", "fencer insert --model sc -"},
		{"fencer check a.cs -j 2 b.cs --junit r.xml", "fencer check -j 2 --junit r.xml a.cs b.cs"},
		{"fencer insert sb.cs --timeout", "fencer insert --timeout"}, // the parser reports the missing value
		{"fencer insert sb.cs --no-such-flag", "fencer insert --no-such-flag sb.cs"},
		{"fencer insert sb.cs --model pso --generate-bash-completion", "fencer insert sb.cs --model pso --generate-bash-completion"},
		{"fencer no-such-command x --model pso", "fencer no-such-command x --model pso"},
		{"fencer help insert", "fencer help insert"},
		{"fencer", "fencer"},
	}
	app := newApp()
	for _, c := range cases {
		got := strings.Join(reorderArgs(app, strings.Fields(c.in)), " ")
		if got != c.want {
			t.Errorf("reorderArgs(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestFlagsAfterFile(t *testing.T) {
	_, stderr, code := fencer(t, "insert", bench("mp.cs"), "--model", "pso")
	if code != 0 || !strings.Contains(stderr, "correct under pso with 1 fence") {
		t.Errorf("insert FILE --model pso: exit %d, %s", code, stderr)
	}
	out, _, code := fencer(t, "verify", bench("sb.cs"), "--model=sc")
	if code != 0 || !strings.Contains(out, "under sc") {
		t.Errorf("verify FILE --model=sc: exit %d, %s", code, out)
	}
	// After "--" everything is a file.
	_, stderr, code = fencer(t, "show", "--", "--model")
	if code != 2 || stderr != "--model: no such file or directory\n" {
		t.Errorf("show -- --model: exit %d, %q", code, stderr)
	}
}

// fencerIn runs the binary with stdin.
func fencerIn(t *testing.T, stdin []byte, args ...string) (string, string, int) {
	t.Helper()
	cmd := exec.Command(binary, args...)
	var out, errb bytes.Buffer
	cmd.Stdin, cmd.Stdout, cmd.Stderr = bytes.NewReader(stdin), &out, &errb
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return out.String(), errb.String(), code
}

func TestStdin(t *testing.T) {
	src, _ := os.ReadFile(bench("sb.cs"))
	out, stderr, code := fencerIn(t, src, "insert", "-")
	if code != 0 || !strings.Contains(out, "flag[i] = 1;\n  fence;\n") || !strings.Contains(stderr, "<stdin>:20: after flag[i] = 1;") {
		t.Errorf("insert -: exit %d\n%s\n%s", code, out, stderr)
	}
	_, stderr, code = fencerIn(t, []byte("shared x;\nprocess P { x = 1 }\n"), "show", "-")
	if code != 2 || !strings.HasPrefix(stderr, "<stdin>:2:") {
		t.Errorf("show - on a syntax error: exit %d, %q", code, stderr)
	}
	_, stderr, code = fencerIn(t, src, "insert", "-w", "-")
	if code != 2 || !strings.Contains(stderr, "-w") {
		t.Errorf("insert -w -: exit %d, %q", code, stderr)
	}
}

func TestInsertDiff(t *testing.T) {
	out, stderr, code := fencer(t, "insert", bench("sb.cs"), "--diff")
	name := bench("sb.cs")
	want := "--- " + name + "\n+++ " + name + "\n@@ -18,6 +18,7 @@\n" +
		" process P[i in 0..1] {\n   local r;\n   flag[i] = 1;\n+  fence;\n   r = flag[1 - i];\n   assume(r == 0);\n zero: skip;\n"
	if code != 0 || out != want {
		t.Errorf("insert --diff: exit %d, %s\ngot:\n%s\nwant:\n%s", code, stderr, out, want)
	}
	// No fence: an empty diff.
	out, _, code = fencer(t, "insert", "--model", "sc", "--diff", bench("sb.cs"))
	if code != 0 || out != "" {
		t.Errorf("insert --diff with no fence: exit %d, %q", code, out)
	}
	if _, stderr, code := fencer(t, "insert", "--diff", "-w", bench("sb.cs")); code != 2 || !strings.Contains(stderr, "--diff") {
		t.Errorf("--diff -w: exit %d, %q", code, stderr)
	}
}

func TestPluralAndVerdictWords(t *testing.T) {
	_, stderr, _ := fencer(t, "insert", bench("sb.cs"))
	if !strings.Contains(stderr, "with 1 fence (a minimum)") || strings.Contains(stderr, "(s)") {
		t.Errorf("insert sb.cs: %s", stderr)
	}
	_, stderr, _ = fencer(t, "insert", "testdata/wrong_expect.cs")
	if !strings.Contains(stderr, "with 2 fences (a minimum)") {
		t.Errorf("insert wrong_expect.cs: %s", stderr)
	}
	for _, model := range []string{"sc", "tso"} {
		path := filepath.Join(t.TempDir(), "r.json")
		out, _, _ := fencer(t, "verify", "--model", model, "--json", path, bench("sb.cs"))
		var rep struct{ Verdict string }
		b, _ := os.ReadFile(path)
		json.Unmarshal(b, &rep)
		if rep.Verdict == "" || !strings.Contains(out, ": "+rep.Verdict+" under "+model) {
			t.Errorf("verify --model %s: report says %q, stdout %q", model, rep.Verdict, out)
		}
	}
}
