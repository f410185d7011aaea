package htmlpage

import (
	"fmt"
	"slices"
	"strings"

	"fencer/report"
)

// This file lays out a run under a store-buffer model as a timeline: time
// runs down, one row per step; each process that moves has a lane (a
// column), where its steps are boxes labelled with the source line, the
// statement and the effect; right of a lane's boxes, each write that
// waits in a store buffer is a bar from the row that issues it to the
// row where it reaches memory (open at the bottom when it never does);
// the rightmost column has the memory cells each step touches. The
// reordering marked has both its steps outlined and joined, and for a
// fence a dashed line under the write: where the fence goes.

// scene is an SVG picture as the template draws it: groups of shapes.
type scene struct {
	W, H   int
	Groups []group
}

// group is one <g>: a step, an event, a buffered write, an edge, a lane.
type group struct {
	Class   string
	ID      string
	Step    int // data-step; 0: none
	Line    int // a link to this line of the source listing; 0: none
	Title   string
	Rects   []rect
	Paths   []path
	Circles []circle
	Texts   []text
}

type rect struct {
	X, Y, W, H, R int
	Class         string
}

type path struct {
	D     string
	Class string
	Arrow bool
}

type circle struct {
	X, Y, R int
	Class   string
}

type text struct {
	X, Y  int
	Class string
	S     string
}

const (
	rowH   = 40  // one step
	top    = 40  // the lane headings
	numW   = 56  // the step numbers and the arcs of the pairs marked
	boxW   = 250 // a step's box
	slotW  = 12  // one buffered write's bar
	laneGp = 18  // between lanes
	memW   = 190 // the memory column
	chars  = 38  // what fits in a box at 11px monospace
)

// timeline draws tr with the reorderings marked (fence: a fence's
// witness, whose fence is drawn under the write of each).
func timeline(id string, tr *report.Trace, marked []report.Reordering, fence bool) scene {
	// The lanes: the processes that move, in declaration order.
	moves := map[string]bool{}
	for _, s := range tr.Steps {
		moves[s.Process] = true
	}
	var lanes []string
	for _, p := range tr.Procs() {
		if moves[p] {
			lanes = append(lanes, p)
		}
	}
	for _, s := range tr.Steps { // a trace without its program's process list
		if !slices.Contains(lanes, s.Process) {
			lanes = append(lanes, s.Process)
		}
	}
	bars := bufferBars(tr)
	slots := map[string]int{} // per lane, the bars side by side at most
	for _, b := range bars {
		slots[b.proc] = max(slots[b.proc], b.slot+1)
	}
	laneX := map[string]int{}
	x := numW
	for _, p := range lanes {
		laneX[p] = x
		x += boxW + 10 + slots[p]*slotW + laneGp
	}
	memX := x
	n := len(tr.Steps)
	sc := scene{W: memX + memW, H: top + n*rowH + 50}
	rowY := func(step int) int { return top + (step-1)*rowH } // top of row step (1-based)
	mid := func(step int) int { return rowY(step) + rowH/2 }

	// Lanes and headings.
	for _, p := range lanes {
		w := boxW + 10 + slots[p]*slotW
		sc.Groups = append(sc.Groups, group{Class: "lanes", Rects: []rect{{X: laneX[p] - 4, Y: top - 4, W: w + 8, H: n*rowH + 8, Class: "lane"}},
			Texts: []text{{X: laneX[p], Y: top - 14, Class: "head", S: p}}})
	}
	sc.Groups = append(sc.Groups, group{Class: "lanes", Texts: []text{{X: memX, Y: top - 14, Class: "head", S: "memory touched"}}})

	isMarked := map[int]bool{}
	for _, r := range marked {
		isMarked[r.Write.Step], isMarked[r.Later.Step] = true, true
	}
	lastOf := map[string]int{}
	if tr.Property != nil {
		for _, s := range tr.Steps {
			if slices.Contains(tr.Property.Processes, s.Process) {
				lastOf[s.Process] = s.Step
			}
		}
	}
	// The steps: one group each.
	for _, s := range tr.Steps {
		x := laneX[s.Process]
		class := "step " + s.Action
		if isMarked[s.Step] {
			class += " marked"
		}
		if lastOf[s.Process] == s.Step {
			class += " last"
		}
		where := ""
		if s.Line > 0 {
			where = fmt.Sprintf("%d: ", s.Line)
		}
		g := group{Class: class, ID: fmt.Sprintf("%s-s%d", id, s.Step), Step: s.Step, Line: s.Line,
			Title: fmt.Sprintf("step %d, %s, line %d: %s  %s", s.Step, s.Process, s.Line, s.Statement, s.Effect),
			Rects: []rect{{X: x, Y: rowY(s.Step) + 3, W: boxW, H: rowH - 6, R: 4, Class: "box"}},
			Texts: []text{
				{X: 4, Y: mid(s.Step) + 4, Class: "num", S: fmt.Sprint(s.Step)},
				{X: x + 6, Y: rowY(s.Step) + 17, Class: "stmt", S: clip(where+s.Statement, chars)},
				{X: x + 6, Y: rowY(s.Step) + 31, Class: "eff", S: clip(s.Effect, chars)},
			}}
		if mem := memoryTouched(tr, s); mem != "" {
			g.Texts = append(g.Texts, text{X: memX, Y: mid(s.Step) + 4, Class: "mem", S: clip(mem, memW/7)})
		}
		sc.Groups = append(sc.Groups, g)
	}
	// The buffered writes.
	for _, b := range bars {
		bx := laneX[b.proc] + boxW + 10 + b.slot*slotW
		y0 := mid(b.from)
		g := group{Class: "buf", Title: fmt.Sprintf("%s = %d: issued at step %d, ", b.variable, b.value, b.from)}
		g.Paths = append(g.Paths, path{D: fmt.Sprintf("M%d,%d H%d", laneX[b.proc]+boxW, y0, bx)})
		if b.to > 0 {
			y1 := mid(b.to)
			g.Title += fmt.Sprintf("reaches memory at step %d", b.to)
			g.Rects = append(g.Rects, rect{X: bx, Y: y0 - 3, W: slotW - 4, H: y1 - y0 + 6, R: 3})
			g.Circles = append(g.Circles, circle{X: bx + (slotW-4)/2, Y: y1, R: 4})
		} else {
			g.Title += "still buffered at the end"
			g.Rects = append(g.Rects, rect{X: bx, Y: y0 - 3, W: slotW - 4, H: top + n*rowH - y0, R: 3, Class: "open"})
		}
		sc.Groups = append(sc.Groups, g)
	}
	// The reorderings marked.
	for _, r := range marked {
		x := laneX[r.Process]
		if _, ok := laneX[r.Process]; !ok {
			continue
		}
		y0, y1 := mid(r.Write.Step), mid(r.Later.Step)
		g := group{Class: "reordering", Title: r.Description,
			Paths: []path{{D: fmt.Sprintf("M%d,%d C%d,%d %d,%d %d,%d", x, y0, x-18, y0, x-18, y1, x, y1), Class: "pair", Arrow: true}}}
		if fence {
			fy := rowY(r.Write.Step) + rowH - 1
			g.Paths = append(g.Paths, path{D: fmt.Sprintf("M%d,%d H%d", x-4, fy, x+boxW+4), Class: "fence"})
			g.Rects = append(g.Rects, rect{X: x + boxW - 44, Y: fy - 7, W: 40, H: 14, R: 3, Class: "tag"})
			g.Texts = append(g.Texts, text{X: x + boxW - 38, Y: fy + 4, Class: "tag", S: "fence"})
		}
		sc.Groups = append(sc.Groups, g)
	}
	// The property that fails.
	if pr := tr.Property; pr != nil {
		y := top + n*rowH + 12
		sc.Groups = append(sc.Groups, group{Class: "violated", Title: pr.Description,
			Rects: []rect{{X: numW, Y: y, W: sc.W - numW - 8, H: 26, R: 4, Class: "property"}},
			Texts: []text{{X: numW + 8, Y: y + 17, Class: "mark", S: clip("violated: "+pr.Description, (sc.W-numW-24)/7)}}})
	}
	return sc
}

