package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"fencer/formats"
)

// A usage error is one line on stderr naming the flag as written, with a
// pointer to --help, and exit 2; nothing on stdout.
func TestUsageMessages(t *testing.T) {
	sb := bench("sb.cs")
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"insert", "--timeout", "5", sb}, `fencer: --timeout "5": a duration needs a unit, as in 5s, 300ms or 2m (see fencer insert --help)`},
		{[]string{"verify", sb, "--timeout=soon"}, `fencer: --timeout "soon": want a duration, as in 5s, 300ms or 2m (see fencer verify --help)`},
		{[]string{"insert", "--nosuch", sb}, "fencer: unknown flag --nosuch (see fencer insert --help)"},
		{[]string{"insert", sb, "--max-k", "x"}, `fencer: --max-k "x": want a whole number (see fencer insert --help)`},
		{[]string{"check", sb, "-j"}, "fencer: -j needs a value (see fencer check --help)"},
		{[]string{"--nosuch", "insert", sb}, "fencer: unknown flag --nosuch (see fencer --help)"},
		{[]string{"frobnicate"}, `fencer: unknown command "frobnicate" (see fencer --help)`},
		{[]string{"help", "frobnicate"}, `fencer: unknown command "frobnicate" (see fencer --help)`},
		{[]string{"insert", "--all=0", sb}, `fencer: --all "0": want a number of fence sets of at least 1 (--all=N) (see fencer insert --help)`},
		{[]string{"frobnicate", sb, "--model", "pso"}, `fencer: unknown command "frobnicate" (see fencer --help)`},
		{nil, "usage: fencer [global flags] COMMAND [flags] FILE... (commands: " + strings.Join(commandNames(), ", ") + "; see fencer --help)"},
	}
	for _, c := range cases {
		out, stderr, code := fencer(t, c.args...)
		if code != 2 || out != "" || stderr != c.want+"\n" {
			t.Errorf("fencer %s: exit %d, stdout %q, stderr %q; want exit 2 and %q", strings.Join(c.args, " "), code, out, stderr, c.want)
		}
	}
}

// commandNames are the commands fencer --help lists.
func commandNames() []string {
	var names []string
	for _, c := range newApp().VisibleCommands() {
		names = append(names, c.Name)
	}
	return names
}

// Help pages carry no "(default: false)" and one default note per flag.
func TestHelpDefaults(t *testing.T) {
	for _, args := range [][]string{{"--help"}, {"insert", "--help"}, {"verify", "--help"}, {"check", "--help"}, {"robust", "--help"}} {
		out, _, code := fencer(t, args...)
		if code != 0 || strings.Contains(out, "(default: false)") {
			t.Errorf("fencer %s: exit %d, (default: false) in\n%s", strings.Join(args, " "), code, out)
		}
		for _, line := range strings.Split(out, "\n") {
			if strings.Count(line, "default") > 1 {
				t.Errorf("fencer %s: two defaults in %q", strings.Join(args, " "), line)
			}
		}
	}
	out, _, _ := fencer(t, "insert", "--help")
	if !regexp.MustCompile(`--workers value +goroutines that expand the states of an exploration \(the states stored and the answer do not depend on it\) \(default: the number of CPUs, at most 4\)`).MatchString(out) {
		t.Errorf("--workers:\n%s", out)
	}
}

// insert refuses with exit 2 what a format's descriptor says it cannot
// write: --reconsider where fences cannot be removed, --kinds store where
// there is no store fence.
func TestInsertRefusesWhatTheFormatCannotWrite(t *testing.T) {
	files := map[string]string{"cs": bench("sb.cs"), "rmm": bench("rmm/peterson.rmm"), "litmus": bench("litmus/x86/sb.litmus")}
	refused := 0
	for _, f := range formats.All() {
		file, ok := files[f.Name]
		if !ok {
			continue
		}
		for _, flag := range []string{"--reconsider", "--kinds=full,store"} {
			can := f.RemovesFences
			if flag != "--reconsider" {
				can = f.CanFence("store")
			}
			if can {
				continue
			}
			refused++
			_, stderr, code := fencer(t, "insert", flag, file)
			want := "insert: --reconsider: "
			if flag != "--reconsider" {
				want = "insert: --kinds store: "
			}
			if code != 2 || !strings.Contains(stderr, want) {
				t.Errorf("insert %s %s: exit %d, %s", flag, file, code, stderr)
			}
		}
	}
	if refused == 0 {
		t.Skip("every format writes every kind and removes fences")
	}
}

