package htmlpage

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"fencer/execgraph"
)

// This file lays out an execution under arm, riscv or rmo as its graph, as
// herd draws one: a column per process with its events in program order
// under the initial writes, po between neighbours, rf from the write a
// read takes its value from, co between the writes of a variable, fr from
// a read to the writes coherence-after the one it read, and the cycle the
// model allows and SC forbids drawn thick; of the cycle's po edges, the
// one the change orders (it spans the change's line) is marked.

const (
	colW  = 330 // one process's column
	nodeW = 210
	nodeH = 38
	gapY  = 78 // between the tops of two events of a process
	initY = 34 // the row of the initial writes
	evTop = 112
)

// gnode is an event (id >= 0) or the initial write (id -1).
type gnode struct {
	id      int
	proc    string
	line    int
	x, y    int
	label   string
	sub     string
	incycle bool
}

// gedge is one edge of the drawing.
type gedge struct {
	from, to int
	rel      string
	cycle    bool
	marked   bool
}

type graph struct {
	id     string
	w      *execgraph.Witness
	events []gnode     // in the order of w.Events
	byID   map[int]int // event id -> index in events and w.Events
	init   gnode
	edges  []gedge
	width  int
	height int
}

// atLine is the line of an event's "file:line:col" (0 when unknown).
func atLine(at string) int {
	parts := strings.Split(at, ":")
	if len(parts) < 3 {
		return 0
	}
	n, _ := strconv.Atoi(parts[len(parts)-2])
	return n
}

func newGraph(id string, w *execgraph.Witness, change int, order bool) *graph {
	g := &graph{id: id, w: w, byID: map[int]int{}}
	for i, e := range w.Events {
		g.byID[e.ID] = i
	}
	event := func(id int) (execgraph.WEvent, bool) {
		i, ok := g.byID[id]
		if !ok {
			return execgraph.WEvent{}, false
		}
		return w.Events[i], true
	}
	var procs []string
	idx := map[string]int{}
	for _, e := range w.Events {
		if !slices.Contains(procs, e.Proc) {
			procs = append(procs, e.Proc)
		}
	}
	inCycle := map[int]bool{}
	for _, ed := range w.Cycle {
		inCycle[ed.From], inCycle[ed.To] = true, true
	}
	maxRows := 0
	for _, e := range w.Events {
		col := slices.Index(procs, e.Proc)
		row := idx[e.Proc]
		idx[e.Proc]++
		maxRows = max(maxRows, row+1)
		label := fmt.Sprintf("e%d  %s %s = %d", e.ID, e.Kind, e.Var, e.Value)
		if e.Ann != "" {
			label += " (" + e.Ann + ")"
		}
		line := atLine(e.At)
		sub := e.Text
		if line > 0 {
			sub = fmt.Sprintf("%d: %s", line, e.Text)
		}
		g.events = append(g.events, gnode{id: e.ID, proc: e.Proc, line: line, x: 20 + col*colW, y: evTop + row*gapY, label: label, sub: sub, incycle: inCycle[e.ID]})
	}
	g.width = 20 + max(len(procs), 1)*colW
	g.height = evTop + maxRows*gapY + 30
	g.init = gnode{id: -1, x: 20, y: initY, label: "initial values", sub: initText(w, event), incycle: inCycle[-1]}

	onCycle := map[[2]int]string{}
	for _, ed := range w.Cycle {
		onCycle[[2]int{ed.From, ed.To}] = ed.Rel
	}
	add := func(from, to int, rel string) {
		e := gedge{from: from, to: to, rel: rel, cycle: onCycle[[2]int{from, to}] == rel}
		g.edges = append(g.edges, e)
	}
	// po between neighbours of a process.
	for i := 1; i < len(w.Events); i++ {
		if w.Events[i].Proc == w.Events[i-1].Proc {
			add(w.Events[i-1].ID, w.Events[i].ID, "po")
		}
	}
	for _, rf := range w.RF {
		add(rf.From, rf.To, "rf")
	}
	vars := make([]string, 0, len(w.CO))
	for v := range w.CO {
		vars = append(vars, v)
	}
	slices.Sort(vars)
	for _, v := range vars {
		co := w.CO[v]
		for i := 1; i < len(co); i++ {
			add(co[i-1], co[i], "co")
		}
		// fr: a read to every write coherence-after the one it read.
		for _, rf := range w.RF {
			if r, ok := event(rf.To); !ok || r.Var != v {
				continue
			}
			after := 0 // the position in co after the write read
			if rf.From >= 0 {
				after = slices.Index(co, rf.From) + 1
				if after == 0 {
					continue
				}
			}
			for _, wr := range co[after:] {
				add(rf.To, wr, "fr")
			}
		}
	}
	// The marked pair: the cycle's po edge that the change orders (a
	// barrier after line change: the edge that spans it; an access
	// raised: the edges from or to it); every po edge of the cycle when
	// none matches (a trace to a bad state has no change).
	var cyclePO []int
	for i, e := range g.edges {
		if e.rel == "po" && e.cycle {
			cyclePO = append(cyclePO, i)
		}
	}
	for _, i := range cyclePO {
		a, b := g.node(g.edges[i].from), g.node(g.edges[i].to)
		switch {
		case change <= 0:
		case order && (a.line == change || b.line == change):
			g.edges[i].marked = true
		case !order && a.line <= change && change < b.line:
			g.edges[i].marked = true
		}
	}
	marked := false
	for _, e := range g.edges {
		marked = marked || e.marked
	}
	if !marked {
		for _, i := range cyclePO {
			g.edges[i].marked = true
		}
	}
	return g
}

