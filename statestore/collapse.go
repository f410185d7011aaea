package statestore

import "fmt"

// Collapse is SPIN's collapse compression: the vector is cut into
// components (each process's control, locals and buffer; the shared
// memory), each component is interned in a table of its own, and a state
// is stored as the tuple of its components' indices, interned in the root
// table. A successor usually changes one or two components, so most of a
// state is shared with its predecessor and the per-state cost is the tuple
// (4 bytes a component), its slot in the root table and its parent.
type Collapse struct {
	width int
	lo    []int // component c is vec[lo[c]:lo[c+1]]
	comps []*table
	root  *table
	par   parents
	tuple []uint32 // the writer's scratch
}

// NewCollapse returns an empty store of vectors of width slots cut into
// components at starts: starts[0] must be 0, starts strictly increasing and
// below width; component c is [starts[c], starts[c+1]) (the last one ends
// at width).
func NewCollapse(width int, starts []int) (*Collapse, error) {
	if width <= 0 || len(starts) == 0 || starts[0] != 0 {
		return nil, fmt.Errorf("statestore: components must start at 0 of a positive width (width %d, starts %v)", width, starts)
	}
	lo := append(append([]int(nil), starts...), width)
	for c := 0; c+1 < len(lo); c++ {
		if lo[c] >= lo[c+1] {
			return nil, fmt.Errorf("statestore: component starts %v not increasing below width %d", starts, width)
		}
	}
	s := &Collapse{width: width, lo: lo, root: newTable(len(starts)), par: parents{segvec{w: 1}}, tuple: make([]uint32, len(starts))}
	for c := range starts {
		s.comps = append(s.comps, newTable(lo[c+1]-lo[c]))
	}
	return s, nil
}

func (s *Collapse) Insert(vec []uint32, parent uint32) (uint32, bool, error) {
	if err := checkWidth(len(vec), s.width); err != nil {
		return 0, false, err
	}
	for c, t := range s.comps {
		i, _, err := t.intern(vec[s.lo[c]:s.lo[c+1]])
		if err != nil {
			return 0, false, err
		}
		s.tuple[c] = i
	}
	idx, fresh, err := s.root.intern(s.tuple)
	if fresh {
		s.par.push(parent)
	}
	return idx, fresh, err
}

func (s *Collapse) Lookup(vec []uint32) (uint32, bool) {
	if len(vec) != s.width {
		return 0, false
	}
	for c, t := range s.comps {
		i, ok := t.lookup(vec[s.lo[c]:s.lo[c+1]])
		if !ok {
			return 0, false
		}
		s.tuple[c] = i
	}
	return s.root.lookup(s.tuple)
}

func (s *Collapse) Vector(dst []uint32, idx uint32) []uint32 {
	for c, i := range s.root.data.at(idx) {
		dst = append(dst, s.comps[c].data.at(i)...)
	}
	return dst
}

func (s *Collapse) Parent(idx uint32) uint32 { return s.par.at(idx) }
func (s *Collapse) Len() int                 { return int(s.root.len()) }
func (s *Collapse) Width() int               { return s.width }

func (s *Collapse) Bytes() int64 {
	b := s.root.bytes() + s.par.v.bytes()
	for _, t := range s.comps {
		b += t.bytes()
	}
	return b
}

// Components returns the number of distinct values of each component so
// far (for statistics: a component with as many values as there are states
// is one that collapse compression does not help).
func (s *Collapse) Components() []int {
	n := make([]int, len(s.comps))
	for c, t := range s.comps {
		n[c] = int(t.len())
	}
	return n
}
