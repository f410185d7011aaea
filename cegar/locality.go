package cegar

import (
	"os"
	"strings"

	"fencer/cs"
	"fencer/predabs"
	"fencer/smt/expr"
)

// locality says where each predicate is kept: everywhere (the program's
// guards, seeds) or only at the control locations where a refinement found
// it useful (lazy abstraction, Henzinger et al. 2002).
// placement is where one predicate is kept: per process the set of its
// locations (nil: any).
type placement []map[cs.Loc]bool

type locality struct {
	// at[i] is nil when predicate i is kept everywhere, else per process
	// the set of its locations where the predicate is kept (nil: any).
	at    []placement
	procs map[string]int // process name → index
	own   bool
}

// setSystem names the processes of sys (whose locations are those of the
// predicates already placed).
func (l *locality) setSystem(sys *cs.System) {
	l.procs = map[string]int{}
	l.own = os.Getenv("FENCER_LOC") == "own"
	for i, p := range sys.Procs {
		l.procs[p.Name] = i
	}
}

// clone copies one predicate's placement.
func (m placement) clone() placement {
	out := make(placement, len(m))
	for p, s := range m {
		if s != nil {
			out[p] = map[cs.Loc]bool{}
			for l := range s {
				out[p][l] = true
			}
		}
	}
	return out
}

// owners returns the processes whose locals, buffer slots or last-write
// values f mentions.
func (l *locality) owners(f expr.Expr) map[int]bool {
	out := map[int]bool{}
	for _, v := range expr.Vars(f) {
		j := strings.IndexAny(v, "#.")
		if j < 0 {
			continue
		}
		if p, ok := l.procs[v[:j]]; ok {
			out[p] = true
		}
	}
	return out
}

// keeps reports whether predicate i is kept at pc.
func (l *locality) keeps(i int, pc []cs.Loc) bool {
	if i >= len(l.at) || l.at[i] == nil {
		return true
	}
	for p, m := range l.at[i] {
		if m != nil && !m[pc[p]] {
			return false
		}
	}
	return true
}

// addPred adds f to ps, kept everywhere when pc is nil, else (also) at pc.
// It reports whether the precision changed: a new predicate, or one kept
// at a new location.
func (l *locality) addPred(ps *predabs.Preds, f expr.Expr, pc []cs.Loc) bool {
	n := ps.Len()
	isNew := ps.Add(f)
	i := n
	if !isNew {
		i = ps.Index(f)
		if i < 0 || i >= len(l.at) || l.at[i] == nil {
			return false // a constant, or kept everywhere already
		}
	}
	for len(l.at) < i {
		l.at = append(l.at, nil) // added elsewhere: kept everywhere
	}
	if len(l.at) == i {
		l.at = append(l.at, nil)
	}
	if pc == nil {
		l.at[i] = nil
		return true
	}
	if isNew {
		l.at[i] = make(placement, len(pc))
		var own map[int]bool
		if l.own {
			own = l.owners(ps.At(i).F)
			if len(own) == 0 {
				l.at[i] = nil
				return true
			}
		}
		for p := range pc {
			if own == nil || own[p] {
				l.at[i][p] = map[cs.Loc]bool{}
			}
		}
	}
	changed := isNew
	for p, m := range l.at[i] {
		if m != nil && !m[pc[p]] {
			m[pc[p]] = true
			changed = true
		}
	}
	return changed
}