// initText lists the initial values the execution reads.
func initText(w *execgraph.Witness, event func(int) (execgraph.WEvent, bool)) string {
	var vs []string
	for _, rf := range w.RF {
		if e, ok := event(rf.To); ok && rf.From < 0 {
			if s := fmt.Sprintf("%s = %d", e.Var, e.Value); !slices.Contains(vs, s) {
				vs = append(vs, s)
			}
		}
	}
	slices.Sort(vs)
	return strings.Join(vs, ", ")
}

// node is the node of event id, or of the initial writes (id -1, or an
// id the witness does not have).
func (g *graph) node(id int) *gnode {
	if i, ok := g.byID[id]; ok {
		return &g.events[i]
	}
	return &g.init
}

// scene draws the graph.
func (g *graph) scene() scene {
	sc := scene{W: g.width, H: g.height}
	n := g.init
	sc.Groups = append(sc.Groups, group{Class: "init", Title: "the initial writes",
		Rects: []rect{{X: n.x, Y: n.y, W: g.width - 40, H: nodeH, R: 4, Class: "box"}},
		Texts: []text{{X: n.x + 8, Y: n.y + 15, S: n.label}, {X: n.x + 8, Y: n.y + 30, Class: "eff", S: clip(n.sub, (g.width-60)/7)}}})
	var procs []string
	for _, e := range g.events {
		if !slices.Contains(procs, e.proc) {
			procs = append(procs, e.proc)
			sc.Groups = append(sc.Groups, group{Class: "lanes", Rects: []rect{{X: e.x - 6, Y: evTop - 6, W: nodeW + 12, H: g.height - evTop - 24, Class: "lane"}},
				Texts: []text{{X: e.x, Y: evTop - 12, Class: "head", S: e.proc}}})
		}
	}
	// Edges under the nodes.
	pairs := map[[2]int]int{} // how many edges join two nodes so far
	for _, e := range g.edges {
		k := [2]int{min(e.from, e.to), max(e.from, e.to)}
		nth := pairs[k]
		pairs[k]++
		d, lx, ly := g.route(e, nth)
		class := "edge " + e.rel
		if e.cycle {
			class += " cycle"
		}
		if e.marked {
			class += " marked"
		}
		title := fmt.Sprintf("%s: %s to %s", e.rel, g.name(e.from), g.name(e.to))
		if e.marked {
			title += " (the pair the change orders)"
		}
		sc.Groups = append(sc.Groups, group{Class: class, Title: title, Paths: []path{{D: d, Arrow: true}},
			Texts: []text{{X: lx, Y: ly, Class: "rel", S: e.rel}}})
	}
	for i, n := range g.events {
		class := "event"
		if n.incycle {
			class += " incycle"
		}
		ev := g.w.Events[i]
		sc.Groups = append(sc.Groups, group{Class: class, ID: fmt.Sprintf("%s-e%d", g.id, n.id), Step: i + 1, Line: n.line,
			Title: fmt.Sprintf("e%d: %s %s %s = %d at %s  %s", n.id, ev.Proc, ev.Kind, ev.Var, ev.Value, ev.At, ev.Text),
			Rects: []rect{{X: n.x, Y: n.y, W: nodeW, H: nodeH, R: 4, Class: "box"}},
			Texts: []text{{X: n.x + 8, Y: n.y + 15, S: clip(n.label, nodeW/7)}, {X: n.x + 8, Y: n.y + 30, Class: "eff", S: clip(n.sub, nodeW/7)}}})
	}
	return sc
}

