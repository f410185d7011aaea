package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"pgregory.net/rapid"
)

// applyDiff applies a unified diff to a, checking every context and
// removed line: a small patch(1) for the tests.
func applyDiff(a, diff string) (string, error) {
	al := splitLinesOrNone(a)
	dl := splitLinesOrNone(diff)
	if len(dl) < 2 || !strings.HasPrefix(dl[0], "--- ") || !strings.HasPrefix(dl[1], "+++ ") {
		return "", fmt.Errorf("no header: %q", diff)
	}
	var out []string
	next := 0 // the next line of a to copy
	for i := 2; i < len(dl); {
		var as, an, bs, bn int
		h := strings.TrimSuffix(dl[i], "\n")
		if _, err := fmt.Sscanf(rangeForm(h), "@@ -%d,%d +%d,%d @@", &as, &an, &bs, &bn); err != nil {
			return "", fmt.Errorf("hunk header %q: %v", h, err)
		}
		start := as - 1
		if an == 0 {
			start = as
		}
		if start < next || start > len(al) {
			return "", fmt.Errorf("hunk %q out of order", h)
		}
		out = append(out, al[next:start]...)
		next = start
		for i++; i < len(dl) && !strings.HasPrefix(dl[i], "@@"); i++ {
			line := dl[i][1:]
			if i+1 < len(dl) && strings.HasPrefix(dl[i+1], "\\") {
				line = strings.TrimSuffix(line, "\n")
			}
			switch dl[i][0] {
			case ' ', '-':
				if next >= len(al) || al[next] != line {
					return "", fmt.Errorf("line %d: want %q", next+1, line)
				}
				if dl[i][0] == ' ' {
					out = append(out, line)
				}
				next++
			case '+':
				out = append(out, line)
			case '\\':
			default:
				return "", fmt.Errorf("bad diff line %q", dl[i])
			}
		}
	}
	out = append(out, al[next:]...)
	return strings.Join(out, ""), nil
}

// rangeForm writes the counts that a hunk header leaves out ("@@ -3 +3,2 @@").
func rangeForm(h string) string {
	f := strings.Fields(h)
	for i := 1; i <= 2 && i < len(f); i++ {
		if !strings.Contains(f[i], ",") {
			f[i] += ",1"
		}
	}
	return strings.Join(f, " ")
}

func splitLinesOrNone(s string) []string {
	if s == "" {
		return nil
	}
	return splitLines(s)
}

func diffString(t interface{ Fatal(...any) }, a, b string) string {
	var buf bytes.Buffer
	if err := unifiedDiff(&buf, "x.cs", "x.cs", []byte(a), []byte(b)); err != nil {
		t.Fatal(err)
	}
	return buf.String()
}

// The diff of a and b, applied to a, gives b; it is empty exactly when a
// equals b.
func TestUnifiedDiffApplies(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		line := rapid.SampledFrom([]string{"a\n", "b\n", "c\n", "  fence;\n", "\n"})
		text := func(label string) string {
			s := strings.Join(rapid.SliceOfN(line, 0, 40).Draw(t, label), "")
			if s != "" && rapid.Bool().Draw(t, label+" ends without newline") {
				s = strings.TrimSuffix(s, "\n") + "z"
			}
			return s
		}
		a, b := text("a"), text("b")
		d := diffString(t, a, b)
		if (d == "") != (a == b) {
			t.Fatalf("diff of %q and %q: %q", a, b, d)
		}
		if d == "" {
			return
		}
		got, err := applyDiff(a, d)
		if err != nil || got != b {
			t.Fatalf("applying\n%s\nto %q: %q, %v; want %q", d, a, got, err, b)
		}
	})
}

func TestUnifiedDiffFormat(t *testing.T) {
	var a, b strings.Builder
	for i := 1; i <= 20; i++ {
		fmt.Fprintf(&a, "%d\n", i)
		fmt.Fprintf(&b, "%d\n", i)
		if i == 2 || i == 15 {
			b.WriteString("fence;\n")
		}
	}
	want := "--- x.cs\n+++ x.cs\n" +
		"@@ -1,5 +1,6 @@\n 1\n 2\n+fence;\n 3\n 4\n 5\n" +
		"@@ -13,6 +14,7 @@\n 13\n 14\n 15\n+fence;\n 16\n 17\n 18\n"
	if got := diffString(t, a.String(), b.String()); got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
	want = "--- x.cs\n+++ x.cs\n@@ -1 +1,2 @@\n-x = 1;\n\\ No newline at end of file\n+x = 1;\n+fence;\n"
	if got := diffString(t, "x = 1;", "x = 1;\nfence;\n"); got != want {
		t.Errorf("got:\n%q\nwant:\n%q", got, want)
	}
	if got := diffString(t, "", "a\n"); got != "--- x.cs\n+++ x.cs\n@@ -0,0 +1 @@\n+a\n" {
		t.Errorf("from empty: %q", got)
	}
}

// patch(1), where it is installed, agrees.
func TestUnifiedDiffPatch(t *testing.T) {
	if _, err := exec.LookPath("patch"); err != nil {
		t.Skip("no patch(1)")
	}
	dir := t.TempDir()
	a := "shared x;\nprocess P {\n  x = 1;\n  x = 2;\n}"
	b := "shared x;\nprocess P {\n  x = 1;\n  fence;\n  x = 2;\n  fence;\n}\n"
	os.WriteFile(filepath.Join(dir, "x.cs"), []byte(a), 0o644)
	cmd := exec.Command("patch", "-s", "-p0")
	cmd.Dir, cmd.Stdin = dir, strings.NewReader(diffString(t, a, b))
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("patch: %v\n%s", err, out)
	}
	if got, _ := os.ReadFile(filepath.Join(dir, "x.cs")); string(got) != b {
		t.Errorf("patched: %q, want %q", got, b)
	}
}
