package memmodel

import (
	"context"
	"encoding/binary"
	"fmt"

	"fencer/statestore"
)

// ControlKey encodes the part of s that a process can observe of itself:
// the control locations of all processes and the values of all locals (not
// shared memory, not buffers). Equal keys mean equal projections.
func (c *Concrete) ControlKey(s *State) string {
	b := make([]byte, 0, 4*len(s.PC)+8*(len(s.Vals)-c.ns))
	for _, l := range s.PC {
		b = binary.AppendUvarint(b, uint64(l))
	}
	for _, v := range s.Vals[c.ns:] {
		b = binary.AppendVarint(b, v)
	}
	return string(b)
}

// DescribeControl prints a ControlKey's state for messages: "pc=[..] locals=[..]".
func (c *Concrete) DescribeControl(s *State) string {
	return fmt.Sprintf("pc=%v locals=%v", s.PC, s.Vals[c.ns:])
}

// ReachSet explores the whole state space of c breadth first, bad states
// included (it does not stop at them), and returns the ControlKey of every
// reachable state, with one state per key for messages. complete is false
// when lim or ctx cut the search: the set is then a subset.
func (c *Concrete) ReachSet(ctx context.Context, lim Limits) (set map[string]*State, complete bool, err error) {
	if lim.MaxStates <= 0 {
		lim.MaxStates = 1_000_000
	}
	seen, err := newStateSet(c)
	if err != nil {
		return nil, false, err
	}
	set = map[string]*State{}
	var depth []int32 // by state of seen: the queue is their numbering
	complete = true
	for _, s := range c.Initials(lim.MaxStates) {
		if _, fresh, err := seen.insert(s, statestore.NoParent); err != nil {
			return nil, false, err
		} else if fresh {
			depth = append(depth, 0)
		}
	}
	for head := 0; head < len(depth); head++ {
		if head&1023 == 0 && ctx.Err() != nil {
			return set, false, nil
		}
		s := seen.state(uint32(head))
		if k := c.ControlKey(s); set[k] == nil {
			set[k] = s
		}
		if lim.MaxDepth > 0 && int(depth[head]) >= lim.MaxDepth {
			complete = false
			continue
		}
		_, succ, err := c.Successors(s)
		if err != nil {
			return nil, false, err
		}
		for _, t := range succ {
			if seen.len() >= lim.MaxStates {
				had, err := seen.has(t)
				if err != nil {
					return nil, false, err
				}
				if had {
					continue
				}
				return set, false, nil
			}
			_, fresh, err := seen.insert(t, uint32(head))
			if err != nil {
				return nil, false, err
			}
			if fresh {
				depth = append(depth, depth[head]+1)
			}
		}
	}
	return set, complete, nil
}
