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
