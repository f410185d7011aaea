package domains

import (
	"encoding/binary"
	"slices"

	"fencer/cs"
	"fencer/expr"
)

// A LocalSkeleton is one process on its own over its locals with a static
// domain that are in no class of the order view (the tracked locals): its
// nodes are pairs (location, values of the tracked locals, those dead at
// the location 0), its arcs the edges of the process between them. Every
// other value is unknown: a guard that depends on one goes either way, an
// assignment of a tracked local from one, or a read or a havoc into one,
// gives it every value of its domain. The nodes are those reachable from
// the initial ones (the declared values; every value of the domain for a
// ranged local).
//
// It over-approximates every run of an exploration with explicit values
// (cegar): a tracked local has a static domain, so its explicit value is
// its concrete value (no canonical form changes it), and the layout sets it
// to 0 exactly where it is dead (Layout.Zero, the liveness of cs); so the
// tracked values of a state and its process's location are a node
// (Node), and every step of the process from that state is an arc from
// that node to the node of the state after it. The partial-order
// reduction uses it for its cycle proviso (cegar/por.go).
type LocalSkeleton struct {
	Vars  []string // the tracked locals, in the order of the process's declarations
	Locs  []cs.Loc // the location of each node
	Arcs  []SkelArc
	nodes map[string]int32
	vals  [][]int64 // the tracked values of each node
}

// SkelArc is a step of the process by edge Edge from node From to node To.
type SkelArc struct{ From, To, Edge int32 }

// maxLocalSkeleton bounds the nodes of a LocalSkeleton.
const maxLocalSkeleton = 50_000

// LocalSkeleton returns the skeleton of p, or nil when it has no tracked
// local or more than maxLocalSkeleton nodes.
func (in *Info) LocalSkeleton(p *cs.Process) *LocalSkeleton {
	s := &LocalSkeleton{nodes: map[string]int32{}}
	idx := map[string]int{}
	var doms [][]int64
	var inits []cs.Init
	for _, v := range p.Locals {
		d, ok := in.dom[v.Name]
		if !ok || in.ord.inClass(v.Name) {
			continue
		}
		idx[v.Name] = len(s.Vars)
		s.Vars = append(s.Vars, v.Name)
		doms = append(doms, d)
		inits = append(inits, v.Init)
	}
	if len(s.Vars) == 0 {
		return nil
	}
	live := p.Live()
	var kb []byte
	// get returns the node (loc, v), made if new, with the dead locals
	// set to 0 (in a copy: v may be the values of the node it comes from);
	// false when there are too many.
	get := func(loc cs.Loc, v []int64) (int32, bool) {
		v = slices.Clone(v)
		for i, n := range s.Vars {
			if !live[loc][n] {
				v[i] = 0
			}
		}
		kb = s.key(kb[:0], loc, v)
		if n, ok := s.nodes[string(kb)]; ok {
			return n, true
		}
		if len(s.Locs) >= maxLocalSkeleton {
			return 0, false
		}
		n := int32(len(s.Locs))
		s.nodes[string(kb)] = n
		s.Locs = append(s.Locs, loc)
		s.vals = append(s.vals, v)
		return n, true
	}
	// The initial nodes: the product of the initial values.
	starts := [][]int64{{}}
	for i, in := range inits {
		choice := []int64{in.Value}
		if in.Nondet {
			choice = doms[i]
		}
		var next [][]int64
		for _, st := range starts {
			for _, c := range choice {
				next = append(next, append(append([]int64(nil), st...), c))
			}
		}
		if len(next) > maxLocalSkeleton {
			return nil
		}
		starts = next
	}
	for _, st := range starts {
		if _, ok := get(0, st); !ok {
			return nil
		}
	}
	for n := 0; n < len(s.Locs); n++ {
		loc := s.Locs[n]
		for _, ei := range p.Out[loc] {
			e := p.Edges[ei]
			outs := skelStep(e.Op, idx, doms, [][]int64{s.vals[n]})
			for _, v := range outs {
				to, ok := get(e.To, v)
				if !ok {
					return nil
				}
				s.Arcs = append(s.Arcs, SkelArc{int32(n), to, int32(ei)})
			}
		}
	}
	return s
}

