package cegar

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"time"

	"fencer/cs"
	"fencer/domains"
	"fencer/fences"
	"fencer/memmodel"
	"fencer/predabs"
)

// Verify decides whether sys is correct under opt.Model, without inserting
// fences: Correct, Unsafe with a shortest real trace the engine found
// (SCBug when the model is SC), or Unknown.
func Verify(ctx context.Context, sys *cs.System, sol Solver, opt Options) (*Result, error) {
	opt.defaults()
	return verify(ctx, sys, sol, opt, stage{}, nil, nil)
}

// verify is Verify, reusing the memo of abstract posts of memo if it is not
// nil (posts are pure functions of the cube, the transition and the
// predicates, so the memo stays valid across systems), and starting the
// dynamic domains from those of seed if it is not nil.
func verify(ctx context.Context, sys *cs.System, sol Solver, opt Options, st stage, memo *predabs.Abstractor, seed *domains.Info) (*Result, error) {
	start := time.Now()
	sys, err := memmodel.ForBuffers(sys, memmodel.OrSC(opt.Model))
	if err != nil {
		return nil, err
	}
	sys = sys.WithoutDeadInits()
	if r, ok, err := verifyRobust(ctx, sys, sol, opt, st, start); ok || err != nil {
		return r, err
	}
	e := newEngine(sol, opt, st)
	defer e.release()
	e.seedFromProgram(sys)
	e.domainSeed = seed
	if memo != nil {
		e.ab.ShareCache(memo)
		e.ab.ShareMemo(memo)
	}
	o, err := e.loop(ctx, sys, false)
	if err != nil {
		return nil, err
	}
	r := e.result(o, start)
	if r.Verdict == Unknown {
		r.Known = e.known(sys, o, nil)
	}
	return r, nil
}

// Insert finds a minimum set of fence sites that makes sys correct under
// opt.Model (TSO), after checking that sys is correct under SC. On success
// the patched source is read again (cs.System.Reparse) and checked before
// the result is returned: when the loop's verdict comes from an
// exploration that found no bad state and the patched text lowers to the
// automata that exploration explored (cs.SameAutomata: the same up to
// the numbering of locations and the merging of locations with the same
// future, as the one fence where branches join), that exploration is the
// check. When the verdict rests on robustness (the SC check found sys
// correct and the fences make it robust), the patched text must lower to
// sys with those fences and be found robust itself by the analysis run on
// it: a fence only adds a step that changes nothing under SC, so its SC
// verdict is sys's. Otherwise (a patched text that lowers to anything
// else) the patched program is verified from scratch. The patched text is
// in Result.Patched.
//
// With opt.Reconsider the full fences of sys's source are lowered as
// candidate points (cs.Options.Reconsider): the fences of the answer that
// are fences of the source stay, the others are removed from the patched
// text (Result.Removed), and a program that needs none loses them all.
func Insert(ctx context.Context, sys *cs.System, sol Solver, opt Options) (*Result, []byte, error) {
	opt.defaults()
	if err := ReaderCanEdit(sys, opt); err != nil {
		return nil, nil, err
	}
	if opt.Reconsider {
		rsys, err := sys.ReparseWith(sys.File.Src, true)
		if err != nil {
			return nil, nil, err
		}
		sys = rsys
	}
	r, patched, err := insert(ctx, sys, sol, opt)
	if err != nil || r.Verdict != Correct || !opt.Reconsider || len(r.Fences) > 0 {
		return r, patched, err
	}
	// Correct with no fence: every fence of the source goes.
	patched, r.Removed, err = placeFences(sys, nil)
	return r, patched, err
}

// placeFences is fences.Place; its error is a fencer bug.
func placeFences(sys *cs.System, set []fences.Element) ([]byte, []*cs.Site, error) {
	patched, removed, err := fences.Place(sys, set)
	if err != nil {
		return nil, nil, fmt.Errorf("internal error: patching: %v", err)
	}
	return patched, removed, nil
}

