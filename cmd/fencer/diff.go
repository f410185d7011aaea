package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/pmezard/go-difflib/difflib"
)

// unifiedDiff writes the unified diff (3 lines of context) that turns a
// into b, with the headers "--- aName" and "+++ bName"; nothing when the
// texts are equal. A last line without a newline is marked as diff and
// patch expect ("\ No newline at end of file"). The matching is
// go-difflib's (Python difflib's algorithm); the hunks are written here.
func unifiedDiff(w io.Writer, aName, bName string, a, b []byte) error {
	al, bl := splitLines(string(a)), splitLines(string(b))
	groups := difflib.NewMatcher(al, bl).GetGroupedOpCodes(3)
	if len(groups) == 0 {
		return nil
	}
	var sb strings.Builder
	fmt.Fprintf(&sb, "--- %s\n+++ %s\n", aName, bName)
	for _, g := range groups {
		first, last := g[0], g[len(g)-1]
		fmt.Fprintf(&sb, "@@ -%s +%s @@\n", hunkRange(first.I1, last.I2), hunkRange(first.J1, last.J2))
		for _, op := range g {
			if op.Tag == 'e' {
				writeDiffLines(&sb, ' ', al[op.I1:op.I2])
				continue
			}
			if op.Tag == 'r' || op.Tag == 'd' {
				writeDiffLines(&sb, '-', al[op.I1:op.I2])
			}
			if op.Tag == 'r' || op.Tag == 'i' {
				writeDiffLines(&sb, '+', bl[op.J1:op.J2])
			}
		}
	}
	_, err := io.WriteString(w, sb.String())
	return err
}

// splitLines splits s after each newline; the last line may lack one.
func splitLines(s string) []string {
	lines := strings.SplitAfter(s, "\n")
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	return lines
}

func writeDiffLines(sb *strings.Builder, prefix byte, lines []string) {
	for _, l := range lines {
		sb.WriteByte(prefix)
		sb.WriteString(l)
		if !strings.HasSuffix(l, "\n") {
			sb.WriteString("\n\\ No newline at end of file\n")
		}
	}
}

// hunkRange is the "start,count" of a hunk header for lines [i, j): a
// count of 1 is left out, and an empty range starts at the line before.
func hunkRange(i, j int) string {
	switch n := j - i; n {
	case 0:
		return fmt.Sprintf("%d,0", i)
	case 1:
		return fmt.Sprintf("%d", i+1)
	default:
		return fmt.Sprintf("%d,%d", i+1, n)
	}
}

// originalOffset returns, for a byte offset of b, the offset in a of the
// same character when the diff of a and b keeps it, and false when b added
// it: lines are matched first (go-difflib), then the characters of each
// block of changed lines. run --hw names the asserts of the fenced program
// at the lines of the original with it.
func originalOffset(a, b []byte) func(off int) (int, bool) {
	al, bl := splitLines(string(a)), splitLines(string(b))
	starts := func(lines []string) []int {
		out := make([]int, len(lines)+1)
		for i, l := range lines {
			out[i+1] = out[i] + len(l)
		}
		return out
	}
	as, bs := starts(al), starts(bl)
	// An offset o of b in [b0, b1) of a run is a's o - b0 + a0.
	type run struct{ b0, b1, a0 int }
	var runs []run
	chars := func(s string) []string {
		out := make([]string, len(s))
		for i := range s {
			out[i] = s[i : i+1]
		}
		return out
	}
	for _, op := range difflib.NewMatcher(al, bl).GetOpCodes() {
		switch op.Tag {
		case 'e':
			runs = append(runs, run{bs[op.J1], bs[op.J2], as[op.I1]})
		case 'r':
			ta, tb := string(a[as[op.I1]:as[op.I2]]), string(b[bs[op.J1]:bs[op.J2]])
			for _, cop := range difflib.NewMatcher(chars(ta), chars(tb)).GetOpCodes() {
				if cop.Tag == 'e' {
					runs = append(runs, run{bs[op.J1] + cop.J1, bs[op.J1] + cop.J2, as[op.I1] + cop.I1})
				}
			}
		}
	}
	return func(off int) (int, bool) {
		for _, r := range runs {
			if r.b0 <= off && off < r.b1 {
				return off - r.b0 + r.a0, true
			}
		}
		return 0, false
	}
}
