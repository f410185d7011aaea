package cgen

import (
	"fencer/cs"
	"fencer/expr"
)

// A parent is a process that starts the others, waits for all of them and
// does nothing while they run: the C reader's main when it creates threads,
// joins them and checks their results (cfront/procs.go). It needs no CPU of
// its own: the harness runs the part of it before the starts and the starts
// on the lead thread between rounds, before the threads are released, and
// the joins and the rest after the round, when every thread has finished.
//
// That is the model's runs exactly when the shape below holds, which
// parentOf checks on the automata (no name is trusted):
//
//   - each other process (a worker) first waits for a start flag of its
//     own, atomic { t := read g; assume(t == 1) }, and does nothing
//     before: its location 0 has that one edge out and no edge in;
//   - the parent starts each worker once and then joins each once, in one
//     straight chain of locations c0 -> ... -> cn -> ... -> c2n: the starts
//     are atomic { write g := 1 }, the joins atomic { t := read d;
//     assume(t == 1) } on a done flag d that one worker writes with
//     atomic { write d := 1 } as its last step; the chain's inner locations
//     have no other edge in or out, and c0 cannot be reached from c2n;
//   - the flags start at 0 and nothing else touches them;
//   - no forbidden state names the parent (its asserts are fine).
//
// So no worker runs before the parent's starts, which are locked steps (the
// parent's writes are in memory), and the parent does nothing but wait
// while a worker runs; after the joins every worker has ended, its writes
// in memory (its last step is locked). Running the parent's two parts
// alone, before and after the workers, gives the same runs.

// parent says which process is the parent and where it waits: wait is cn,
// the location of the first join.
type parent struct {
	proc int
	wait cs.Loc
}

// parentOf returns the parent of sys, if it has one (see above).
func parentOf(sys *cs.System) (parent, bool) {
	if len(sys.Procs) < 2 {
		return parent{}, false
	}
	zero := map[string]bool{}
	for _, v := range sys.Shared {
		zero[v.Name] = !v.Init.Nondet && v.Init.Value == 0
	}
	// The go flag each process waits for first, "" if none.
	goOf := make([]string, len(sys.Procs))
	for pi, p := range sys.Procs {
		if len(p.Out) > 0 && len(p.Out[0]) == 1 && !hasEdgeInto(p, 0) {
			if g, ok := waitFlag(p.Edges[p.Out[0][0]].Op); ok && zero[g] {
				goOf[pi] = g
			}
		}
	}
	for pm := range sys.Procs {
		if par, ok := isParent(sys, pm, goOf, zero); ok {
			return par, true
		}
	}
	return parent{}, false
}

func isParent(sys *cs.System, pm int, goOf []string, zero map[string]bool) (parent, bool) {
	for _, b := range sys.Bad {
		for _, pi := range b.Procs {
			if pi == pm {
				return parent{}, false
			}
		}
	}
	p := sys.Procs[pm]
	worker := map[string]int{} // go flag -> worker
	for pi := range sys.Procs {
		if pi == pm {
			continue
		}
		if _, dup := worker[goOf[pi]]; goOf[pi] == "" || dup {
			return parent{}, false
		}
		worker[goOf[pi]] = pi
	}
	// The done flag of each worker: written by atomic { write d := 1 } as
	// its last step (the steps into a location without a way out).
	doneOf := map[string]int{}                // done flag -> worker
	doneVar := make([]string, len(sys.Procs)) // worker -> done flag
	for pi, w := range sys.Procs {
		if pi == pm {
			continue
		}
		d := ""
		for _, e := range w.Edges {
			if f, ok := startFlag(e.Op); ok && len(w.Out[e.To]) == 0 {
				if d != "" && d != f || !zero[f] {
					return parent{}, false
				}
				d = f
			}
		}
		if _, dup := doneOf[d]; d == "" || dup {
			return parent{}, false
		}
		doneOf[d], doneVar[pi] = pi, d
	}
	n := len(sys.Procs) - 1
	// The parent's starts and joins.
	starts, joins := map[int]int{}, map[int]int{} // edge -> worker
	for ei, e := range p.Edges {
		if g, ok := startFlag(e.Op); ok {
			w, known := worker[g]
			if !known {
				return parent{}, false
			}
			starts[ei] = w
		} else if d, ok := waitFlag(e.Op); ok {
			w, known := doneOf[d]
			if !known {
				return parent{}, false
			}
			joins[ei] = w
		}
	}
	if len(starts) != n || len(joins) != n {
		return parent{}, false
	}
	// The chain: from the start that no start leads to.
	first := -1
	for ei := range starts {
		into := false
		for ej := range starts {
			if p.Edges[ej].To == p.Edges[ei].From {
				into = true
			}
		}
		if !into {
			if first >= 0 {
				return parent{}, false
			}
			first = ei
		}
	}
	if first < 0 {
		return parent{}, false
	}
	c0 := p.Edges[first].From
	loc, seen := c0, map[int]bool{}
	var wait cs.Loc
	for i := 0; i < 2*n; i++ {
		if len(p.Out[loc]) != 1 || i > 0 && edgesInto(p, loc) != 1 {
			return parent{}, false
		}
		ei := p.Out[loc][0]
		_, isStart := starts[ei]
		_, isJoin := joins[ei]
		if i < n && !isStart || i >= n && !isJoin || seen[ei] {
			return parent{}, false
		}
		seen[ei] = true
		if i == n {
			wait = loc
		}
		loc = p.Edges[ei].To
	}
	// Every worker started and joined once (the edges are distinct and n
	// of each; distinct workers by the maps above).
	started, joined := map[int]bool{}, map[int]bool{}
	for ei := range starts {
		started[starts[ei]] = true
	}
	for ei := range joins {
		joined[joins[ei]] = true
	}
	if len(started) != n || len(joined) != n || reaches(p, loc, c0) {
		return parent{}, false
	}
	// Nothing else touches the flags.
	flags := map[string]bool{}
	for g := range worker {
		flags[g] = true
	}
	for d := range doneOf {
		flags[d] = true
	}
	for pi, q := range sys.Procs {
		for ei, e := range q.Edges {
			if pi == pm && seen[ei] {
				continue
			}
			if f, ok := startFlag(e.Op); pi != pm && (ei == q.Out[0][0] || ok && f == doneVar[pi] && len(q.Out[e.To]) == 0) {
				continue
			}
			if touches(e.Op, flags) {
				return parent{}, false
			}
		}
	}
	return parent{proc: pm, wait: wait}, true
}

