package ordview

import (
	"sort"
	"strconv"
	"strings"

	"fencer/cs"
)

// Reaching definitions of the locals of one process: a definition is the
// initial value of a local (id = its index in Process.Locals) or an
// operation that assigns it (a read, an assignment, a havoc; inside an
// atomic body too), numbered after those. The analysis links a use of a
// local to the definitions that reach it, so that a local is analysed per
// web (its definitions and uses that are connected), not per name: the
// front end reuses its temporaries ($0, $1, ...) in every statement.

// defs is the set of definitions reaching a point, per local.
type defs map[string][]int

func (d defs) clone() defs {
	out := make(defs, len(d))
	for k, v := range d {
		out[k] = v
	}
	return out
}

// merge adds the definitions of e to d and reports whether d grew.
func (d defs) merge(e defs) bool {
	grew := false
	for x, ids := range e {
		have := d[x]
		for _, id := range ids {
			i := sort.SearchInts(have, id)
			if i == len(have) || have[i] != id {
				have = append(have[:i:i], append([]int{id}, have[i:]...)...)
				grew = true
			}
		}
		d[x] = have
	}
	return grew
}

// defining returns the local that o assigns, if any.
func defining(o cs.Op) (string, bool) {
	switch o.Kind {
	case cs.OpRead, cs.OpAssign, cs.OpHavoc:
		return o.Local, true
	}
	return "", false
}

// procDefs numbers the definitions of p: ids[e][j] is the id of the j-th
// operation of edge e (j = 0 for an edge that is not atomic), or -1.
func procDefs(p *cs.Process) (ids [][]int) {
	next := len(p.Locals)
	ids = make([][]int, len(p.Edges))
	for e, edge := range p.Edges {
		ops := []cs.Op{edge.Op}
		if edge.Op.Kind == cs.OpAtomic {
			ops = edge.Op.Body
		}
		ids[e] = make([]int, len(ops))
		for j, o := range ops {
			ids[e][j] = -1
			if _, ok := defining(o); ok {
				ids[e][j] = next
				next++
			}
		}
	}
	return ids
}

// reaching computes the definitions reaching each location of p.
func reaching(p *cs.Process, ids [][]int) []defs {
	in := make([]defs, p.NumLocs)
	for l := range in {
		in[l] = defs{}
	}
	for i, v := range p.Locals {
		in[0][v.Name] = []int{i}
	}
	for changed := true; changed; {
		changed = false
		for e, edge := range p.Edges {
			out := in[edge.From].clone()
			walk(edge, ids[e], out, nil)
			if in[edge.To].merge(out) {
				changed = true
			}
		}
	}
	return in
}

// walk runs the operations of edge over d (the definitions before it),
// calling visit (if not nil) with each operation and the definitions
// before it.
func walk(edge cs.Edge, ids []int, d defs, visit func(o cs.Op, before defs, id int)) {
	ops := []cs.Op{edge.Op}
	if edge.Op.Kind == cs.OpAtomic {
		ops = edge.Op.Body
	}
	for j, o := range ops {
		if visit != nil {
			visit(o, d, ids[j])
		}
		if x, ok := defining(o); ok {
			d[x] = []int{ids[j]}
		}
	}
}

// node is the name of a definition of local x.
func node(x string, id int) string { return x + "#" + strconv.Itoa(id) }

// base is the variable a node stands for.
func base(n string) string {
	if i := strings.LastIndexByte(n, '#'); i >= 0 {
		return n[:i]
	}
	return n
}
