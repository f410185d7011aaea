package report

import (
	"bytes"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// The column-per-process layout of a trace: one column per process that
// moves in the trace, each row filled only in the column of the process
// that takes the step ("20: flag[i] = 1;  write flag[0] = 1 (buffered)"),
// then the buffers and the memory. Interleavings read top to bottom, one
// process per column. The command line's --layout auto (the
// default) uses it on a terminal wide enough for every line, rows
// otherwise (and always into a pipe or a file, so that what scripts and
// golden files read does not depend on the terminal).

// Layout is how PrintTrace lays out a trace: the zero Layout is rows.
type Layout struct {
	// Columns asks for one column per process (when at least two move).
	Columns bool
	// Width, when positive, is the widest line the column layout may
	// print: a trace that needs more is printed in rows.
	Width int
}

// printColumns prints tr in the column layout when the layout asks for
// it and it fits; it reports whether it did.
func printColumns(w io.Writer, file string, tr *Trace, lay Layout) bool {
	if !lay.Columns {
		return false
	}
	width := lay.Width
	var moving []string
	seen := map[string]bool{}
	for _, r := range tr.Steps {
		seen[r.Process] = true
	}
	for _, p := range tr.procs {
		if seen[p] {
			moving = append(moving, p)
		}
	}
	if len(moving) < 2 {
		return false // one process: the row layout says the same
	}
	col := map[string]int{}
	header := []string{"#"}
	for i, p := range moving {
		col[p] = 1 + i
		header = append(header, p)
	}
	withBuffers := tr.Model != "sc"
	if withBuffers {
		header = append(header, "buffers")
	}
	header = append(header, "memory")
	rows := make([][]string, 0, len(tr.Steps))
	for _, r := range tr.Steps {
		row := make([]string, len(header))
		row[0] = strconv.Itoa(r.Step)
		cell := r.Statement + "  " + r.Effect
		if r.Line > 0 {
			cell = fmt.Sprintf("%d: %s", r.Line, cell)
		}
		row[col[r.Process]] = cell
		if withBuffers {
			row[len(row)-2] = bufferText(r.Buffers, tr.Model)
		}
		row[len(row)-1] = memoryText(tr.vars, r.Memory)
		rows = append(rows, row)
	}
	var b bytes.Buffer
	fmt.Fprintf(&b, "(%s; line: statement  effect)\n", file)
	writeTable(&b, header, rows)
	if width > 0 {
		for _, line := range strings.Split(b.String(), "\n") {
			if len([]rune(line)) > width {
				return false
			}
		}
	}
	if _, err := w.Write(b.Bytes()); err != nil {
		return false
	}
	if tr.Property != nil {
		fmt.Fprintf(w, "violated: %s\n", tr.Property.Description)
	}
	return true
}
