package statestore

// Tree is LTSmin's tree compression: the vector, padded with zeros to a
// power of two slots, is folded pairwise into a binary tree; each inner
// node is the pair of its children's values (a slot, or the index of the
// child node in its table) interned in the table of its position, and a
// state is the index of its root pair. Equal subvectors at the same
// position are stored once, however many states share them; a successor
// that changes one slot adds at most one new node per level.
type Tree struct {
	width  int
	leaves int      // a power of two >= max(width, 2)
	nodes  []*table // nodes[i] for i in 1..leaves-1, heap order (children 2i, 2i+1)
	par    parents
	val    []uint32 // the writer's scratch: val[i] is node i's index, val[leaves+j] slot j
	pair   [2]uint32
}

// NewTree returns an empty store of vectors of width slots (width > 0).
func NewTree(width int) *Tree {
	if width < 1 {
		width = 1
	}
	leaves := 2
	for leaves < width {
		leaves *= 2
	}
	s := &Tree{width: width, leaves: leaves, nodes: make([]*table, leaves), par: parents{segvec{w: 1}}, val: make([]uint32, 2*leaves)}
	for i := 1; i < leaves; i++ {
		s.nodes[i] = newTable(2)
	}
	return s
}

func (s *Tree) Insert(vec []uint32, parent uint32) (uint32, bool, error) {
	if err := checkWidth(len(vec), s.width); err != nil {
		return 0, false, err
	}
	copy(s.val[s.leaves:], vec)
	var fresh bool
	for i := s.leaves - 1; i >= 1; i-- {
		s.pair[0], s.pair[1] = s.val[2*i], s.val[2*i+1]
		idx, f, err := s.nodes[i].intern(s.pair[:])
		if err != nil {
			return 0, false, err
		}
		s.val[i], fresh = idx, f
	}
	if fresh {
		s.par.push(parent)
	}
	return s.val[1], fresh, nil
}

func (s *Tree) Lookup(vec []uint32) (uint32, bool) {
	if len(vec) != s.width {
		return 0, false
	}
	copy(s.val[s.leaves:], vec)
	for i := s.leaves - 1; i >= 1; i-- {
		s.pair[0], s.pair[1] = s.val[2*i], s.val[2*i+1]
		idx, ok := s.nodes[i].lookup(s.pair[:])
		if !ok {
			return 0, false
		}
		s.val[i] = idx
	}
	return s.val[1], true
}

// Vector unfolds the tree of state idx. It uses no scratch of the store,
// so readers may call it concurrently with the writer.
func (s *Tree) Vector(dst []uint32, idx uint32) []uint32 {
	start := len(dst)
	dst = append(dst, make([]uint32, s.leaves)...)
	s.unfold(dst[start:], 1, idx)
	return dst[:start+s.width]
}

// unfold writes the leaves under node i, whose index is idx, into out
// (the leaves of node i's subtree, in order).
func (s *Tree) unfold(out []uint32, i int, idx uint32) {
	p := s.nodes[i].data.at(idx)
	if 2*i >= s.leaves {
		out[0], out[1] = p[0], p[1]
		return
	}
	h := len(out) / 2
	s.unfold(out[:h], 2*i, p[0])
	s.unfold(out[h:], 2*i+1, p[1])
}

func (s *Tree) Parent(idx uint32) uint32 { return s.par.at(idx) }
func (s *Tree) Len() int                 { return int(s.nodes[1].len()) }
func (s *Tree) Width() int               { return s.width }

func (s *Tree) Bytes() int64 {
	b := s.par.v.bytes()
	for _, t := range s.nodes[1:] {
		b += t.bytes()
	}
	return b
}
