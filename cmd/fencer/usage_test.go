package main

import (
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
		{[]string{"frobnicate", sb, "--model", "pso"}, `fencer: unknown command "frobnicate" (see fencer --help)`},
		{nil, "usage: fencer [global flags] COMMAND [flags] FILE... (commands: show, explore, verify, insert, check, bench, robust, completion, help; see fencer --help)"},
	}
	for _, c := range cases {
		out, stderr, code := fencer(t, c.args...)
		if code != 2 || out != "" || stderr != c.want+"\n" {
			t.Errorf("fencer %s: exit %d, stdout %q, stderr %q; want exit 2 and %q", strings.Join(c.args, " "), code, out, stderr, c.want)
		}
	}
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
	if !strings.Contains(out, "--workers value         goroutines that expand the states of an exploration (the states stored and the answer do not depend on it) (default: the number of CPUs, at most 4)") {
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
			if code != 2 || !strings.Contains(stderr, "cannot") {
				t.Errorf("insert %s %s: exit %d, %s", flag, file, code, stderr)
			}
		}
	}
	if refused == 0 {
		t.Skip("every format writes every kind and removes fences")
	}
}
