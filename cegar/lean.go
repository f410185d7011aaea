package cegar

import (
	"math"

	"fencer/domains"
)

// Lean passes (doc.go, "Partial-order reduction"): forward takes the
// steps of the process p that reached a state, as long as p's candidate
// ample set comes first there (and, when conditional, is allowed by the
// state's values), without making the state in full. Where any of that
// does not hold (p's candidate is not first or is blocked, a component or
// a profile is not made yet, no candidate step is enabled) passLean
// returns leanFull, and forward makes the state in full and goes on as
// before.

// noLean turns lean passes off (tests compare).
var noLean = false

// leanState is a state forward passes through, as base's control state
// with process p's component replaced by c.
type leanState struct {
	base *nodeSteps
	p    int
	c    *ctlComp
	n    ctlNode     // its node (transient, or a node: a copy)
	pr   *ctlProfile // n's profile
	pk   uint64      // its profile parts key (withPart), when pkOK
	pkOK bool        //
	// lo and hi are the fewest candidate steps of the processes before
	// and after p (math.MaxInt when none has a candidate): p's candidate
	// comes first when it is shorter than lo and no longer than hi
	// (flatAmple's order).
	lo, hi int
	// left and held are what base's other components leave out and hold
	// back (stepsOfComps' counts).
	left int64
	held int32
	// tgt are the targets of the candidate steps of the state (at most
	// leanMax), their profiles, compiled steps and parts keys: an entry
	// of the worker's leanCache, or own, until the next resolveLean.
	tgt *[leanMax]leanTarget
	own [leanMax]leanTarget
}

// leanTarget is a candidate step's target, resolved by resolveLean.
type leanTarget struct {
	n  ctlNode
	pr *ctlProfile
	cm *compiled
	pk uint64
}

// leanCache is a worker's cache of resolveLean's targets, direct-mapped
// by the state's parts key and component: a level's states are expanded
// grouped by control state (levelorder.go), so the states of a group
// pass through the same control states again, with other values. An
// entry is never wrong, only replaced; it holds components of one
// exploration (release clears it).
type leanCache [leanCacheSize]leanCacheEntry

type leanCacheEntry struct {
	pk    uint64
	c     *ctlComp
	stage int8
	tgt   [leanMax]leanTarget
}

// leanCacheBits is the log of the number of entries of a leanCache.
const leanCacheBits = 8

const leanCacheSize = 1 << leanCacheBits

// leanMax is the most candidate steps passLean takes at a state: a local
// step is an assignment or one of the assumes of a branch.
const leanMax = 4

// leanEnd says how passLean stopped at its state.
type leanEnd int

const (
	leanFull leanEnd = iota // make the state in full and go on there
	leanStop                // the walk ends at the state
	leanCut                 // the state's one step is asleep: no state
)

// leanOthers is what a lean pass of process p reads of the other
// processes' components of the state it starts from (leanState's lo, hi,
// left and held): the same for every state of a control state.
type leanOthers struct {
	lo, hi int
	left   int64
	held   int32
}

// othersOf returns from's leanOthers for process p, made once for each
// time from is made (stepsOfComps clears them).
func (x *explorer) othersOf(from *nodeSteps, p int) *leanOthers {
	if len(from.others) < len(from.comps) {
		from.others = make([]leanOthers, len(from.comps))
	}
	o := &from.others[p]
	if p >= 64 || from.othersOK&(1<<p) == 0 {
		first := x.stage == 1
		*o = leanOthers{lo: math.MaxInt, hi: math.MaxInt}
		for q, cq := range from.comps {
			if cq == nil || q == p {
				continue
			}
			o.left += int64(cq.left)
			o.held += cq.held
			cc, _ := cq.candidate(first)
			switch n := len(cc); {
			case n == 0:
			case q < p:
				o.lo = min(o.lo, n)
			default:
				o.hi = min(o.hi, n)
			}
		}
		if p < 64 {
			from.othersOK |= 1 << p
		}
	}
	return o
}

// startLean sets l to the target of step i of from (made in full), and
// reports whether passLean can start there: p's candidate comes first, or
// no process has one (else l is not set).
func (x *explorer) startLean(l *leanState, from *nodeSteps, i int32) bool {
	p, st := from.step(i)
	c := st.to
	if !c.ready.Load() {
		return false
	}
	cand, _ := c.candidate(x.stage == 1)
	o := x.othersOf(from, p)
	lo, hi := o.lo, o.hi
	if len(cand) == 0 && (lo < math.MaxInt || hi < math.MaxInt) || len(cand) >= lo || len(cand) > hi {
		return false
	}
	l.base, l.p, l.c, l.n = from, p, c, *from.res[i].next
	l.pr = x.prof(&l.n)
	l.pk, l.pkOK = x.withPart(from.pk, from.pkOK, p, c.part)
	l.lo, l.hi, l.left, l.held = lo, hi, o.left, o.held
	return true
}

// first returns p's candidate at l's state, whether it is conditional,
// and whether it comes first (its component made), or no process has one
// there (an empty candidate).
func (l *leanState) first(x *explorer) ([]int32, bool, bool) {
	if !l.c.ready.Load() {
		return nil, false, false
	}
	cand, cond := l.c.candidate(x.stage == 1)
	if len(cand) == 0 {
		return nil, false, l.lo == math.MaxInt && l.hi == math.MaxInt
	}
	return cand, cond, len(cand) < l.lo && len(cand) <= l.hi
}

