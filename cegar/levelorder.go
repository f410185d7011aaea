package cegar

import "slices"

// Within a depth of the search (explore's level), the states are expanded
// grouped by control state (doc.go, "Partial-order reduction"): the groups
// in the order of their first state in the level, the states of a group
// in theirs. A worker then makes the control part of a state (its steps,
// their targets) once for each run of states of one node
// (nodeSteps.made), and the node's components and profiles stay in its
// caches. The order is the storing goroutine's alone: not by node id,
// since the workers number the nodes in the order they meet them.

// levelOrder holds sortLevel's tables.
type levelOrder struct {
	// mark is, by node id, the stamp of the sort that last met the node
	// (the low markBits bits of its number, in the top bits) and the
	// node's group in that sort's level (the other bits).
	mark  []uint32
	calls uint32
	grp   []int32 // by place in the level: the group of its state's node
	at    []int32 // by group: where its next state goes
	out   []int32
}

const (
	markBits  = 8
	groupBits = 32 - markBits
	groupMask = 1<<groupBits - 1
)

// sortLevel groups the entries of level (a state i, or -1-i for a
// re-expansion of i) by the node of their state: a counting sort. A level
// of more than groupMask entries (16 million) is left in its order: a
// group number would not fit in a mark.
func (x *explorer) sortLevel(st *stateStore, level []int32) {
	if len(level) < 2 || len(level) > groupMask {
		return
	}
	o := &x.order
	o.calls++
	stamp := o.calls & (1<<markBits - 1)
	if stamp == 0 {
		// The stamps wrapped around: forget every mark.
		clear(o.mark)
		o.calls++
		stamp = 1
	}
	o.grp = o.grp[:0]
	groups, runs := int32(0), 0
	for j, e := range level {
		c := st.key(levelState(e)).c
		if int(c) >= len(o.mark) {
			o.mark = append(o.mark, make([]uint32, int(c)+1-len(o.mark))...)
		}
		m := o.mark[c]
		g := int32(m & groupMask)
		if m>>groupBits != stamp {
			g = groups
			groups++
			o.mark[c] = stamp<<groupBits | uint32(g)
		}
		if j == 0 || g != o.grp[j-1] {
			runs++
		}
		o.grp = append(o.grp, g)
	}
	if runs == int(groups) {
		return // grouped already
	}
	at := slices.Grow(o.at[:0], int(groups))[:groups]
	clear(at)
	for _, g := range o.grp {
		at[g]++
	}
	n := int32(0)
	for g, k := range at {
		at[g] = n
		n += k
	}
	out := slices.Grow(o.out[:0], len(level))[:len(level)]
	for j, g := range o.grp {
		out[at[g]] = level[j]
		at[g]++
	}
	o.at, o.out = at, out
	copy(level, out)
}

// bytes is the memory of the marks (the rest is by level, transient).
func (o *levelOrder) bytes() int64 { return int64(cap(o.mark)) * 4 }
