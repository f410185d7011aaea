package cegar

import (
	"time"

	"fencer/fences"
	"fencer/memmodel"
)

// Candidate sets shrunk by witness (doc.go, "Candidate sets shrunk by
// witness"): fences.Shrink looks, among the interleavings of the steps of
// a real counterexample, for a real run of the system without fences
// that fewer elements block, and the engine records that run's candidate
// set and the run as its witness instead of the counterexample's.

// shrink returns a proper subset of cand, the candidate set of the real
// counterexample w of r.sys with fences installed, that is the candidate
// set of a real run of r.sys, with that run as its witness; or cand and
// nil when there is none to be found (or Options.NoShrink).
func (e *engine) shrink(r *refiner, w *Witness, cand []fences.Element) ([]fences.Element, *Witness) {
	if e.opt.NoShrink {
		return cand, nil
	}
	base, err := unfencedTrace(r.sys, w) // orbitcands.go
	if err != nil {
		return cand, nil
	}
	c := memmodel.NewConcrete(r.sys, w.Model)
	states, err := c.Replay(base)
	if err != nil || !c.IsBadState(states[len(states)-1]) {
		return cand, nil
	}
	start := time.Now()
	sh := fences.Shrink(r.sys, c, base, states, e.opt.StoreFences, 0)
	if !sh.OK || len(sh.Set) == 0 || len(sh.Set) >= len(cand) || !within(sh.Set, cand) {
		e.logf("fence case: candidate sites %v not shrunk (%d states searched, %v)", siteLines(r.sys, cand), sh.Searched, time.Since(start).Round(time.Microsecond))
		return cand, nil
	}
	e.logf("fence case: candidate sites %v shrunk to %v by a real run (%d states searched, %v)", siteLines(r.sys, cand), siteLines(r.sys, sh.Set), sh.Searched, time.Since(start).Round(time.Microsecond))
	return sh.Set, &Witness{Sys: r.sys, Model: w.Model, Trace: sh.Run, States: sh.States}
}

// within reports whether every element of a is in b.
func within(a, b []fences.Element) bool {
	in := make(map[fences.Element]bool, len(b))
	for _, x := range b {
		in[x] = true
	}
	for _, x := range a {
		if !in[x] {
			return false
		}
	}
	return true
}
