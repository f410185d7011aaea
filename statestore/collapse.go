package statestore

import "fmt"

// Collapse is SPIN's collapse compression: the vector is cut into
// components (each process's control, locals and buffer; the shared
// memory), each component is interned in a table of its own, and a state
// is stored as the tuple of its components' indices, interned in the root
// table. A successor usually changes one or two components, so most of a
// state is shared with its predecessor and the per-state cost is the tuple
// (4 bytes a component), its slot in the root table and its parent.
//
// A component of one slot is kept in the tuple as it is, not interned:
// its index would take the same four bytes, and its table would hold as
// many records as it has values (an explorer's own id of a control state
// is such a component).
type Collapse struct {
	width int
	lo    []int    // component c is vec[lo[c]:lo[c+1]]
	comps []*table // nil for a component of one slot
	root  *table
	par   parents
	tuple []uint32 // the writer's scratch: the components' indices
	// recent holds, per component, the indices of the two values last
	// inserted or found (recent[0] the latest) and whether they are set: a
	// component equal to one of them (compared with the record in its
	// table, which never moves) is not hashed. An explorer inserts the
	// successors of one state in a row; each changes one or two components
	// of that state, so the unchanged ones are the parent's, which stay
	// among the two recent values of each component.
	recent [2][]uint32
	recOK  [2][]bool
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
	for k := range s.recent {
		s.recent[k], s.recOK[k] = make([]uint32, len(starts)), make([]bool, len(starts))
	}
	for c := range starts {
		var t *table
		if lo[c+1]-lo[c] > 1 {
			t = newTable(lo[c+1] - lo[c])
		}
		s.comps = append(s.comps, t)
	}
	return s, nil
}

func (s *Collapse) Insert(vec []uint32, parent uint32) (uint32, bool, error) {
	if err := checkWidth(len(vec), s.width); err != nil {
		return 0, false, err
	}
	if _, err := s.components(vec, true); err != nil {
		return 0, false, err
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
	if ok, _ := s.components(vec, false); !ok {
		return 0, false
	}
	return s.root.lookup(s.tuple)
}

// components puts the index of each component of vec into s.tuple,
// interning those not seen yet (or, without intern, reporting false when
// one was not seen).
func (s *Collapse) components(vec []uint32, intern bool) (bool, error) {
	r0, r1, ok0, ok1 := s.recent[0], s.recent[1], s.recOK[0], s.recOK[1]
	for c, t := range s.comps {
		v := vec[s.lo[c]:s.lo[c+1]]
		if t == nil {
			s.tuple[c] = v[0]
			continue
		}
		if ok0[c] && equalWords(v, t.data.at(r0[c])) {
			s.tuple[c] = r0[c]
			continue
		}
		if ok1[c] && equalWords(v, t.data.at(r1[c])) {
			r0[c], r1[c] = r1[c], r0[c] // the latest now
			s.tuple[c] = r0[c]
			continue
		}
		var i uint32
		if intern {
			var err error
			if i, _, err = t.intern(v); err != nil {
				return false, err
			}
		} else {
			var ok bool
			if i, ok = t.lookup(v); !ok {
				return false, nil
			}
		}
		r1[c], ok1[c] = r0[c], ok0[c]
		r0[c], ok0[c] = i, true
		s.tuple[c] = i
	}
	return true, nil
}

func (s *Collapse) Vector(dst []uint32, idx uint32) []uint32 {
	for c, i := range s.root.data.at(idx) {
		if t := s.comps[c]; t != nil {
			dst = append(dst, t.data.at(i)...)
		} else {
			dst = append(dst, i)
		}
	}
	return dst
}

func (s *Collapse) Parent(idx uint32) uint32 { return s.par.at(idx) }
func (s *Collapse) Len() int                 { return int(s.root.len()) }
func (s *Collapse) Width() int               { return s.width }

func (s *Collapse) Bytes() int64 {
	b := s.root.bytes() + s.par.v.bytes()
	for _, t := range s.comps {
		if t != nil {
			b += t.bytes()
		}
	}
	return b
}

// Components returns the number of distinct values of each component so
// far (for statistics: a component with as many values as there are states
// is one that collapse compression does not help); 0 for a component of
// one slot, which is not interned.
func (s *Collapse) Components() []int {
	n := make([]int, len(s.comps))
	for c, t := range s.comps {
		if t != nil {
			n[c] = int(t.len())
		}
	}
	return n
}