// An insert stopped by a limit reports the fences installed so far, the
// lower bound and the counterexamples found, in text and JSON, marked not
// verified (the predicate limit stops Bakery's TSO search at the same
// point on every run; a copy whose ticket is not counter-like, since with
// the order view Bakery needs no predicate).
func TestInsertStoppedReportsPartial(t *testing.T) {
	path := filepath.Join(t.TempDir(), "r.json")
	_, stderr, code := fencer(t, "insert", "-q", "--max-predicates", "62", "--json", path, "testdata/noview/bakery.cs")
	if code != 3 || !strings.Contains(stderr, "what was known when it stopped (TSO phase; not verified):") ||
		!strings.Contains(stderr, "2 fences installed so far, blocking the 2 counterexamples found; every correct fence set has at least 2 fences:") ||
		!strings.Contains(stderr, "bakery.cs:51: after choosing[i] = 1;") {
		t.Fatalf("exit %d:\n%s", code, stderr)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var rep struct {
		Verdict string `json:"verdict"`
		Fences  []any  `json:"fences"`
		Partial *struct {
			Verified bool   `json:"verified"`
			Phase    string `json:"phase"`
			Fences   []struct {
				Line    int `json:"line"`
				Witness any `json:"witness"`
			} `json:"fences"`
			LowerBound      int `json:"lower_bound"`
			Counterexamples int `json:"counterexamples"`
		} `json:"partial"`
	}
	if err := json.Unmarshal(b, &rep); err != nil {
		t.Fatal(err)
	}
	p := rep.Partial
	if rep.Verdict != "unknown" || len(rep.Fences) != 0 || p == nil || p.Verified || p.Phase != "TSO" || len(p.Fences) != 2 || p.LowerBound != 2 || p.Counterexamples != 2 ||
		p.Fences[0].Line != 51 || p.Fences[0].Witness == nil {
		t.Errorf("report %s", b)
	}
	validateReport(t, "insert --max-predicates 62", b)
}

// --kinds reports list fences in source order, in text and JSON (the
// engine's set lists store fences last).
func TestKindsSourceOrder(t *testing.T) {
	path := filepath.Join(t.TempDir(), "r.json")
	_, stderr, code := fencer(t, "insert", "-q", "--kinds", "full,store", "--model", "pso", "--json", path, bench("peterson.cs"))
	want := "peterson.cs:38: fence store; after flag[i] = 1;\n  " + bench("peterson.cs") + ":39: after turn = i;\n"
	if code != 0 || !strings.Contains(stderr, want) {
		t.Fatalf("exit %d:\n%s", code, stderr)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var rep struct {
		Fences []struct {
			Line int    `json:"line"`
			Kind string `json:"kind"`
		} `json:"fences"`
	}
	if err := json.Unmarshal(b, &rep); err != nil {
		t.Fatal(err)
	}
	if len(rep.Fences) != 2 || rep.Fences[0].Line != 38 || rep.Fences[0].Kind != "store" || rep.Fences[1].Line != 39 || rep.Fences[1].Kind != "" {
		t.Errorf("fences %+v", rep.Fences)
	}
}

// A program with no property gets a warning: nothing is checked.
func TestNoPropertyWarning(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "np.cs")
	if err := os.WriteFile(file, []byte("shared x;\n// fencer: expect tso safe\nprocess P { x = 1; }\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	want := file + ": warning: the program states no property (no assert, mutex or forbidden): every run is correct, so there is nothing to check\n"
	for _, args := range [][]string{{"insert", file}, {"verify", file}, {"explore", file}, {"check", file}} {
		_, stderr, code := fencer(t, args...)
		if code != 0 || !strings.Contains(stderr, want) {
			t.Errorf("fencer %s: exit %d\n%s", strings.Join(args, " "), code, stderr)
		}
	}
	path := filepath.Join(dir, "r.json")
	if _, _, code := fencer(t, "verify", "--json", path, file); code != 0 {
		t.Fatalf("verify: exit %d", code)
	}
	b, _ := os.ReadFile(path)
	if !strings.Contains(string(b), `"warnings": [`) {
		t.Errorf("no warning in %s", b)
	}
	// A program with a property has none.
	if _, stderr, _ := fencer(t, "verify", bench("sb.cs")); strings.Contains(stderr, "warning") {
		t.Errorf("sb.cs: %s", stderr)
	}
}
