package cegar

import (
	"context"
	"fmt"
	"strings"
	"time"

	"fencer/cs"
	"fencer/fences"
	"fencer/memmodel"
	"fencer/robust"
)

// This file is the robustness shortcut (package robust, DESIGN.md
// "Robustness is a proof too"): when the program, with the fences installed
// so far, has no relaxed critical pair under the model, every run under the
// model is equivalent to an SC run, so its verdict is the SC verdict and no
// buffer abstraction is needed. Stats.Robust then says so.

// RobustProof is the text of Stats.Robust for model m: "robust: every TSO
// run is equivalent to an SC run".
func RobustProof(m memmodel.Model) string {
	return "robust: every " + strings.ToUpper(m.String()) + " run is equivalent to an SC run"
}

// robustCheck answers "is sys robust under the model with these fences?"
// for the fence sets the CEGAR loop installs. The critical pairs do not
// depend on fences, so the analysis runs once per system.
// It analyses the system on its first question.
type robustCheck struct {
	sys *cs.System
	m   memmodel.Model
	an  *robust.Analysis
}

func newRobustCheck(sys *cs.System, m memmodel.Model) *robustCheck {
	return &robustCheck{sys: sys, m: m}
}

// holds reports whether the system with the fences of set is robust
// (never under SC: there is nothing to prove). A full fence cuts every
// critical pair it lies on; a store fence the write→write ones.
func (c *robustCheck) holds(set []fences.Element) bool {
	if !buffered(c.m) {
		return false
	}
	if c.an == nil {
		c.an = robust.Analyze(c.sys, c.m)
	}
	full, store := map[int]bool{}, map[int]bool{}
	for _, f := range set {
		if f.Kind == cs.FullFence {
			full[f.Site] = true
		} else {
			store[f.Site] = true
		}
	}
	ok, _ := c.an.RobustKinds(full, store)
	return ok
}

// provedRobust ends the CEGAR loop of insert: the installed fences make the
// program robust, and the loop only runs after the SC check found the
// program correct, so it is correct with them.
func (e *engine) provedRobust(sys *cs.System, out *outcome) *outcome {
	out.verdict, out.robustOf = Correct, withElements(sys, out.fences)
	e.stats.Robust = RobustProof(e.opt.Model)
	e.logf("fences %v make the program robust under %s: its verdict is the SC verdict (correct)", out.fences, e.opt.Model)
	return out
}

// robustAfterSC is Insert's shortcut before any exploration with buffers:
// sc is the SC engine and o its outcome (Correct). It returns nil when sys
// is not robust under opt.Model.
func robustAfterSC(sys *cs.System, sc *engine, o *outcome, opt Options, start time.Time) *Result {
	if !newRobustCheck(sys, opt.Model).holds(nil) {
		return nil
	}
	r := sc.result(o, start)
	r.Model = opt.Model
	r.Stats.Robust = RobustProof(opt.Model)
	return r
}

// verifyRobust is Verify's shortcut: when sys is robust under opt.Model, it
// runs the SC check and, if SC finds the program correct, returns that as
// the verdict under the model (ok true). Otherwise (not robust, or an SC
// verdict other than correct, whose trace is an SC trace) ok is false and
// the ordinary exploration decides.
func verifyRobust(ctx context.Context, sys *cs.System, sol Solver, opt Options, st stage, start time.Time) (*Result, bool, error) {
	if !newRobustCheck(sys, opt.Model).holds(nil) {
		return nil, false, nil
	}
	scOpt := opt
	scOpt.Model = memmodel.SC
	// Seeds may mention buffer variables of the weak model, and the memo of
	// an earlier run holds posts under that model: start afresh, as
	// Insert's own SC check does.
	scOpt.Seed = nil
	e := newEngine(sol, scOpt, st)
	defer e.release()
	e.seedFromProgram(sys)
	o, err := e.loop(ctx, sys, false)
	if err != nil {
		return nil, false, err
	}
	if o.verdict != Correct {
		return nil, false, nil
	}
	r := e.result(o, start)
	r.Model = opt.Model
	r.Stats.Robust = RobustProof(opt.Model)
	return r, true, nil
}

// robustUpperBound is insert's way out when the k case does not end: the
// fence sets that make the program robust make it correct (its SC verdict
// is correct: the loop only runs after the SC check), so the least set that
// both hits every candidate set of the real counterexamples found so far
// (the lower bound) and makes the program robust is a verified answer. It
// is a proved minimum when it is no larger than the minimum hitting set of
// the candidate sets; otherwise the fences without a counterexample are
// there for robustness only. It reports false (and changes nothing) when
// no such set is found.
func (e *engine) robustUpperBound(sys *cs.System, out *outcome, reason string) bool {
	if !buffered(e.opt.Model) {
		return false
	}
	fs, err := robust.Analyze(sys, e.opt.Model).MinFencesWith(out.cands)
	if err != nil {
		return false
	}
	lower := 0
	if len(out.cands) > 0 {
		hs, ok := fences.NewOrder(sys, false).MinSet(out.cands) // only its size matters
		if !ok {
			return false
		}
		lower = len(hs)
	}
	out.verdict, out.fences = Correct, fs.Elements()
	out.robustOf = withElements(sys, out.fences)
	proof := RobustProof(e.opt.Model) + " with these fences (the k case did not end: " + reason + ")"
	if len(fs.Sites) <= lower {
		proof += "; as many fences as the counterexamples need: a minimum"
	} else {
		proof += fmt.Sprintf("; the counterexamples need %d, the other fences are there for robustness only: not proved minimum", lower)
		e.stats.NotMinimum = true
	}
	e.stats.Robust = proof
	e.logf("k case gave up (%s): fences %v make the program robust", reason, siteLines(sys, out.fences))
	return true
}
