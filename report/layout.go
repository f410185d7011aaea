package report

import (
	"bytes"
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
)

// This file prints traces as tables: in rows, one column per field
// (PrintTrace), or in the column-per-process layout.
//
// The column-per-process layout of a trace: one column per process that
// moves in the trace, each row filled only in the column of the process
// that takes the step ("20: flag[i] = 1;  write flag[0] = 1 (buffered)"),
// then the buffers and the memory. Interleavings read top to bottom, one
// process per column. The command line's --layout auto (the
// default) uses it on a terminal wide enough for every line, rows
// otherwise (and always into a pipe or a file, so that what scripts and
// golden files read does not depend on the terminal).

// Layout is how PrintTrace lays out a trace: the zero Layout is rows, each
// showing what its step touches.
type Layout struct {
	// Full shows in every row every non-empty store buffer and every
	// shared variable's value (--trace full). Without it a row shows the
	// buffers of the process that moves and the memory cells the step
	// reads, writes or flushes, with those the property reads: a run of
	// a program with many variables stays as wide as its statements.
	Full bool
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
		header = append(header, bufferHeader(tr.Model, lay.Full, false))
	}
	header = append(header, memoryHeader(lay.Full))
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
			row[len(row)-2] = bufferText(rowBuffers(r, lay.Full), tr.Model, lay.Full)
		}
		row[len(row)-1] = memoryText(tr.vars, rowMemory(tr, r, lay.Full))
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

// bufferText prints the buffers of a row: under TSO one queue per process,
// oldest first ("P[0]: [flag[0]=1, turn=0]"); under PSO one queue per
// variable ("P[0]: flag[0]=[1], turn=[0 1]"). Without named (the buffers
// of the process that moves) the process's name is left out.
func bufferText(bs []Buffer, m string, named bool) string {
	var parts []string
	byProc := map[string][]string{}
	var order []string
	for _, b := range bs {
		if _, ok := byProc[b.Process]; !ok {
			order = append(order, b.Process)
		}
		var vs []string
		if m == "pso" {
			for _, w := range b.Writes {
				vs = append(vs, strconv.FormatInt(w.Value, 10))
			}
			byProc[b.Process] = append(byProc[b.Process], fmt.Sprintf("%s=[%s]", b.Variable, strings.Join(vs, " ")))
			continue
		}
		for _, w := range b.Writes {
			vs = append(vs, fmt.Sprintf("%s=%d", w.Variable, w.Value))
		}
		byProc[b.Process] = append(byProc[b.Process], "["+strings.Join(vs, ", ")+"]")
	}
	for _, p := range order {
		if !named {
			parts = append(parts, strings.Join(byProc[p], ", "))
			continue
		}
		parts = append(parts, p+": "+strings.Join(byProc[p], ", "))
	}
	return strings.Join(parts, "; ")
}

// bufferHeader is the title of the buffers column: of every process
// (full) or of the one that moves; rows (the row layout) says how a
// buffer is ordered.
func bufferHeader(model string, full, rows bool) string {
	h := "buffers"
	switch {
	case !full && model == "tso":
		h = "its buffer"
	case !full:
		h = "its buffers"
	}
	switch {
	case rows && model == "pso":
		h += " (per variable)"
	case rows && model == "tso":
		h += " (oldest first)"
	}
	return h
}

func memoryHeader(full bool) string {
	if full {
		return "memory"
	}
	return "memory touched"
}

// rowBuffers are the buffers a row shows: all (full), or those of the
// process that moves.
func rowBuffers(r Step, full bool) []Buffer {
	if full {
		return r.Buffers
	}
	var out []Buffer
	for _, b := range r.Buffers {
		if b.Process == r.Process {
			out = append(out, b)
		}
	}
	return out
}

// rowMemory is the memory a row shows: every cell (full), or the cells
// the step touches and those the property reads.
func rowMemory(tr *Trace, r Step, full bool) map[string]int64 {
	if full {
		return r.Memory
	}
	out := map[string]int64{}
	keep := r.touched
	if tr.Property != nil {
		keep = append(slices.Clone(keep), tr.Property.reads...)
	}
	for _, v := range keep {
		if val, ok := r.Memory[v]; ok {
			out[v] = val
		}
	}
	return out
}

// memoryText prints the memory in declaration order.
func memoryText(vars []string, ms map[string]int64) string {
	parts := make([]string, 0, len(ms))
	for _, v := range vars {
		if val, ok := ms[v]; ok {
			parts = append(parts, fmt.Sprintf("%s=%d", v, val))
		}
	}
	return strings.Join(parts, " ")
}

// PrintTrace writes a trace as a table, then the violated property.
//
// With lay.Columns each process has a column of its own instead, when
// the table fits in lay.Width (printColumns).
func PrintTrace(w io.Writer, file string, tr *Trace, lay Layout) {
	if printColumns(w, file, tr, lay) {
		return
	}
	base := filepath.Base(file)
	header := []string{"#", "process", "where", "statement", "effect", bufferHeader(tr.Model, lay.Full, true), memoryHeader(lay.Full)}
	rows := make([][]string, 0, len(tr.Steps))
	for _, r := range tr.Steps {
		where := ""
		if r.Line > 0 {
			where = fmt.Sprintf("%s:%d", base, r.Line)
		}
		row := []string{strconv.Itoa(r.Step), r.Process, where, r.Statement, r.Effect,
			bufferText(rowBuffers(r, lay.Full), tr.Model, lay.Full), memoryText(tr.vars, rowMemory(tr, r, lay.Full))}
		rows = append(rows, row)
	}
	if tr.Model == "sc" {
		header = append(header[:5], header[6])
		for i := range rows {
			rows[i] = append(rows[i][:5], rows[i][6])
		}
	}
	writeTable(w, header, rows)
	if tr.Property != nil {
		fmt.Fprintf(w, "violated: %s\n", tr.Property.Description)
	}
}

// writeTable prints left-aligned columns separated by two blanks, with a
// rule under the header; trailing blanks are trimmed so that golden files
// stay stable.
func writeTable(w io.Writer, header []string, rows [][]string) {
	width := make([]int, len(header))
	for _, r := range append([][]string{header}, rows...) {
		for i, c := range r {
			if n := len([]rune(c)); n > width[i] {
				width[i] = n
			}
		}
	}
	line := func(cells []string) {
		var b strings.Builder
		for i, c := range cells {
			b.WriteString(c)
			if i < len(cells)-1 {
				b.WriteString(strings.Repeat(" ", width[i]-len([]rune(c))+2))
			}
		}
		fmt.Fprintln(w, strings.TrimRight(b.String(), " "))
	}
	line(header)
	rule := make([]string, len(header))
	for i := range rule {
		rule[i] = strings.Repeat("-", width[i])
	}
	line(rule)
	for _, r := range rows {
		line(r)
	}
}
