package main

import (
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"

	"github.com/olekukonko/tablewriter"

	"fencer/cs"
	"fencer/kabs"
)

// traceRow is one step of a trace as shown to users and put in JSON.
type traceRow struct {
	Step      int               `json:"step"`
	Process   string            `json:"process"`
	Line      int               `json:"line,omitempty"` // 0 for a flush
	Operation string            `json:"operation"`
	Buffers   map[string]string `json:"buffers,omitempty"`
	Memory    map[string]int64  `json:"memory"`
}

// traceRows describes each step of a replayed trace: states[i] is the state
// after i steps.
func traceRows(sys *cs.System, m kabs.Model, tr *kabs.Trace, states []*kabs.State) []traceRow {
	c := kabs.NewConcrete(sys, m)
	var rows []traceRow
	for i, st := range tr.Steps {
		after := states[i+1]
		proc := sys.Procs[st.Proc]
		row := traceRow{Step: i + 1, Process: proc.Name, Memory: map[string]int64{}, Buffers: map[string]string{}}
		if st.IsFlush() {
			row.Operation = fmt.Sprintf("flush %s = %d", c.Name(st.Var), after.Vals[st.Var])
		} else {
			e := proc.Edges[st.Edge]
			row.Line = sys.File.Line(e.Pos)
			row.Operation = describeOp(c, e.Op, states[i], after)
		}
		for x := 0; x < c.NumShared(); x++ {
			row.Memory[c.Name(x)] = after.Vals[x]
		}
		for p, q := range sys.Procs {
			var parts []string
			for _, en := range c.Buffered(after, p) {
				parts = append(parts, fmt.Sprintf("%s=%d", c.Name(en.Var), en.Val))
			}
			if len(parts) > 0 {
				row.Buffers[q.Name] = strings.Join(parts, ",")
			}
		}
		rows = append(rows, row)
	}
	return rows
}

// describeOp prints an operation with the values it read or wrote.
func describeOp(c *kabs.Concrete, op cs.Op, before, after *kabs.State) string {
	val := func(name string) string {
		if i := c.Slot(name); i >= 0 {
			return strconv.FormatInt(after.Vals[i], 10)
		}
		return "?"
	}
	switch op.Kind {
	case cs.OpRead:
		return fmt.Sprintf("%s (= %s)", op, val(op.Local))
	case cs.OpAssign, cs.OpHavoc:
		return fmt.Sprintf("%s (= %s)", op, val(op.Local))
	}
	return op.String()
}

// printTrace writes the trace as a table.
func printTrace(w io.Writer, rows []traceRow) {
	t := tablewriter.NewWriter(w)
	t.SetHeader([]string{"#", "process", "line", "operation", "buffers", "memory"})
	t.SetAutoWrapText(false)
	t.SetBorder(false)
	t.SetColumnSeparator(" ")
	t.SetHeaderLine(true)
	t.SetAutoFormatHeaders(false)
	t.SetAlignment(tablewriter.ALIGN_LEFT)
	for _, r := range rows {
		line := ""
		if r.Line > 0 {
			line = strconv.Itoa(r.Line)
		}
		t.Append([]string{strconv.Itoa(r.Step), r.Process, line, r.Operation, joinSorted(r.Buffers, ": ", "; "), joinSorted(r.Memory, "=", " ")})
	}
	t.Render()
}

// joinSorted prints a map as "k<sep>v" pairs in key order.
func joinSorted[V any](m map[string]V, sep, between string) string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = fmt.Sprintf("%s%s%v", k, sep, m[k])
	}
	return strings.Join(parts, between)
}
