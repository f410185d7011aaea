package cs

import (
	"slices"
	"strconv"
	"strings"
)

// SameFuture returns, per location of p, the least location with the same
// future as it: the coarsest partition of the locations in which two
// locations of one block have the same label (given by the caller: what
// makes a location part of a bad state), the same live locals, and their
// outgoing edges, in order, pairwise the same operation (sameOp, and the
// same annotations and address dependencies) into locations of one block.
// It is a bisimulation of the automaton: from two locations of one block,
// with the same values and buffers, the runs are the same step by step
// (edge i of one for edge i of the other), through locations of the same
// blocks, so the same bad states are reached. Fence sites (Edge.Points)
// and positions are not compared: a run through one location is mapped
// back to the other's edges by their order.
//
// A loop written `c = x; while (c != 0) { c = x; }` has two locations
// before a read of x into c, the one before the loop and the one in its
// body, with one future.
func (p *Process) SameFuture(label func(Loc) string) []Loc {
	live := p.Live()
	// The first partition: by label and live locals.
	block := make([]int, p.NumLocs)
	ids := map[string]int{}
	var sb strings.Builder
	for l := 0; l < p.NumLocs; l++ {
		sb.Reset()
		sb.WriteString(label(Loc(l)))
		sb.WriteByte(0)
		names := make([]string, 0, len(live[l]))
		for v := range live[l] {
			names = append(names, v)
		}
		slices.Sort(names)
		sb.WriteString(strings.Join(names, ","))
		block[l] = intern(ids, sb.String())
	}
	// The operations, numbered up to sameOp.
	var ops []Op
	opID := make([]int, len(p.Edges))
	for i, e := range p.Edges {
		opID[i] = -1
		for j, o := range ops {
			if o.Same(e.Op) {
				opID[i] = j
				break
			}
		}
		if opID[i] < 0 {
			opID[i] = len(ops)
			ops = append(ops, e.Op)
		}
	}
	// Refine until the number of blocks is stable.
	n := len(ids)
	for {
		next := map[string]int{}
		nb := make([]int, p.NumLocs)
		for l := 0; l < p.NumLocs; l++ {
			sb.Reset()
			sb.WriteString(strconv.Itoa(block[l]))
			for _, ei := range p.Out[l] {
				sb.WriteByte(' ')
				sb.WriteString(strconv.Itoa(opID[ei]))
				sb.WriteByte('>')
				sb.WriteString(strconv.Itoa(block[p.Edges[ei].To]))
			}
			nb[l] = intern(next, sb.String())
		}
		block = nb
		if len(next) == n {
			break
		}
		n = len(next)
	}
	rep := make([]Loc, p.NumLocs)
	least := map[int]Loc{}
	for l := 0; l < p.NumLocs; l++ {
		if r, ok := least[block[l]]; ok {
			rep[l] = r
		} else {
			least[block[l]] = Loc(l)
			rep[l] = Loc(l)
		}
	}
	return rep
}

// Same reports whether o and b are the same operation in the sense of
// SameFuture.
func (o Op) Same(b Op) bool {
	return sameOp(o, b) && o.Ann == b.Ann && slices.Equal(o.Addr, b.Addr) && sameAnns(o.Body, b.Body)
}

// sameAnns compares the annotations and address dependencies of the
// steps of two atomic bodies that sameOp found the same.
func sameAnns(a, b []Op) bool {
	for i := range a {
		if a[i].Ann != b[i].Ann || !slices.Equal(a[i].Addr, b[i].Addr) || !sameAnns(a[i].Body, b[i].Body) {
			return false
		}
	}
	return true
}

// intern returns the number of s in ids, made if new.
func intern(ids map[string]int, s string) int {
	if i, ok := ids[s]; ok {
		return i
	}
	ids[s] = len(ids)
	return ids[s]
}
