package report

import (
	"path/filepath"
	"strings"
	"testing"

	"fencer/memmodel"
)

// The column layout gives each moving process a column; a table wider
// than Layout.Width is printed in rows instead, as is the zero Layout.
func TestLayouts(t *testing.T) {
	sys, err := parseFile(filepath.Join("..", "benchmarks", "sb.cs"))
	if err != nil {
		t.Fatal(err)
	}
	tr, states := shortestTrace(t, sys, memmodel.TSO)
	if tr == nil {
		t.Fatal("no TSO trace of sb.cs")
	}
	rep := BuildTrace(sys, memmodel.TSO, tr, states)
	var rows, cols, narrow strings.Builder
	PrintTrace(&rows, "sb.cs", rep, Layout{})
	PrintTrace(&cols, "sb.cs", rep, Layout{Columns: true})
	PrintTrace(&narrow, "sb.cs", rep, Layout{Columns: true, Width: 20})
	if !strings.HasPrefix(rows.String(), "#  process  where") {
		t.Errorf("rows:\n%s", rows.String())
	}
	if !strings.HasPrefix(cols.String(), "(sb.cs; line: statement  effect)\n#  P[0]") || !strings.Contains(cols.String(), "P[1]") {
		t.Errorf("columns:\n%s", cols.String())
	}
	if narrow.String() != rows.String() {
		t.Errorf("a table wider than 20 columns is not printed in rows:\n%s", narrow.String())
	}
	for _, out := range []string{rows.String(), cols.String()} {
		if !strings.Contains(out, "violated: ") {
			t.Errorf("no violated line:\n%s", out)
		}
	}
}