// resolveLean resolves the targets of the steps cand of l's component
// from their profile parts, as resolveByParts does; false when one's
// profile or compiled step is not at hand without the lock. No target is
// bad: a candidate's steps enter no location of a bad state (procCandidate),
// and l's state is not bad.
func (x *explorer) resolveLean(w *worker, l *leanState, cand []int32) (bool, error) {
	s := &w.ctl
	if s.profX != x {
		return false, nil
	}
	if len(cand) > leanMax {
		return false, nil
	}
	var e *leanCacheEntry
	l.tgt = &l.own
	if l.pkOK && !checkProfiles {
		h := (l.pk ^ uint64(l.c.id)*0x9e3779b97f4a7c15) * 0xff51afd7ed558ccd
		e = &s.leanTgts[h>>(64-leanCacheBits)]
		l.tgt = &e.tgt
		if e.c == l.c && e.pk == l.pk && e.stage == int8(x.stage) {
			return true, nil
		}
		e.c = nil // filled below, or left empty
	}
	xid := l.pr.xid
	p := l.p
	for k, j := range cand {
		st := &l.c.steps[j]
		v, ok := x.withPart(l.pk, l.pkOK, p, st.to.part)
		if !ok {
			return false, nil
		}
		pr, ok := s.profs.get(v)
		if !ok {
			return false, nil
		}
		t := ctlNode{id: -1, pb: pr}
		if checkProfiles {
			if err := x.checkDraft(w, appendKeyWith(s.keys[:0], l.base, p, st.to.id), t.pb); err != nil {
				return false, err
			}
		}
		tp := x.prof(&t)
		cm := st.compiledFast(xid, tp.xid)
		if cm == nil {
			return false, nil
		}
		l.tgt[k] = leanTarget{t, tp, cm, v}
	}
	if e != nil {
		e.pk, e.c, e.stage = l.pk, l.c, int8(x.stage)
	}
	return true, nil
}

// countLean counts the writes left out and the steps held back at l's
// state, as stepsOfComps does for a state made in full.
func (x *explorer) countLean(l *leanState) {
	if left := l.left + int64(l.c.left); left > 0 {
		x.dropped.Add(left)
	}
	if x.stage == 1 {
		if held := l.held + l.c.held; held > 0 {
			x.heldN.Add(int64(held))
		}
	}
}

// leanInPlace reports whether every one of tgt's steps can be applied in
// place (domains.Step.InPlace).
func leanInPlace(tgt []leanTarget) bool {
	for k := range tgt {
		if !tgt[k].cm.x.InPlace() {
			return false
		}
	}
	return true
}

// passLean takes the steps of l's process from l's state, with values
// *cur, as forward would, while they pass through a state; l ends at the
// state where it stops, *cur its values. passed and sleep are forward's.
func (x *explorer) passLean(w *worker, l *leanState, cur *[]int64, passed *int, sleep *uint32) (leanEnd, error) {
	for {
		cand, cond, ok := l.first(x)
		switch {
		case !ok:
			return leanFull, nil
		case len(cand) == 0:
			// No process has a candidate ample set: the state is
			// expanded in full, where it is stored.
			x.countLean(l)
			return leanStop, nil
		case cond && x.por.blocked(l.p, l.c.pc, *cur, &w.porVals, &w.porKey):
			// forward goes on with the next candidate (allowed).
			return leanFull, nil
		}
		if ok, err := x.resolveLean(w, l, cand); !ok || err != nil {
			return leanFull, err
		}
		count, chosen := 0, 0
		// When the candidate's steps allow it, their guards decide
		// which is enabled, and the one that is changes cur itself, not
		// a copy (ApplyInPlace).
		inPlace := l.pr.dyn == nil && !checkProfiles && leanInPlace(l.tgt[:len(cand)])
		if inPlace {
			for k := range cand {
				ok, err := l.tgt[k].cm.x.Enabled(*cur)
				if err != nil {
					return leanFull, err
				}
				if ok {
					if count, chosen = count+1, k; count > 1 {
						break
					}
				}
			}
			if count == 1 {
				if err := l.tgt[chosen].cm.x.ApplyInPlace(*cur, l.c.steps[cand[chosen]].clear); err != nil {
					return leanFull, err
				}
			}
		} else {
			for k, j := range cand {
				var first bool
				var err error
				count, first, err = x.applyCount(w, l.tgt[k].cm, *cur, l.tgt[k].pr, l.c.steps[j].clear, count)
				if err != nil {
					return leanFull, err
				}
				if first {
					chosen = k
				}
				if count > 1 {
					break
				}
			}
		}
		switch {
		case count == 0:
			return leanFull, nil
		case count > 1:
			x.countLean(l)
			return leanStop, nil
		}
		x.countLean(l)
		if dyn := l.pr.dyn; dyn != nil && !x.lay.Observe(dyn, *cur) {
			return leanFull, domains.ErrDomainFull
		}
		j := cand[chosen]
		st := &l.c.steps[j]
		if sleep != nil && *sleep != 0 {
			if *sleep&st.name != 0 {
				return leanCut, nil
			}
			*sleep = x.sleepStep(*sleep, l.p, st)
		}
		*passed++
		if !inPlace {
			*cur, w.ffNext = w.ffNext, *cur
		}
		t := &l.tgt[chosen]
		l.n, l.pr, l.c, l.pk = t.n, t.pr, st.to, t.pk
	}
}
