package kabs

import (
	"slices"

	"fencer/cs"
	"fencer/memmodel"
)

// What a partial-order reduction of the exploration needs to know of the
// k-abstraction: which steps of a process are independent of every step of
// every other process and of the process's own buffer flushes (Local), and
// which steps can change whether a state is bad (Visibility). The argument
// that uses them is in cegar/doc.go.

// Local reports whether every edge leaving p's location in c is a
// process-local step in c, one whose effect and enabledness no step of
// another process and no flush of p's own buffer can change, and which
// changes nothing those steps read:
//
//   - an assignment, assume or havoc: the front end lets such operations
//     mention only p's locals, which nothing but p's own edges touch;
//
//   - a fence with p's buffer empty (no flush of p can come first, and the
//     step changes no data);
//
//   - a write that goes to the exact part of p's buffer (WRITE-L): it
//     touches only p's buffer, and the flushes of p can only shrink the
//     buffer, so the write stays a WRITE-L with the same result in either
//     order (the newest slot and lw_{p,x} are written, the flush moves the
//     oldest slot out). Under SC a write goes to memory: not local.
//
//   - a read of a variable that no other process writes (owned by p, or
//     written by none): it gives p's last write to it, or the initial
//     value, whatever the other processes and p's flushes do (a flush of
//     p's oldest write leaves the newest one in the buffer, or puts the
//     last one in memory), and it changes only p's local.
//
// Other reads are not local even when p's buffer serves them: a flush of
// p can empty the buffer first and the read then sees memory, which other
// processes write. Atomic blocks touch memory: not local. A disabled edge
// counts too: its guard reads only p's locals, so it stays disabled until p
// moves.
func (a *Abs) Local(c *Ctl, p int) bool { return a.LocalUnder(c, p, a.K) }

// LocalUnder is Local with the exact part of a buffer k writes long: what
// Local would say in the k-abstraction, for a control state of a with no
// more than k exact writes in a buffer (a staged exploration, package
// cegar, explores a's graph in the order of a smaller k first).
func (a *Abs) LocalUnder(c *Ctl, p int, k int) bool {
	proc := a.Sys.Procs[p]
	for _, ei := range proc.Out[c.PC[p]] {
		op := proc.Edges[ei].Op
		switch op.Kind {
		case cs.OpRead:
			if !a.Owned(p, op.Shared) {
				return false
			}
		case cs.OpAssign, cs.OpAssume, cs.OpHavoc:
		case cs.OpFence:
			if !c.Empty(p) {
				return false
			}
		case cs.OpWrite:
			if a.layout == memmodel.Unbuffered || !a.exactRoomUnder(c, p, a.sidx[op.Shared], k) {
				return false
			}
		default:
			return false
		}
	}
	return true
}

// Owned reports whether no process but p writes the shared variable x
// (by a write or in an atomic block).
func (a *Abs) Owned(p int, x string) bool {
	a.ownOnce.Do(func() {
		a.writers = map[string][]int{}
		var add func(q int, op cs.Op)
		add = func(q int, op cs.Op) {
			if op.Kind == cs.OpWrite && !slices.Contains(a.writers[op.Shared], q) {
				a.writers[op.Shared] = append(a.writers[op.Shared], q)
			}
			for _, b := range op.Body {
				add(q, b)
			}
		}
		for q, proc := range a.Sys.Procs {
			for _, e := range proc.Edges {
				add(q, e.Op)
			}
		}
	})
	w := a.writers[x]
	return len(w) == 0 || len(w) == 1 && w[0] == p
}

// MayBeLocal reports whether an edge of p with operation op can be a
// local step in some control state (Local): reads of variables p does
// not own and atomic blocks never are.
func (a *Abs) MayBeLocal(p int, op cs.Op) bool {
	switch op.Kind {
	case cs.OpAssign, cs.OpAssume, cs.OpHavoc, cs.OpFence, cs.OpWrite:
		return true
	case cs.OpRead:
		return a.Owned(p, op.Shared)
	}
	return false
}

// Visibility returns, per process and location, whether being at that
// location is part of some bad state: the process's assert sink, or its
// location in a forbidden or mutex declaration. A step that neither leaves
// nor enters such a location cannot change whether a state is bad.
func Visibility(sys *cs.System) [][]bool {
	out := make([][]bool, len(sys.Procs))
	for i, p := range sys.Procs {
		out[i] = make([]bool, p.NumLocs)
		if p.ErrLoc >= 0 {
			out[i][p.ErrLoc] = true
		}
	}
	for _, b := range sys.Bad {
		for j, pi := range b.Procs {
			out[pi][b.Locs[j]] = true
		}
	}
	return out
}
