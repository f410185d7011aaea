package cgen

import "fencer/cs"

// shape is what the generator needs to know about the automaton of one
// process beyond its edges.
type shape struct {
	// back[e] marks the back edges of a depth-first search from location 0:
	// every cycle of the automaton contains one, so counting them bounds the
	// run of a process.
	back []bool
	// work[e] marks the back edges of loops that write shared memory (a
	// write or an atomic step inside the loop): iterations of such a loop
	// are what --iterations bounds. The other back edges close loops that
	// only read (busy-waits), which run until the memory they read changes.
	work []bool
}

// writes reports whether op changes shared memory or is a locked step.
func writes(op cs.Op) bool { return op.Kind == cs.OpWrite || op.Kind == cs.OpAtomic }

func analyse(p *cs.Process) shape {
	n := p.NumLocs
	sh := shape{back: make([]bool, len(p.Edges)), work: make([]bool, len(p.Edges))}

	// Back edges: an iterative depth-first search from location 0.
	const (
		white = iota
		grey
		black
	)
	color := make([]int, n)
	type frame struct {
		loc  cs.Loc
		next int
	}
	stack := []frame{{0, 0}}
	color[0] = grey
	for len(stack) > 0 {
		f := &stack[len(stack)-1]
		if f.next == len(p.Out[f.loc]) {
			color[f.loc] = black
			stack = stack[:len(stack)-1]
			continue
		}
		ei := p.Out[f.loc][f.next]
		f.next++
		to := p.Edges[ei].To
		switch color[to] {
		case grey:
			sh.back[ei] = true
		case white:
			color[to] = grey
			stack = append(stack, frame{to, 0})
		}
	}

	// Predecessors, for the natural loops.
	in := make([][]int, n)
	for i, e := range p.Edges {
		in[e.To] = append(in[e.To], i)
	}

	// The natural loop of a back edge u -> h: h and every location that
	// reaches u without passing h.
	for ei, isBack := range sh.back {
		if !isBack {
			continue
		}
		u, h := p.Edges[ei].From, p.Edges[ei].To
		body := map[cs.Loc]bool{h: true}
		todo := []cs.Loc{}
		if !body[u] {
			body[u] = true
			todo = append(todo, u)
		}
		for len(todo) > 0 {
			l := todo[len(todo)-1]
			todo = todo[:len(todo)-1]
			for _, j := range in[l] {
				if f := p.Edges[j].From; !body[f] {
					body[f] = true
					todo = append(todo, f)
				}
			}
		}
		for _, e := range p.Edges {
			if body[e.From] && body[e.To] && writes(e.Op) {
				sh.work[ei] = true
				break
			}
		}
	}

	return sh
}
