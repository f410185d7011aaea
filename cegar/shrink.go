package cegar

import (
	"time"

	"fencer/cs"
	"fencer/fences"
	"fencer/memmodel"
)

// Candidate sets shrunk by witness (doc.go, "Candidate sets shrunk by
// witness"): fences.Shrink looks, among the interleavings of the steps of
// a real counterexample, for a real run of the system without fences
// that fewer elements block, and the engine records that run's candidate
// set and the run as its witness instead of the counterexample's.

// shrink is shrinkWitness for the counterexample w of r.sys with fences
// installed, unless Options.NoShrink; with -v it logs what it did.
func (e *engine) shrink(r *refiner, w *Witness, cand []fences.Element) ([]fences.Element, *Witness) {
	if e.opt.NoShrink {
		return cand, nil
	}
	start := time.Now()
	set, sw, searched := shrinkWitness(r.sys, w, cand, e.opt.StoreFences)
	took := time.Since(start).Round(time.Microsecond)
	if sw == nil {
		e.logf("fence case: candidate sites %v not shrunk (%d states searched, %v)", siteLines(r.sys, cand), searched, took)
	} else {
		e.logf("fence case: candidate sites %v shrunk to %v by a real run (%d states searched, %v)", siteLines(r.sys, cand), siteLines(r.sys, set), searched, took)
	}
	return set, sw
}

// shrinkWitness returns a proper subset of cand, the candidate set of the
// real counterexample w of sys with fences installed (or of sys itself),
// that is the candidate set of a real run of sys (fences.Shrink), with
// that run as its witness; or cand and nil when none was found. searched
// is the number of states fences.Shrink visited.
func shrinkWitness(sys *cs.System, w *Witness, cand []fences.Element, store bool) (set []fences.Element, sw *Witness, searched int) {
	base, err := unfencedTrace(sys, w) // orbitcands.go
	if err != nil {
		return cand, nil, 0
	}
	c := memmodel.NewConcrete(sys, w.Model)
	states, err := c.Replay(base)
	if err != nil || !c.IsBadState(states[len(states)-1]) {
		return cand, nil, 0
	}
	sh := fences.Shrink(sys, c, base, states, store, 0)
	if !sh.OK || len(sh.Set) == 0 || len(sh.Set) >= len(cand) || !fences.Subset(sh.Set, cand) {
		return cand, nil, sh.Searched
	}
	return sh.Set, &Witness{Sys: sys, Model: w.Model, Trace: sh.Run, States: sh.States}, sh.Searched
}

// original is a real counterexample that a candidate set was shrunk
// from, with its own candidate set.
type original struct {
	w    *Witness
	cand []fences.Element
}

// remember records that sw, the witness of a shrunk candidate set, was
// shrunk from the counterexample w with candidate set cand.
func (o *outcome) remember(sw, w *Witness, cand []fences.Element) {
	if o.shrunkFrom == nil {
		o.shrunkFrom = map[*Witness]original{}
	}
	o.shrunkFrom[sw] = original{w, cand}
}

// shown is the run to show for a fence whose witness is w, chosen because
// the candidate set of w meets the answer (in) in that fence only: the
// counterexample w was shrunk from when its own candidate set does so too
// (the run the exploration found, as a rule shorter than the one the
// shrinking built), else w.
func (o *outcome) shown(w *Witness, in map[fences.Element]bool) *Witness {
	orig, ok := o.shrunkFrom[w]
	if !ok {
		return w
	}
	n := 0
	for _, e := range orig.cand {
		if in[e] {
			n++
		}
	}
	if n != 1 {
		return w
	}
	return orig.w
}
