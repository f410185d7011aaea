package main

import (
	"bytes"
	"os/exec"
	"strings"
	"testing"
	"time"

	"fencer/cegar"
)

func TestStatusText(t *testing.T) {
	got := statusText(cegar.Status{Phase: "TSO", Round: 3, K: 1, Predicates: 12, States: 1544, Fences: 1}, 2300*time.Millisecond)
	want := "fencer: TSO · round 3 · k=1 · 12 predicates · 1544 abstract states · 1 fence · 2.3s"
	if got != want {
		t.Errorf("got  %q\nwant %q", got, want)
	}
	got = statusText(cegar.Status{Phase: "SC", Round: 1, Predicates: 1, States: 0}, 0)
	if want := "fencer: SC · round 1 · 1 predicate · 0 abstract states · 0.0s"; got != want {
		t.Errorf("got  %q\nwant %q", got, want)
	}
}

// The line is redrawn in place, cut to the terminal's width, and erased
// at the end; nothing is written before the first status.
func TestProgressLineDrawsAndErases(t *testing.T) {
	var b bytes.Buffer
	p := newProgressLine(&b, 30)
	p.draw()
	if b.Len() != 0 {
		t.Fatalf("drawn before any status: %q", b.String())
	}
	p.update(cegar.Status{Phase: "final check", Round: 2, K: 2, Predicates: 5, States: 10})
	p.draw()
	line := b.String()
	if !strings.HasPrefix(line, "\rfencer: final check") || !strings.HasSuffix(line, "\x1b[K") || len([]rune(line)) != 1+29+3 {
		t.Errorf("drawn %q", line)
	}
	go p.loop(time.Hour)
	p.finish()
	p.finish() // twice is harmless
	if !strings.HasSuffix(b.String(), "\r\x1b[K") {
		t.Errorf("not erased: %q", b.String())
	}
}

// Into a pipe (how the tests run the binary) there is never a progress
// line, whatever the run.
func TestNoProgressInAPipe(t *testing.T) {
	_, stderr, _ := fencer(t, "insert", "--timeout", "1s", bench("bakery.cs"))
	if strings.Contains(stderr, "\r") || strings.Contains(stderr, "round") {
		t.Errorf("progress written to a pipe: %q", stderr)
	}
}

// --layout takes rows, columns or auto; anything else is bad usage.
func TestLayoutFlag(t *testing.T) {
	_, stderr, code := fencer(t, "verify", "--layout", "wide", bench("sb.cs"))
	if code != 2 || !strings.Contains(stderr, `--layout "wide"`) {
		t.Errorf("exit %d, stderr %q", code, stderr)
	}
	out, _, code := fencer(t, "verify", "--layout", "rows", bench("sb.cs"))
	if code != 1 || !strings.Contains(out, "#  process  where") {
		t.Errorf("rows: exit %d:\n%s", code, out)
	}
	out, _, _ = fencer(t, "verify", bench("sb.cs")) // auto, into a pipe: rows
	if !strings.Contains(out, "#  process  where") {
		t.Errorf("auto into a pipe is not rows:\n%s", out)
	}
}

// On a terminal (a pseudo-terminal from script(1), when installed) the
// line is drawn and erased; -q and --json - turn it off.
func TestProgressOnATerminal(t *testing.T) {
	if _, err := exec.LookPath("script"); err != nil {
		t.Skip("no script(1) to run the binary on a pseudo-terminal")
	}
	run := func(args string) string {
		out, err := exec.Command("script", "-qec", binary+" "+args+" -D N=4 "+bench("scale/bakery.cs")+" >/dev/null", "/dev/null").CombinedOutput()
		if err != nil {
			if _, ok := err.(*exec.ExitError); !ok {
				t.Fatalf("script: %v", err)
			}
		}
		return string(out)
	}
	out := run("insert --timeout 1500ms")
	// which round is drawn first depends on how fast the rounds are
	if !strings.Contains(out, " · round ") || !strings.Contains(out, "\r\x1b[K") {
		t.Errorf("no progress line on a terminal: %q", out)
	}
	for _, args := range []string{"insert -q --timeout 1500ms", "verify --timeout 1500ms --json -"} {
		if out := run(args); strings.Contains(out, " · round ") {
			t.Errorf("%s: progress line drawn: %q", args, out)
		}
	}
}