func (g *graph) name(id int) string {
	if id < 0 {
		return "the initial write"
	}
	return fmt.Sprintf("e%d", id)
}

// route is the path of edge e (the nth between its two nodes) and where
// its label goes.
func (g *graph) route(e gedge, nth int) (string, int, int) {
	a, b := g.node(e.from), g.node(e.to)
	off := nth * 12
	gap := colW - nodeW
	if e.from < 0 {
		// From the initial writes: down the gap left of the target's
		// column, then into its left side (no box of the column is
		// crossed).
		gx := b.x - gap/3 - off
		y0, y1 := a.y+nodeH, b.y+nodeH/2+6
		return fmt.Sprintf("M%d,%d V%d Q%d,%d %d,%d", gx, y0, y1-10, gx, y1, b.x, y1), gx + 3, y0 + 14
	}
	if a.x == b.x {
		if e.rel == "po" {
			x := a.x + nodeW/2
			return fmt.Sprintf("M%d,%d L%d,%d", x, a.y+nodeH, x, b.y), x + 4, (a.y + nodeH + b.y) / 2
		}
		// Another edge within a column: a bow on the left side.
		bow := 30 + off
		y0, y1 := a.y+nodeH/2, b.y+nodeH/2
		return fmt.Sprintf("M%d,%d C%d,%d %d,%d %d,%d", a.x, y0, a.x-bow, y0, b.x-bow, y1, b.x, y1), a.x - bow + 2, (y0 + y1) / 2
	}
	// Across columns: from the side facing the target.
	x0, x1 := a.x+nodeW, b.x
	if b.x < a.x {
		x0, x1 = a.x, b.x+nodeW
	}
	if d := b.x - a.x; d > colW || d < -colW {
		// Past a column between: along the gaps and under every row, so
		// that no box hides the edge.
		g0, g1 := x0+gap/2-gap/6+off/2, x1-gap/2+gap/6-off/2
		if b.x < a.x {
			g0, g1 = x0-gap/2+gap/6-off/2, x1+gap/2-gap/6+off/2
		}
		ya, yb := a.y+nodeH/2+4, b.y+nodeH/2+4
		under := g.height - 14 - off/2
		return fmt.Sprintf("M%d,%d H%d V%d H%d V%d H%d", x0, ya, g0, under, g1, yb, x1), (g0 + g1) / 2, under - 3
	}
	y0, y1 := a.y+nodeH/2-8+off, b.y+nodeH/2-8+off
	cx := (x0 + x1) / 2
	return fmt.Sprintf("M%d,%d C%d,%d %d,%d %d,%d", x0, y0, cx, y0, cx, y1, x1, y1), cx - 6, (y0+y1)/2 - 4
}

// eventRow is a row of the table of events under the graph.
type eventRow struct {
	ID, Proc, Access, At, Text, From string
}

func (g *graph) rows() []eventRow {
	from := map[int]int{}
	for _, rf := range g.w.RF {
		from[rf.To] = rf.From
	}
	var out []eventRow
	for _, e := range g.w.Events {
		acc := fmt.Sprintf("%s %s = %d", e.Kind, e.Var, e.Value)
		if e.Ann != "" {
			acc += " (" + e.Ann + ")"
		}
		r := eventRow{ID: fmt.Sprintf("e%d", e.ID), Proc: e.Proc, Access: acc, At: e.At, Text: e.Text}
		if f, ok := from[e.ID]; ok {
			r.From = g.name(f)
		}
		out = append(out, r)
	}
	return out
}

// cycleText is the cycle in words ("" when there is none: an SC bug).
func (g *graph) cycleText() string {
	if len(g.w.Cycle) == 0 {
		return ""
	}
	var parts []string
	for _, ed := range g.w.Cycle {
		parts = append(parts, fmt.Sprintf("%s -%s->", g.name(ed.From), ed.Rel))
	}
	parts = append(parts, g.name(g.w.Cycle[0].From))
	return fmt.Sprintf("cycle (%s allows it, SC does not): %s", g.w.Model, strings.Join(parts, " "))
}
