package cegar

import "fencer/cs"

// badMoves indexes the bad states of a system (cs.System.IsBad) by the
// process that moves into one: a step of process q from a state that is
// not bad reaches a bad one only at q's assert sink or at a forbidden
// combination that names q at its new location. A step's target is
// decided by those alone (badMoves.bad), not by every combination.
type badMoves struct {
	sys *cs.System
	// at lists, by process and location, the indices in sys.Bad of the
	// combinations with that process there.
	at [][][]int32
}

func newBadMoves(sys *cs.System) *badMoves {
	m := &badMoves{sys: sys, at: make([][][]int32, len(sys.Procs))}
	for q, proc := range sys.Procs {
		m.at[q] = make([][]int32, len(proc.Out))
	}
	for k, b := range sys.Bad {
		for j, q := range b.Procs {
			if l := int(b.Locs[j]); l >= 0 && l < len(m.at[q]) {
				m.at[q][l] = append(m.at[q][l], int32(k))
			}
		}
	}
	return m
}

// bad reports whether the locations pcs, those of a state that is not
// bad but for process q, now at pcs[q], are a bad state.
func (m *badMoves) bad(pcs []cs.Loc, q int) bool {
	l := pcs[q]
	if l == m.sys.Procs[q].ErrLoc {
		return true
	}
	if int(l) < 0 || int(l) >= len(m.at[q]) {
		return m.sys.IsBad(pcs)
	}
	for _, k := range m.at[q][l] {
		if m.sys.Bad[k].Holds(pcs) {
			return true
		}
	}
	return false
}
