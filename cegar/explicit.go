package cegar

import (
	"errors"
	"fmt"

	"fencer/cs"
	"fencer/domains"
	"fencer/kabs"
	"fencer/memmodel"
)

// This file classifies counterexamples without a solver when every variable
// of the system is explicit (domains.Info.AllFinite: static or dynamic): the
// system then has no havoc and no nondeterministic initial value but
// ranged ones (domains/nondet.go), so a schedule and a choice of the
// ranged initial values determine its run, and the explicit-value domain
// is exact up to the k-abstraction.
//
//   - Real trace: the run of the schedule under the exact semantics is
//     replayed by the explicit checker from each choice of initial values
//     (domains.Info.InitChoices); it is real exactly when one replay goes
//     through (the path formula of a deterministic run is satisfiable
//     exactly then).
//   - k case: an abstract counterexample found with no kept predicate is a
//     run of the k-abstraction with explicit values, so its path formula is
//     satisfiable: it is a k case whenever it is not real.
//   - Raising k: the schedule is run in the k'-abstraction with explicit
//     values, every choice of an UPDATE-AM flush followed (it is the only
//     nondeterminism); it is infeasible exactly when no run survives. For a
//     dynamic variable the choices are its tail set (domains/dynamic.go);
//     a tail write outside its candidate domain would drop a choice, so
//     then the SMT check decides instead.

// errNotExplicit says that the explicit classification does not apply (a
// step needs the solver after all); the caller falls back to SMT.
var errNotExplicit = errors.New("not explicit")

// replayDet returns the real trace of a deterministic schedule, or nil when
// a step of it is not enabled.
func (e *engine) replayDet(sys *cs.System, model memmodel.Model, steps []kabs.AStep) (*Witness, error) {
	c := memmodel.NewConcrete(sys, model)
	tr := concreteTrace(c, steps, func(string) (int64, bool) { return 0, false })
	// One run per choice of the ranged initial values (domains/nondet.go):
	// the first that goes through is the trace.
	for _, init := range e.info.InitChoices() {
		tr.Init = init
		states, err := c.Replay(tr)
		if err != nil {
			continue
		}
		if !c.IsBadState(states[len(states)-1]) {
			return nil, fmt.Errorf("internal error: a replayed counterexample does not end in a bad state")
		}
		return &Witness{Sys: sys, Model: model, Trace: tr, States: states}, nil
	}
	return nil, nil
}

// feasibleExplicit reports whether the schedule steps is feasible in abs,
// following every UPDATE-AM choice; errNotExplicit when a step of it is not
// explicit.
func feasibleExplicit(info *domains.Info, abs *kabs.Abs, steps []kabs.AStep) (bool, error) {
	if info.OrderView() {
		// The view's canonical forms over-approximate where a step was
		// widened: with concrete values the answer is exact.
		return feasibleConcrete(info, abs, steps)
	}
	return feasibleWith(domains.NewLayout(info, abs), abs, steps)
}

// feasibleWith is feasibleExplicit over the layout lay of abs.
func feasibleWith(lay *domains.Layout, abs *kabs.Abs, steps []kabs.AStep) (bool, error) {
	ts, ctls, _, ok := abs.Interpret(steps)
	if !ok {
		return false, nil
	}
	cur := map[string][]int64{}
	for _, v0 := range lay.Inits(ctls[0]) {
		cur[domains.Key(v0)] = v0
	}
	scratch := make([]int64, lay.Len())
	for i, t := range ts {
		preX, postX := lay.Explicit(ctls[i]), lay.Explicit(ctls[i+1])
		st, err := lay.Compile(preX, postX, t, steps[i])
		if err != nil || st.GuardSymbolic || st.AssignsSymbolic {
			return false, errNotExplicit
		}
		zero := lay.Zero(ctls[i+1])
		next := map[string][]int64{}
		for _, v := range cur {
			err := st.Apply(v, zero, scratch, func(w []int64) bool {
				k := domains.Key(w)
				if _, ok := next[k]; !ok {
					next[k] = append([]int64(nil), w...)
				}
				return true
			})
			if err != nil {
				return false, errNotExplicit
			}
		}
		if len(next) == 0 {
			if lay.Missed() { // a dropped UPDATE-AM choice might have survived
				return false, errNotExplicit
			}
			return false, nil
		}
		cur = next
	}
	return true, nil
}
