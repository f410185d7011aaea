package memmodel

import (
	"fmt"

	"fencer/cs"
	"fencer/expr"
)

// ForBuffers returns sys as the store-buffer model m runs it: every fence
// of a kind the weak models know becomes what it does under m (a fence
// that keeps write→read order waits for the buffers: a full fence; else
// one that keeps write→write order is a store fence; else it orders
// nothing a store buffer can reorder and becomes a step that does
// nothing). Annotations are dropped: TSO keeps every order an acquire or
// release asks for. PSO lets a release write pass earlier writes, which
// no store-buffer step here expresses, so a system with one is refused
// under PSO. sys itself is returned when nothing changes. Sites, points
// and locations are those of sys, so fences placed on the result are
// placed on sys.
func ForBuffers(sys *cs.System, m Model) (*cs.System, error) {
	if m.Axioms() != nil {
		return nil, fmt.Errorf("%s is not a store-buffer model", m.Name())
	}
	changed := false
	for _, p := range sys.Procs {
		for _, e := range p.Edges {
			if e.Op.Kind == cs.OpFence && e.Op.Fence != cs.FullFence && e.Op.Fence != cs.StoreFence {
				changed = true
			}
			if e.Op.Kind == cs.OpWrite && e.Op.Ann&cs.Release != 0 && m.Layout() == PerVariable {
				return nil, fmt.Errorf("%s: a release write under %s (write fence store; before it)", sys.Position(e.Pos), m.Name())
			}
		}
	}
	if !changed {
		return sys, nil
	}
	out := *sys
	out.Procs = make([]*cs.Process, len(sys.Procs))
	for i, p := range sys.Procs {
		q := *p
		q.Edges = append([]cs.Edge(nil), p.Edges...)
		for j := range q.Edges {
			op := &q.Edges[j].Op
			if op.Kind != cs.OpFence {
				continue
			}
			if k, ok := BufferFence(op.Fence); ok {
				op.Fence = k
			} else {
				*op = cs.Op{Kind: cs.OpAssume, Val: expr.True}
			}
		}
		out.Procs[i] = &q
	}
	return &out, nil
}

// BufferFence is what a fence of kind k is under a store-buffer model: a
// full fence when it keeps write→read order (it waits for the buffers),
// else a store fence when it keeps write→write order, else nothing (ok
// false: it orders nothing a store buffer can reorder).
func BufferFence(k cs.FenceKind) (kind cs.FenceKind, ok bool) {
	switch o := k.Orders(); {
	case o&cs.StoreLoad != 0:
		return cs.FullFence, true
	case o&cs.StoreStore != 0:
		return cs.StoreFence, true
	}
	return cs.FullFence, false
}