// startFlag matches atomic { write g := 1 }.
func startFlag(op cs.Op) (string, bool) {
	if op.Kind != cs.OpAtomic || len(op.Body) != 1 || op.Body[0].Kind != cs.OpWrite {
		return "", false
	}
	if v, ok := expr.IntValue(op.Body[0].Val); !ok || v != 1 {
		return "", false
	}
	return op.Body[0].Shared, true
}

// waitFlag matches atomic { t := read g; assume(t == 1) }.
func waitFlag(op cs.Op) (string, bool) {
	if op.Kind != cs.OpAtomic || len(op.Body) != 2 || op.Body[0].Kind != cs.OpRead || op.Body[1].Kind != cs.OpAssume {
		return "", false
	}
	a, ok := op.Body[1].Val.(*expr.App)
	if !ok || a.Op != expr.OpEq || len(a.Args) != 2 {
		return "", false
	}
	t := op.Body[0].Local
	for i := 0; i < 2; i++ {
		if v, ok := a.Args[i].(expr.Var); ok && v.Name == t {
			if c, ok := expr.IntValue(a.Args[1-i]); ok && c == 1 {
				return op.Body[0].Shared, true
			}
		}
	}
	return "", false
}

// touches reports whether op reads or writes one of vars.
func touches(op cs.Op, vars map[string]bool) bool {
	if (op.Kind == cs.OpRead || op.Kind == cs.OpWrite) && vars[op.Shared] {
		return true
	}
	for _, b := range op.Body {
		if touches(b, vars) {
			return true
		}
	}
	return false
}

func hasEdgeInto(p *cs.Process, l cs.Loc) bool { return edgesInto(p, l) > 0 }

func edgesInto(p *cs.Process, l cs.Loc) int {
	n := 0
	for _, e := range p.Edges {
		if e.To == l {
			n++
		}
	}
	return n
}

// reaches reports whether location to can be reached from from.
func reaches(p *cs.Process, from, to cs.Loc) bool {
	seen := map[cs.Loc]bool{from: true}
	todo := []cs.Loc{from}
	for len(todo) > 0 {
		l := todo[len(todo)-1]
		todo = todo[:len(todo)-1]
		if l == to {
			return true
		}
		for _, ei := range p.Out[l] {
			if t := p.Edges[ei].To; !seen[t] {
				seen[t] = true
				todo = append(todo, t)
			}
		}
	}
	return false
}

// CPUs is the number of CPUs the harness of sys needs: one per process,
// but none for a parent (parentOf).
func CPUs(sys *cs.System) int {
	if _, ok := parentOf(sys); ok {
		return len(sys.Procs) - 1
	}
	return len(sys.Procs)
}