// bar is one write that waits in a store buffer: issued at row from,
// reaching memory at row to (0: not in the trace), drawn in slot of its
// lane.
type bar struct {
	proc, variable string
	value          int64
	from, to, slot int
}

// bufferBars matches each buffered write of tr with the flush that takes
// it to memory: under TSO the buffer of a process is one queue, under
// PSO one per process and variable, and a flush takes the oldest entry.
func bufferBars(tr *report.Trace) []bar {
	if tr.Model == "sc" {
		return nil
	}
	queue := map[string][]int{} // buffer -> indexes in bars, oldest first
	key := func(s report.Step) string {
		if tr.Model == "pso" {
			return s.Process + "\x00" + s.Variable
		}
		return s.Process
	}
	var bars []bar
	for _, s := range tr.Steps {
		switch {
		case s.Action == "write" && s.Value != nil:
			queue[key(s)] = append(queue[key(s)], len(bars))
			bars = append(bars, bar{proc: s.Process, variable: s.Variable, value: *s.Value, from: s.Step})
		case s.Action == "flush":
			q := queue[key(s)]
			if len(q) > 0 {
				bars[q[0]].to = s.Step
				queue[key(s)] = q[1:]
			}
		}
	}
	// Slots: a bar takes the first slot of its lane free from its first
	// row to its last.
	busy := map[string][]int{} // per lane, the last row of each slot
	for i := range bars {
		b := &bars[i]
		end := b.to
		if end == 0 {
			end = len(tr.Steps) + 1
		}
		slots := busy[b.proc]
		b.slot = len(slots)
		for j, last := range slots {
			if last < b.from {
				b.slot = j
				break
			}
		}
		if b.slot == len(slots) {
			busy[b.proc] = append(slots, end)
		} else {
			slots[b.slot] = end
		}
	}
	return bars
}

// memoryTouched is the memory cells a step touches and those the property
// reads, after the step, as the text trace prints them.
func memoryTouched(tr *report.Trace, s report.Step) string {
	keep := s.Touched()
	if tr.Property != nil {
		keep = append(append([]string(nil), keep...), tr.Property.Reads()...)
	}
	var parts []string
	for _, v := range tr.Vars() {
		if val, ok := s.Memory[v]; ok && slices.Contains(keep, v) {
			parts = append(parts, fmt.Sprintf("%s=%d", v, val))
		}
	}
	return strings.Join(parts, " ")
}

// clip cuts s to n characters, ending with "…" when it is cut (the whole
// text is in the group's title).
func clip(s string, n int) string {
	r := []rune(s)
	if len(r) <= n || n < 2 {
		return s
	}
	return string(r[:n-1]) + "…"
}
