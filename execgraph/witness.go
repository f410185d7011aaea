package execgraph

import (
	"fmt"
	"io"
	"slices"
	"sort"
	"strconv"
	"strings"

	"fencer/cs"
)

// WEvent is one event of a witness, as reports show it.
type WEvent struct {
	ID    int    `json:"id"`
	Proc  string `json:"process"`
	Kind  string `json:"kind"` // "R" or "W"
	Var   string `json:"var"`
	Value int64  `json:"value"`
	Ann   string `json:"annotation,omitempty"`
	RMW   bool   `json:"rmw,omitempty"`
	At    string `json:"at"` // file:line:col of the access
	Text  string `json:"text,omitempty"`
}

// WEdge is one edge of a witness's relations.
type WEdge struct {
	From int    `json:"from"` // event id, -1 for the initial write
	To   int    `json:"to"`
	Rel  string `json:"rel"` // po, rf, co, fr
}

// Witness is a bad execution as reports show it: its events per process in
// program order, rf, co, and a cycle of po ∪ rf ∪ co ∪ fr that the model
// allows and SC forbids (empty for an SC bug).
type Witness struct {
	Model  string           `json:"model"`
	Events []WEvent         `json:"events"`
	RF     []WEdge          `json:"rf"`
	CO     map[string][]int `json:"co"`
	Cycle  []WEdge          `json:"cycle"`
	// Property is the bad state the execution reaches, in words: a failed
	// assert of a process, or the processes at the locations of a
	// forbidden or mutex declaration (or of a litmus test's outcome).
	Property string                 `json:"property,omitempty"`
	Final    map[string]interface{} `json:"-"`
}

// Witness describes x; text gives a statement's text at a position ("" if
// unknown).
func (e *Explorer) Witness(x *Execution, text func(cs.Pos) string) *Witness {
	c := x.c
	w := &Witness{Model: e.m.Name(), CO: map[string][]int{}}
	for id, n := range c.nodes {
		k := "R"
		if n.ev.Kind == Write {
			k = "W"
		}
		we := WEvent{ID: id, Proc: e.sys.Procs[n.proc].Name, Kind: k, Var: n.ev.Var, Value: n.ev.Val,
			Ann: n.ann.String(), RMW: n.ev.RMW >= 0, At: e.sys.Position(n.ev.Pos).String()}
		if text != nil {
			we.Text = text(n.ev.Pos)
		}
		w.Events = append(w.Events, we)
		if n.ev.Kind == Read {
			w.RF = append(w.RF, WEdge{x.RF[id], id, "rf"})
		}
	}
	for v, co := range x.CO {
		w.CO[v] = append([]int(nil), co...)
	}
	w.Cycle = x.scCycle()
	w.Property = e.describeTarget(x.target)
	return w
}

// describeTarget says what bad state target ti is: "P1: an assertion
// fails (line 12)", "P0@outcome, P1@outcome (line 9)".
func (e *Explorer) describeTarget(ti int) string {
	ts := e.targets()
	if ti < 0 || ti >= len(ts) {
		return ""
	}
	t := ts[ti]
	if len(t.procs) == 1 && t.locs[0] == e.sys.Procs[t.procs[0]].ErrLoc {
		proc := e.sys.Procs[t.procs[0]]
		line := 0
		for _, ed := range proc.Edges {
			if ed.To != proc.ErrLoc {
				continue
			}
			if l := e.sys.File.Line(ed.Pos); line == 0 || line == l {
				line = l
			} else {
				return proc.Name + ": an assertion fails"
			}
		}
		return fmt.Sprintf("%s: an assertion fails (line %d)", proc.Name, line)
	}
	var at []string
	for i, p := range t.procs {
		proc := e.sys.Procs[p]
		label := strconv.Itoa(int(t.locs[i]))
		var names []string
		for n, l := range proc.Labels {
			if l == t.locs[i] {
				names = append(names, n)
			}
		}
		if len(names) > 0 {
			sort.Strings(names)
			label = names[0]
		}
		at = append(at, proc.Name+"@"+label)
	}
	d := "bad state " + strings.Join(at, ", ")
	for _, b := range e.sys.Bad {
		if slices.Equal(b.Procs, t.procs) && slices.Equal(b.Locs, t.locs) {
			d += fmt.Sprintf(" (line %d)", e.sys.File.Line(b.Pos))
			break
		}
	}
	return d
}

