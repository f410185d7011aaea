package cegar

import (
	"sort"
	"strings"

	"fencer/cs"
)

// Partial is what an Insert that stopped early (verdict Unknown: a limit
// was hit or the run was interrupted) knew when it stopped. None of it is
// verified: the program with Fences may still have counterexamples that
// the run did not reach.
type Partial struct {
	// Phase is where the run stopped: "SC" (the SC check), the model's
	// name in capitals ("TSO", "PSO"), or "final check" (of the patched
	// program).
	Phase string
	// Fences is the fence set installed when the run stopped, in source
	// order: a minimum hitting set of the candidate sets of the real
	// counterexamples found, each fence with the counterexample that
	// needs it. Empty when no real counterexample was found.
	Fences []Fence
	// LowerBound is a number of fences that every correct fence set
	// needs at least: the size of a minimum hitting set of the candidate
	// sets found (each real counterexample must be blocked).
	LowerBound int
	// Counterexamples is the number of real counterexamples found; Fences
	// blocks every one of them.
	Counterexamples int
}

// partialOf is the Partial of an insert stopped in phase with outcome o of
// its loop on sys (nil o: nothing was found).
func partialOf(sys *cs.System, o *outcome, phase string) *Partial {
	p := &Partial{Phase: phase}
	if o == nil {
		return p
	}
	for _, id := range o.fences {
		p.Fences = append(p.Fences, fenceOf(sys, id, witnessFor(id, o)))
	}
	sort.Slice(p.Fences, func(i, j int) bool { return p.Fences[i].Site.Start < p.Fences[j].Site.Start })
	p.LowerBound = len(o.fences)
	p.Counterexamples = len(o.cands)
	return p
}

// phaseName is the Partial.Phase of a loop under the options' model.
func phaseName(opt Options) string { return strings.ToUpper(opt.Model.String()) }