func insert(ctx context.Context, sys *cs.System, sol Solver, opt Options) (*Result, []byte, error) {
	start := time.Now()
	sys, err := memmodel.ForBuffers(sys, memmodel.OrSC(opt.Model))
	if err != nil {
		return nil, nil, err
	}
	sys = sys.WithoutDeadInits()
	scOpt := opt
	scOpt.Model = memmodel.SC
	sc := newEngine(sol, scOpt, stage{})
	defer sc.release()
	sc.seedFromProgram(sys)
	o, err := sc.loop(ctx, sys, false)
	if err != nil {
		return nil, nil, err
	}
	if o.verdict != Correct || !buffered(opt.Model) {
		r := sc.result(o, start)
		r.Model = opt.Model
		if r.Verdict == Unknown && buffered(opt.Model) {
			r.Reason = "during the SC check: " + r.Reason
		}
		if r.Verdict == Unknown {
			r.Partial = partialOf(sys, nil, "SC")
			r.Known = sc.known(sys, o, nil)
		}
		return r, sys.File.Src, nil
	}
	if r := robustAfterSC(sys, sc, o, opt, start); r != nil {
		return r, sys.File.Src, nil
	}
	opt.Seed = append(opt.Seed, sc.prec.Preds.Exprs()...)
	e := newEngine(sol, opt, stage{})
	defer e.release()
	e.seedFromProgram(sys)
	e.ab.ShareMemo(sc.ab)
	e.absorb(sc)
	e.domainSeed = sc.info
	o, err = e.loop(ctx, sys, true)
	if err != nil {
		return nil, nil, err
	}
	r := e.result(o, start)
	if o.verdict != Correct {
		if o.verdict == Unknown {
			r.Partial = partialOf(sys, o, phaseName(opt))
			r.Known = e.known(sys, o, o.fences)
			r.Known.SCCorrect = true
		}
		return r, sys.File.Src, nil
	}
	// Fences and the counterexample that makes each necessary.
	for _, f := range o.fences {
		r.Fences = append(r.Fences, fenceOf(sys, f, witnessFor(f, o)))
	}
	patched, removed, err := placeFences(sys, o.fences)
	if err != nil {
		return nil, nil, err
	}
	r.Removed = removed
	// Final check: the patched text (in the input's format), parsed, and
	// either found to lower to the automata the loop's last exploration
	// verified, or verified from scratch.
	psys, err := sys.Reparse(patched)
	if err != nil {
		return nil, nil, fmt.Errorf("internal error: the patched program does not parse: %v", err)
	}
	psys = psys.WithoutDeadInits() // as the loop's system: the same runs (cs.System.WithoutDeadInits)
	if o.explored != nil && sameAutomata(psys, o.explored) {
		e.logf("final check: the patched program lowers to the automata of the last exploration (%d fences), which found no bad state", len(o.fences))
		return finish(ctx, sys, sol, opt, o, r, patched, start)
	}
	if o.robustOf != nil && sameAutomata(psys, o.robustOf) && newRobustCheck(psys, opt.Model).holds(nil) {
		e.logf("final check: the patched program lowers to the input with its %d fences, found robust, and is robust itself; the SC check found the input correct", len(o.fences))
		return finish(ctx, sys, sol, opt, o, r, patched, start)
	}
	fopt := opt
	fopt.Seed = append(fopt.Seed, e.prec.Preds.Exprs()...)
	fr, err := verify(ctx, psys, sol, fopt, stage{phase: "final check", startK: e.prec.K}, e.ab, e.info)
	if err != nil && ctx.Err() != nil {
		fr, err = &Result{Verdict: Unknown}, nil
		fr.Limit, fr.Reason = interrupted(ctx.Err())
	}
	if err != nil {
		return nil, nil, err
	}
	r.Stats.Queries += fr.Stats.Queries
	r.Stats.QueriesInGo += fr.Stats.QueriesInGo
	r.Stats.States += fr.Stats.States
	r.Stats.addStore(fr.Stats)
	switch fr.Verdict {
	case Correct:
	case Unknown:
		r.Verdict, r.Reason, r.Limit, r.Fences = Unknown, "final check of the patched program: "+fr.Reason, fr.Limit, nil
		r.Partial = partialOf(sys, o, "final check")
		r.Known = &Known{SCCorrect: true}
		return r, sys.File.Src, nil
	default:
		return nil, nil, fmt.Errorf("internal error: the final check found the patched program %s under %s", fr.Verdict, opt.Model)
	}
	return finish(ctx, sys, sol, opt, o, r, patched, start)
}