// scCycle is a shortest cycle of po ∪ rf ∪ co ∪ fr, or nil.
func (x *Execution) scCycle() []WEdge {
	n := len(x.c.nodes)
	succ := func(u int) []WEdge {
		var out []WEdge
		x.po(u, func(v int) bool {
			if v == x.c.byProc[x.c.nodes[u].proc][x.c.nodes[u].idx+1] {
				out = append(out, WEdge{u, v, "po"})
			}
			return true
		})
		x.com(u, true, func(v int, rel string) bool { out = append(out, WEdge{u, v, rel}); return true })
		return out
	}
	var best []WEdge
	for s := 0; s < n; s++ {
		prev := make([]WEdge, n)
		seen := make([]bool, n)
		queue := []int{s}
		seen[s] = true
		for len(queue) > 0 {
			u := queue[0]
			queue = queue[1:]
			done := false
			for _, ed := range succ(u) {
				if ed.To == s {
					cyc := []WEdge{ed}
					for v := u; v != s; v = prev[v].From {
						cyc = append([]WEdge{prev[v]}, cyc...)
					}
					if best == nil || len(cyc) < len(best) {
						best = cyc
					}
					done = true
					break
				}
				if !seen[ed.To] {
					seen[ed.To] = true
					prev[ed.To] = ed
					queue = append(queue, ed.To)
				}
			}
			if done {
				break
			}
		}
	}
	return best
}

// Print writes the witness as text: the events of each process in
// program order at their source positions, rf and co, and the cycle.
func (w *Witness) Print(out io.Writer) {
	name := func(id int) string {
		if id < 0 {
			return "init"
		}
		e := w.Events[id]
		return fmt.Sprintf("%s:%s %s=%d", e.Proc, e.Kind, e.Var, e.Value)
	}
	proc := ""
	for _, e := range w.Events {
		if e.Proc != proc {
			fmt.Fprintf(out, "  %s\n", e.Proc)
			proc = e.Proc
		}
		ann := ""
		if e.Ann != "" {
			ann = " (" + e.Ann + ")"
		}
		src := ""
		for _, rf := range w.RF {
			if rf.To == e.ID {
				src = "   reads from " + name(rf.From)
			}
		}
		text := ""
		if e.Text != "" {
			text = "  " + e.Text
		}
		fmt.Fprintf(out, "    e%-3d %s %s = %d%s   %s%s%s\n", e.ID, e.Kind, e.Var, e.Value, ann, e.At, text, src)
	}
	var vars []string
	for v := range w.CO {
		vars = append(vars, v)
	}
	sort.Strings(vars)
	for _, v := range vars {
		if len(w.CO[v]) < 2 {
			continue
		}
		parts := []string{"init"}
		for _, id := range w.CO[v] {
			parts = append(parts, fmt.Sprintf("e%d", id))
		}
		fmt.Fprintf(out, "  co %s: %s\n", v, strings.Join(parts, " -> "))
	}
	if len(w.Cycle) > 0 {
		parts := []string{}
		for _, ed := range w.Cycle {
			parts = append(parts, fmt.Sprintf("e%d -%s->", ed.From, ed.Rel))
		}
		parts = append(parts, fmt.Sprintf("e%d", w.Cycle[0].From))
		fmt.Fprintf(out, "  cycle (%s allows it, SC does not): %s\n", w.Model, strings.Join(parts, " "))
	}
	if w.Property != "" {
		fmt.Fprintf(out, "  violated: %s\n", w.Property)
	}
}
