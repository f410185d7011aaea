package memmodel

import (
	"fencer/cs"
	"fencer/statestore"
)

// stateSet is the visited set of an explicit search: every state as a
// vector of uint32 slots in a compact store (package statestore, collapse
// compression), with no Go allocation and no string per state. The vector
// is the shared memory, then for each process its location, its locals and
// its buffers (under PSO one per shared variable); those are the store's
// components, so a step of one process adds one new component at most (a
// flush two). A value is a slot of statestore.Values; a buffer is the
// index plus one of its oldest write's cell (0: empty), a cell being the
// write's variable, value, epoch and the index plus one of the next
// cell, interned in a table of its own. States are numbered in the order
// they were first inserted; the store gives them back (state).
type stateSet struct {
	c     *Concrete
	ss    *statestore.Collapse
	vals  statestore.Values
	cells *statestore.Table
	// bufAt[b] is the vector slot of buffer b; pcAt[p] that of process
	// p's location; valAt[i] that of value i.
	bufAt, pcAt, valAt []int
	vec                []uint32
	cell               [4]uint32
}

func newStateSet(c *Concrete) (*stateSet, error) {
	np, nb := len(c.Sys.Procs), len(c.emptyBufs())
	s := &stateSet{c: c, cells: statestore.NewTable(4), pcAt: make([]int, np), valAt: make([]int, len(c.names)), bufAt: make([]int, nb)}
	var starts []int
	slot := 0
	if c.ns > 0 {
		starts = append(starts, 0)
		for i := 0; i < c.ns; i++ {
			s.valAt[i] = slot
			slot++
		}
	}
	local := c.ns
	for p, proc := range c.Sys.Procs {
		starts = append(starts, slot)
		s.pcAt[p] = slot
		slot++
		for range proc.Locals {
			s.valAt[local] = slot
			local++
			slot++
		}
		for b := 0; b < nb; b++ {
			if bufProc(c, b) == p {
				s.bufAt[b] = slot
				slot++
			}
		}
	}
	if slot == 0 { // no process, no variable: one constant slot
		starts, slot = []int{0}, 1
	}
	s.vec = make([]uint32, slot)
	var err error
	s.ss, err = statestore.NewCollapse(slot, starts)
	return s, err
}

// bufProc is the process whose buffer b is (State.Buf).
func bufProc(c *Concrete, b int) int {
	if c.layout == PerVariable {
		return b / c.ns
	}
	return b
}

// insert adds st (reached from state parent, statestore.NoParent for an
// initial state) unless it is there, and returns its index and whether it
// is new.
func (s *stateSet) insert(st *State, parent uint32) (uint32, bool, error) {
	if err := s.encode(st); err != nil {
		return 0, false, err
	}
	return s.ss.Insert(s.vec, parent)
}

// has reports whether st is in the set.
func (s *stateSet) has(st *State) (bool, error) {
	if err := s.encode(st); err != nil {
		return false, err
	}
	_, ok := s.ss.Lookup(s.vec)
	return ok, nil
}

// encode puts the vector of st into s.vec.
func (s *stateSet) encode(st *State) error {
	for p, l := range st.PC {
		s.vec[s.pcAt[p]] = uint32(l)
	}
	for i, v := range st.Vals {
		w, ok := statestore.Small(v)
		if !ok {
			var err error
			if w, err = s.vals.Slot(v); err != nil {
				return err
			}
		}
		s.vec[s.valAt[i]] = w
	}
	for b, buf := range st.Buf {
		next := uint32(0)
		for j := len(buf) - 1; j >= 0; j-- {
			e := buf[j]
			val, err := s.vals.Slot(e.Val)
			if err != nil {
				return err
			}
			ep, err := s.vals.Slot(int64(e.Epoch))
			if err != nil {
				return err
			}
			s.cell = [4]uint32{uint32(e.Var), val, ep, next}
			i, _, err := s.cells.Intern(s.cell[:])
			if err != nil {
				return err
			}
			next = i + 1
		}
		s.vec[s.bufAt[b]] = next
	}
	return nil
}

// state returns state i as a fresh State.
func (s *stateSet) state(i uint32) *State {
	s.vec = s.ss.Vector(s.vec[:0], i)
	st := &State{PC: make([]cs.Loc, len(s.pcAt)), Vals: make([]int64, len(s.valAt)), Buf: s.c.emptyBufs()}
	for p, at := range s.pcAt {
		st.PC[p] = cs.Loc(s.vec[at])
	}
	for i, at := range s.valAt {
		st.Vals[i] = s.vals.Value(s.vec[at])
	}
	for b, at := range s.bufAt {
		for next := s.vec[at]; next != 0; {
			cell := s.cells.At(next - 1)
			st.Buf[b] = append(st.Buf[b], Entry{Var: int(cell[0]), Val: s.vals.Value(cell[1]), Epoch: int(s.vals.Value(cell[2]))})
			next = cell[3]
		}
	}
	return st
}

// len is the number of states.
func (s *stateSet) len() int { return s.ss.Len() }

// bytes is the memory the set holds, as allocated.
func (s *stateSet) bytes() int64 { return s.ss.Bytes() + s.cells.Bytes() + s.vals.Bytes() }