// sameAutomata is cs.SameAutomata; a test replaces it to force the final
// check from scratch.
var sameAutomata = cs.SameAutomata

// finish completes a correct result of insert after its final check: the
// other minimum fence sets (Options.All) and the time.
func finish(ctx context.Context, sys *cs.System, sol Solver, opt Options, o *outcome, r *Result, patched []byte, start time.Time) (*Result, []byte, error) {
	if opt.All > 1 && !r.Stats.NotMinimum {
		alts, err := alternatives(ctx, sys, sol, opt, o, opt.All)
		if err != nil {
			return nil, nil, err
		}
		for _, h := range alts {
			ho := *o
			ho.fences = h
			var fs []Fence
			for _, f := range h {
				fs = append(fs, fenceOf(sys, f, witnessFor(f, &ho)))
			}
			r.Alternatives = append(r.Alternatives, fs)
		}
	}
	r.Stats.Time = time.Since(start)
	return r, patched, nil
}

// fenceOf is the Fence of element f.
func fenceOf(sys *cs.System, f fences.Element, w *Witness) Fence {
	return Fence{Site: sys.Sites[f.Site], Kind: f.Kind, Witness: w}
}

// witnessFor picks the counterexample that shows fence id is needed: one
// whose candidate set meets the fence set only in id, else any containing it.
func witnessFor(id fences.Element, o *outcome) *Witness {
	in := map[fences.Element]bool{}
	for _, s := range o.fences {
		in[s] = true
	}
	var any *Witness
	for i, c := range o.cands {
		has, others := false, 0
		for _, s := range c {
			if s == id {
				has = true
			} else if in[s] {
				others++
			}
		}
		if has && others == 0 {
			return o.shown(o.wits[i], in) // shrink.go
		}
		if has && any == nil {
			any = o.wits[i]
		}
	}
	return any
}

// absorb adds the work of an earlier engine (the SC check) to e's counts.
func (e *engine) absorb(o *engine) {
	e.stats.States += o.stats.States
	e.stats.addStore(o.stats)
	e.stats.Queries += o.stats.Queries + o.ab.Stats.Queries
	e.stats.QueriesInGo += o.decidedInGo()
	e.stats.Interpolations += o.stats.Interpolations
	e.stats.Refinements.add(o.stats.Refinements)
}

func (e *engine) result(o *outcome, start time.Time) *Result {
	r := &Result{Verdict: o.verdict, Model: e.opt.Model, Trace: o.trace, Reason: o.reason, Limit: o.limit, Preds: e.prec.Preds.Exprs()}
	r.Stats = e.stats
	r.Stats.K = e.prec.K
	if !buffered(e.opt.Model) {
		r.Stats.K = 0
	}
	r.Stats.Predicates = e.prec.Preds.Len()
	r.Stats.Queries += e.ab.Stats.Queries
	r.Stats.QueriesInGo += e.decidedInGo()
	r.Stats.Time = time.Since(start)
	sort.Slice(r.Fences, func(i, j int) bool { return r.Fences[i].Site.Start < r.Fences[j].Site.Start })
	return r
}

// Status is where a run is, for a progress display (Options.Status).
type Status struct {
	Phase      string // "SC", "TSO", "PSO" or "final check" (of insert's patched program)
	Round      int    // the refinement round, from 1 (insert: counting the SC check's rounds)
	K          int    // exact writes kept per buffer (0 under SC)
	Predicates int
	States     int // abstract states explored so far (insert: the SC check's included)
	Fences     int // the size of the current fence set
}

// statusHook returns the engine's progress callback: next (Options.Progress)
// and, when Options.Status is set, a Status built from the engine.
func (e *engine) statusHook(next func(int)) func(int) {
	if e.opt.Status == nil {
		return next
	}
	return func(states int) {
		if next != nil {
			next(states)
		}
		phase := e.stage.phase
		if phase == "" {
			phase = strings.ToUpper(e.opt.Model.String())
		}
		k := e.prec.K
		if !buffered(e.opt.Model) {
			k = 0
		}
		round := 1 + e.stats.Refinements.Total()
		e.opt.Status(Status{Phase: phase, Round: round, K: k, Predicates: e.prec.Preds.Len(), States: states, Fences: len(e.prec.Fences)})
	}
}
