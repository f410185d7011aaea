package domains

import (
	"encoding/binary"

	"fencer/cs"
	"fencer/expr"
)

// This file decides which deterministic variables are worth making dynamic.
// A dynamic variable whose values really grow without end (a counter in a
// `while (true)` loop, as in a seqlock) would make explorations grow until
// its domain passes MaxValues, wasting them; it is better left to
// predicates from the start. A value grows only through an operation that
// computes it (r + 1, not a copy r = x or a constant), and without end only
// if such an operation can run again and again in one run: if it lies on a
// cycle of its process. Loops bounded by a counter are not cycles once the
// counter's value is known, so the cycles are those of the process's
// skeleton: its locations and the values of its static locals (those with
// a static domain), explored on its own, with every other value unknown (a
// guard over one may go either way; a read of a static shared variable
// gives any value of its domain). A skeleton with more than maxSkeleton
// nodes, or one that cannot be evaluated, is replaced by the control-flow
// graph (every loop a cycle).
//
// This is a heuristic: it decides only where the engine tries dynamic
// domains. Soundness never depends on it (dynamic.go): a variable it keeps
// that grows anyway is made unbounded when its domain passes MaxValues.

// maxSkeleton bounds the nodes of one process's skeleton.
const maxSkeleton = 20_000

// growthOnCycles returns the variables that some process computes (not
// copies) on an edge of a cycle of its skeleton.
func (in *Info) growthOnCycles() map[string]bool {
	out := map[string]bool{}
	for _, p := range in.sys.Procs {
		cyclic := in.skeletonCycles(p)
		if cyclic == nil {
			cyclic = cfgCycles(p)
		}
		for ei, e := range p.Edges {
			if cyclic[ei] {
				addGrowth(e.Op, out)
			}
		}
	}
	return out
}

// addGrowth adds to out the variables op computes with an operator.
func addGrowth(op cs.Op, out map[string]bool) {
	switch op.Kind {
	case cs.OpAssign, cs.OpWrite:
		switch op.Val.(type) {
		case expr.Var, expr.Int, expr.Bool:
		default:
			if op.Kind == cs.OpWrite {
				out[op.Shared] = true
			} else {
				out[op.Local] = true
			}
		}
	case cs.OpAtomic:
		for _, b := range op.Body {
			addGrowth(b, out)
		}
	}
}

// skeletonCycles explores the skeleton of p and returns, per edge, whether
// some skeleton transition of it lies on a cycle; nil when the skeleton is
// too big or cannot be evaluated.
func (in *Info) skeletonCycles(p *cs.Process) []bool {
	g := in.skeleton(p)
	if g == nil {
		return nil
	}
	succ := make([][]int, g.nodes)
	for _, a := range g.arcs {
		succ[a.from] = append(succ[a.from], a.to)
	}
	comp := sccs(succ)
	cyclic := make([]bool, len(p.Edges))
	for _, a := range g.arcs {
		if comp[a.from] == comp[a.to] {
			cyclic[a.edge] = true
		}
	}
	return cyclic
}

// skelGraph is the skeleton of a process: nodes numbered from 0 (the
// initial one), and its transitions, each by an edge of the process.
type skelGraph struct {
	nodes int
	arcs  []skelArc
}

type skelArc struct{ from, to, edge int }

// skeleton explores the skeleton of p: its locations and the values of its
// static locals (skeletonVar), every other value unknown. Every run of p,
// in any interleaving, follows a path of it, except where a static local
// starts at any value of a range (it starts at the least here). nil when
// it has more than maxSkeleton nodes or cannot be evaluated.
func (in *Info) skeleton(p *cs.Process) *skelGraph {
	var vars []string
	idx := map[string]int{}
	for _, v := range p.Locals {
		if in.skeletonVar(p, v) {
			idx[v.Name] = len(vars)
			vars = append(vars, v.Name)
		}
	}
	type node struct {
		loc  cs.Loc
		vals []int64
	}
	var nodes []node
	seen := map[string]int{}
	var kb []byte
	get := func(loc cs.Loc, vals []int64) (int, bool) {
		kb = binary.AppendUvarint(kb[:0], uint64(loc))
		kb = AppendKey(kb, vals)
		if i, ok := seen[string(kb)]; ok {
			return i, true
		}
		if len(nodes) >= maxSkeleton {
			return 0, false
		}
		seen[string(kb)] = len(nodes)
		nodes = append(nodes, node{loc, append([]int64(nil), vals...)})
		return len(nodes) - 1, true
	}
	init := make([]int64, len(vars))
	for _, v := range p.Locals {
		if i, ok := idx[v.Name]; ok {
			init[i] = v.Init.Value
			if v.Init.Nondet {
				init[i] = v.Init.Lo // a ranged static local (a heuristic: see above)
			}
		}
	}
	if _, ok := get(0, init); !ok {
		return nil
	}
	var arcs []skelArc
	for n := 0; n < len(nodes); n++ {
		cur := nodes[n]
		for _, ei := range p.Out[cur.loc] {
			e := p.Edges[ei]
			outs, ok := in.skelApply(e.Op, idx, [][]int64{cur.vals})
			if !ok {
				return nil
			}
			for _, vals := range outs {
				to, ok := get(e.To, vals)
				if !ok {
					return nil
				}
				arcs = append(arcs, skelArc{n, to, ei})
			}
		}
	}
	return &skelGraph{nodes: len(nodes), arcs: arcs}
}