// key appends the key of node (loc, v) to b.
func (s *LocalSkeleton) key(b []byte, loc cs.Loc, v []int64) []byte {
	b = binary.AppendUvarint(b, uint64(loc))
	return AppendKey(b, v)
}

// Node returns the node of location loc with tracked values v (dead ones
// 0), and whether there is one; buf is scratch, returned for reuse.
func (s *LocalSkeleton) Node(loc cs.Loc, v []int64, buf []byte) (int32, bool, []byte) {
	buf = s.key(buf[:0], loc, v)
	n, ok := s.nodes[string(buf)]
	return n, ok, buf
}

// SCCs numbers the strongly connected components of the graph of the
// nodes and the arcs for which keep holds.
func (s *LocalSkeleton) SCCs(keep func(SkelArc) bool) []int {
	succ := make([][]int, len(s.Locs))
	for _, a := range s.Arcs {
		if keep(a) {
			succ[a.From] = append(succ[a.From], int(a.To))
		}
	}
	return sccs(succ)
}

// skelStep returns the tracked values after op from each of ins (see
// LocalSkeleton: what depends on an unknown value takes every value).
func skelStep(op cs.Op, idx map[string]int, doms [][]int64, ins [][]int64) [][]int64 {
	outs, _ := skelPost(op, idx, ins, skelRules{
		value:   partialEval,
		unknown: func(_ cs.Op, i int) ([]int64, bool) { return doms[i], true },
	})
	return outs
}

// skelRules are what the walks of the skeletons differ in (skelPost):
// how an assignment's value is evaluated, and the values a tracked local
// i may take after op where op does not decide it (a read, a havoc, an
// assignment whose value is unknown); false: op cannot be followed.
type skelRules struct {
	value   func(e expr.Expr, env func(string) (int64, bool)) (int64, bool)
	unknown func(op cs.Op, i int) ([]int64, bool)
}

// skelPost returns the tracked values (the locals of idx) after op from
// each of ins under the rules r, and false when r cannot follow op.
func skelPost(op cs.Op, idx map[string]int, ins [][]int64, r skelRules) ([][]int64, bool) {
	env := func(vals []int64) func(string) (int64, bool) {
		return func(n string) (int64, bool) {
			i, ok := idx[n]
			if !ok {
				return 0, false
			}
			return vals[i], true
		}
	}
	// every appends the versions of vals with local i set to each value
	// op may give it (r.unknown).
	every := func(outs [][]int64, vals []int64, i int) ([][]int64, bool) {
		xs, ok := r.unknown(op, i)
		if !ok {
			return nil, false
		}
		for _, x := range xs {
			w := append([]int64(nil), vals...)
			w[i] = x
			outs = append(outs, w)
		}
		return outs, true
	}
	var outs [][]int64
	for _, vals := range ins {
		ok := true
		switch op.Kind {
		case cs.OpRead, cs.OpHavoc:
			if i, tracked := idx[op.Local]; tracked {
				outs, ok = every(outs, vals, i)
			} else {
				outs = append(outs, vals)
			}
		case cs.OpAssign:
			i, tracked := idx[op.Local]
			if !tracked {
				outs = append(outs, vals)
				continue
			}
			x, known := r.value(op.Val, env(vals))
			if !known {
				outs, ok = every(outs, vals, i)
				break
			}
			w := append([]int64(nil), vals...)
			w[i] = x
			outs = append(outs, w)
		case cs.OpAssume:
			if v, known := partialEval(op.Val, env(vals)); !known || v != 0 {
				outs = append(outs, vals) // true, or unknown: either way
			}
		case cs.OpAtomic:
			cur := [][]int64{vals}
			for _, b := range op.Body {
				if cur, ok = skelPost(b, idx, cur, r); !ok {
					break
				}
			}
			outs = append(outs, cur...)
		default: // writes and fences change no local
			outs = append(outs, vals)
		}
		if !ok {
			return nil, false
		}
	}
	return outs, true
}
