package cegar

import (
	"fmt"
	"slices"
	"strconv"

	"fencer/cs"
	"fencer/kabs"
)

// Locations with the same future (cs.Process.SameFuture) are one location
// for the exploration. A program's text often has two locations with one
// future: `c = x; while (c != 0) { c = x; }` reads x into c before the loop
// and in its body, and a state before either read is the same state but
// for the location. reach explores the quotient of the system: each edge
// goes to the least location of its target's block, so the locations that
// are not the least of their block are never reached. The quotient has
// the same edges (operations, order, fence sites) and the same initial
// location (0 is the least of its block), so its abstraction is a
// functional bisimulation image of the system's: a state maps to the state
// with every location replaced by its block's least, and the steps of the
// two correspond edge for edge (edge i out of one location for edge i out
// of the other, the same operation into the same block), flushes for
// flushes. The blocks keep the live locals (the value vectors zero the
// same positions) and what makes a location part of a bad state, so a bad
// state is reachable in one exactly when it is in the other, under every
// reduction that is sound for the quotient (partial-order reduction,
// symmetry: their tables are made from the quotient explored).
//
// A counterexample of the quotient is lifted to the system (liftPath): the
// run is followed from the initial state with the locations it really
// has, each edge step taken by the edge at the same place among the
// edges out of the real location. Its transitions are the quotient's,
// which are the system's (the same operations under the same buffers), so
// the path formulas, the replay and the fence sites of the lifted path are
// those of a real path of the system.

// quotientOf returns the abstraction of the quotient of abs's system
// (above) and the number of locations merged into others, or abs itself
// when no two locations of a process have the same future.
func quotientOf(abs *kabs.Abs) (*kabs.Abs, int, error) {
	sys := abs.Sys
	label := make([][]string, len(sys.Procs))
	for pi, p := range sys.Procs {
		label[pi] = make([]string, p.NumLocs)
		if p.ErrLoc >= 0 {
			label[pi][p.ErrLoc] = "err"
		}
	}
	for bi, b := range sys.Bad {
		for j, pi := range b.Procs {
			label[pi][b.Locs[j]] += " " + strconv.Itoa(bi) + ":" + strconv.Itoa(j)
		}
	}
	var procs []*cs.Process
	merged := 0
	for pi, p := range sys.Procs {
		rep := p.SameFuture(func(l cs.Loc) string { return label[pi][l] })
		if rep[0] != 0 {
			return nil, 0, fmt.Errorf("internal error: location 0 of %s is not the least of its block", p.Name)
		}
		n := 0
		for l, r := range rep {
			if r != cs.Loc(l) {
				n++
			}
		}
		if n == 0 {
			procs = append(procs, p)
			continue
		}
		merged += n
		q := *p
		q.Edges = slices.Clone(p.Edges)
		for i := range q.Edges {
			q.Edges[i].To = rep[q.Edges[i].To]
		}
		procs = append(procs, &q)
	}
	if merged == 0 {
		return abs, 0, nil
	}
	qs := *sys
	qs.Procs = procs
	q, err := kabs.NewAbs(&qs, abs.Model, abs.K)
	return q, merged, err
}

// liftPath maps a path of the quotient of sys (quotientOf) to a path of
// sys, in place (above).
func liftPath(sys *cs.System, p *path) error {
	pc := make([]cs.Loc, len(sys.Procs))
	for i := range p.steps {
		s := &p.steps[i]
		if s.Edge < 0 {
			continue
		}
		proc := sys.Procs[s.Proc]
		from := proc.Edges[s.Edge].From
		k := slices.Index(proc.Out[from], s.Edge)
		out := proc.Out[pc[s.Proc]]
		if k < 0 || k >= len(out) {
			return fmt.Errorf("internal error: lifting a path of the quotient: step %d by edge %d out of %d, the process at %d", i, s.Edge, from, pc[s.Proc])
		}
		if !proc.Edges[out[k]].Op.Same(proc.Edges[s.Edge].Op) {
			return fmt.Errorf("internal error: lifting a path of the quotient: step %d by %v, the real edge %v", i, proc.Edges[s.Edge].Op, proc.Edges[out[k]].Op)
		}
		s.Edge = out[k]
		pc[s.Proc] = proc.Edges[s.Edge].To
	}
	return nil
}