// skeletonVar reports whether the skeleton of p tracks local v: v has a
// static domain, or it is computed only from such locals and constants
// (never read from memory, never havocked, a declared initial value), like
// the counter of an inner loop that an outer loop does not reset, whose
// values the static analysis cannot bound.
func (in *Info) skeletonVar(p *cs.Process, v cs.VarDecl) bool {
	if _, ok := in.dom[v.Name]; ok {
		return true
	}
	if in.skel == nil {
		in.skel = map[string]bool{}
		for _, q := range in.sys.Procs {
			in.localClosed(q)
		}
	}
	return in.skel[v.Name]
}

// localClosed adds to in.skel the locals of p that are computed only from
// static locals, constants and each other.
func (in *Info) localClosed(p *cs.Process) {
	cand := map[string]bool{}
	for _, v := range p.Locals {
		if _, ok := in.dom[v.Name]; !ok && !v.Init.Nondet {
			cand[v.Name] = true
		}
	}
	var ops []cs.Op
	var collect func(op cs.Op)
	collect = func(op cs.Op) {
		ops = append(ops, op)
		for _, b := range op.Body {
			collect(b)
		}
	}
	for _, e := range p.Edges {
		collect(e.Op)
	}
	for changed := true; changed; {
		changed = false
		for _, op := range ops {
			if !cand[op.Local] {
				continue
			}
			ok := op.Kind == cs.OpAssign
			if ok {
				for _, v := range expr.Vars(op.Val) {
					_, static := in.dom[v]
					ok = ok && (static || cand[v])
				}
			} else if op.Kind != cs.OpRead && op.Kind != cs.OpHavoc {
				continue // op.Local is not assigned
			}
			if !ok {
				delete(cand, op.Local)
				changed = true
			}
		}
	}
	for v := range cand {
		in.skel[v] = true
	}
}

// skelApply returns the skeleton valuations after op from each of ins;
// false when op cannot be evaluated on the skeleton: an assignment of a
// value that is not known exactly, a havoc of a skeleton local, a read of
// a variable without a domain (a read takes each value of its domain).
func (in *Info) skelApply(op cs.Op, idx map[string]int, ins [][]int64) ([][]int64, bool) {
	return skelPost(op, idx, ins, skelRules{
		value: func(e expr.Expr, env func(string) (int64, bool)) (int64, bool) {
			x, err := expr.Eval(e, env)
			return x, err == nil
		},
		unknown: func(op cs.Op, _ int) ([]int64, bool) {
			if op.Kind != cs.OpRead {
				return nil, false
			}
			dom, ok := in.dom[op.Shared]
			return dom, ok
		},
	})
}

// cfgCycles marks the edges of p that lie on a cycle of its control-flow
// graph.
func cfgCycles(p *cs.Process) []bool {
	succ := make([][]int, p.NumLocs)
	for _, e := range p.Edges {
		succ[e.From] = append(succ[e.From], int(e.To))
	}
	comp := sccs(succ)
	out := make([]bool, len(p.Edges))
	for i, e := range p.Edges {
		out[i] = comp[e.From] == comp[e.To]
	}
	return out
}

// sccs numbers the strongly connected components of a graph (Tarjan's
// algorithm, iterative so that long paths do not grow the stack).
func sccs(succ [][]int) []int {
	n := len(succ)
	index := make([]int, n)
	low := make([]int, n)
	comp := make([]int, n)
	onStack := make([]bool, n)
	for i := range index {
		index[i] = -1
	}
	var stack []int
	next, ncomp := 0, 0
	type frame struct{ v, i int }
	for root := 0; root < n; root++ {
		if index[root] >= 0 {
			continue
		}
		call := []frame{{root, 0}}
		index[root], low[root] = next, next
		next++
		stack = append(stack, root)
		onStack[root] = true
		for len(call) > 0 {
			f := &call[len(call)-1]
			if f.i < len(succ[f.v]) {
				w := succ[f.v][f.i]
				f.i++
				if index[w] < 0 {
					index[w], low[w] = next, next
					next++
					stack = append(stack, w)
					onStack[w] = true
					call = append(call, frame{w, 0})
				} else if onStack[w] && index[w] < low[f.v] {
					low[f.v] = index[w]
				}
				continue
			}
			v := f.v
			call = call[:len(call)-1]
			if len(call) > 0 {
				if u := call[len(call)-1].v; low[v] < low[u] {
					low[u] = low[v]
				}
			}
			if low[v] == index[v] {
				for {
					w := stack[len(stack)-1]
					stack = stack[:len(stack)-1]
					onStack[w] = false
					comp[w] = ncomp
					if w == v {
						break
					}
				}
				ncomp++
			}
		}
	}
	return comp
}

// partialEval evaluates e where env knows only some variables: known is
// false when the value depends on an unknown one (or fails). A conjunction
// with a known false conjunct is false, a disjunction with a known true
// disjunct true, whatever the others.
func partialEval(e expr.Expr, env func(string) (int64, bool)) (v int64, known bool) {
	all := true
	for _, n := range expr.Vars(e) {
		if _, ok := env(n); !ok {
			all = false
			break
		}
	}
	if all {
		x, err := expr.Eval(e, env)
		return x, err == nil
	}
	app, ok := e.(*expr.App)
	if !ok {
		return 0, false
	}
	switch app.Op {
	case expr.OpAnd, expr.OpOr:
		short := int64(0) // the value that decides: false for and, true for or
		if app.Op == expr.OpOr {
			short = 1
		}
		for _, a := range app.Args {
			if x, k := partialEval(a, env); k && (x != 0) == (short == 1) {
				return short, true
			}
		}
	case expr.OpNot:
		if x, k := partialEval(app.Args[0], env); k {
			return b2i(x == 0), true
		}
	case expr.OpImplies:
		if x, k := partialEval(app.Args[0], env); k && x == 0 {
			return 1, true
		}
		if x, k := partialEval(app.Args[1], env); k && x != 0 {
			return 1, true
		}
	}
	return 0, false
}
