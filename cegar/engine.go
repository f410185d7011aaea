package cegar

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"fencer/cs"
	"fencer/domains"
	"fencer/expr"
	"fencer/fences"
	"fencer/kabs"
	"fencer/lia"
	"fencer/predabs"
)

// Solver is what the engine needs of an SMT solver: incremental checks, the
// model of the last satisfiable check, and sequence interpolants.
type Solver interface {
	predabs.Prover
	// Value returns the value of an integer variable in the model of the last
	// Sat answer (false if the model does not mention it).
	Value(name string) (int64, bool)
	// Interpolate returns I_0..I_n for the unsatisfiable conjunction
	// A_1..A_n (Sat and no interpolants when it is satisfiable).
	Interpolate(steps []expr.Expr) ([]expr.Expr, predabs.Answer, error)
	// Atoms returns the normalised atoms of a formula.
	Atoms(f expr.Expr) []expr.Expr
}

// Options configure a run. Zero values mean the defaults.
type Options struct {
	Model          kabs.Model
	MaxK           int // default 10
	MaxPredicates  int // default 400
	MaxStates      int // abstract states per exploration, default 1,000,000
	MaxRefinements int // default 500
	// Seed predicates to start from (e.g. those of an earlier run).
	Seed []expr.Expr
	// Progress, if set, is called now and then with the number of abstract
	// states explored so far.
	Progress func(states int)
	// Status, if set, is called now and then (with Progress) with where the
	// run is: phase, k, predicates, states, fences (see Status in api.go).
	Status func(Status)
	phase  string // the phase Status reports; set by Insert
	// startK is the k to start from (default 1); the final check starts
	// from the k the loop ended with, which that loop needed.
	startK int
	// Log, if set, receives one line per refinement.
	Log func(format string, args ...any)
	// Reconsider (Insert only) makes the full fences of the source
	// candidates like any other point: the answer is the minimum over all
	// points, and the fences it does not keep are removed (Result.Removed).
	Reconsider bool
	// StoreFences (Insert only, --kinds full,store) lets the answer use
	// store fences ("fence store;") too: fewest fences first, then fewest
	// full ones. Under TSO a store fence never helps and is never chosen.
	StoreFences bool
	// All (Insert only): besides the answer, look for other minimum fence
	// sets, up to All sets in all, each verified (Result.Alternatives).
	All int
	// NoReduction turns the partial-order reduction of the exploration off
	// (for measurements and for the tests that compare with and without).
	NoReduction bool
	// Workers is the number of goroutines that expand the states of an
	// exploration (parallel.go); 0 or 1: one. More need a solver that can
	// fork (Z3Solver).
	Workers int
	// parallelFrom is the least number of states of a BFS level that the
	// workers expand (default minParallelLevel); tests lower it so that
	// the small programs exercise the pipeline too.
	parallelFrom int
}

func (o *Options) defaults() {
	if o.MaxK <= 0 {
		o.MaxK = 10
	}
	if o.MaxPredicates <= 0 {
		o.MaxPredicates = 400
	}
	if o.MaxStates <= 0 {
		o.MaxStates = 1_000_000
	}
	if o.MaxRefinements <= 0 {
		o.MaxRefinements = 500
	}
	if o.parallelFrom <= 0 {
		o.parallelFrom = minParallelLevel
	}
}

// Verdict is the outcome of a run.
type Verdict uint8

const (
	Correct Verdict = iota // no bad state reachable (with the fences reported)
	SCBug                  // a bad state is reachable under SC: no fence helps
	Unsafe                 // verify: a bad state is reachable under the model
	Unknown                // a limit was hit or the method could not decide
)

var verdictNames = [...]string{"correct", "sc-bug", "unsafe", "unknown"}

func (v Verdict) String() string { return verdictNames[v] }

// Witness is a real execution of a system under a model, replayed by the
// explicit-state checker: States[i] is the state after i steps.
type Witness struct {
	Sys    *cs.System
	Model  kabs.Model
	Trace  *kabs.Trace
	States []*kabs.State
}

// Fence is one fence site of the answer and a counterexample that needs
// it. With Options.Reconsider, Site.Fence marks a fence of the source that
// stays.
type Fence struct {
	Site    *cs.Site
	Store   bool // a store fence ("fence store;"), with Options.StoreFences
	Witness *Witness
}

// Stats describe the work of a run.
type Stats struct {
	K              int
	Predicates     int
	Refinements    Refinements
	States         int // abstract states explored, all iterations
	Queries        int // satisfiability queries
	QueriesInGo    int // of which decided without Z3 (package lia)
	Interpolations int
	Time           time.Duration
	// Robust is RobustProof(model) when the verdict was proved by
	// robustness (every run under the model is equivalent to an SC run, so
	// the SC verdict holds), "" when by the abstraction.
	Robust string
	// NotMinimum is set when the fences are verified but not proved a
	// minimum (the robustness upper bound of a k case that did not end).
	NotMinimum bool
}

// Refinements counts the refinements of a run by kind.
type Refinements struct {
	Predicates int // predicate cases: new predicates from interpolants
	K          int // k cases: k raised
	Fences     int // fence cases: a new minimum fence set installed
}

// Total is the number of refinements of every kind.
func (r Refinements) Total() int { return r.Predicates + r.K + r.Fences }

func (r *Refinements) add(o Refinements) {
	r.Predicates += o.Predicates
	r.K += o.K
	r.Fences += o.Fences
}

// Result of a run.
type Result struct {
	Verdict Verdict
	Model   kabs.Model
	Fences  []Fence // Correct: the minimum fence set, in source order
	// Removed lists, with Options.Reconsider, the fences of the source that
	// the answer drops (the patched text no longer has them).
	Removed []*cs.Site
	// Alternatives holds, with Options.All, the other minimum fence sets
	// found (each verified), in the order of preference.
	Alternatives [][]Fence
	Trace        *Witness // SCBug, Unsafe: a real trace to a bad state
	Reason       string   // Unknown: why
	Stats        Stats
	Preds        []expr.Expr // the final predicates, to seed a later run
}

type engine struct {
	opt      Options
	sol      Solver
	preds    *predabs.Preds
	ab       *predabs.Abstractor
	dl       *lia.Solver // the prover of ab, over sol
	k        int
	stats    Stats
	seen     map[string]escalation // counterexample key (ceKey) → how far its refinement went
	progress func(int)
	// sysForParams is the system whose variables parameterised predicates
	// range over.
	sysForParams *cs.System
	writers      map[string][]int
	// sym permutes the instances of the system's template (nil: none).
	sym *symmetry
	// info is the finite-domain analysis of the system of the loop (fences
	// do not change it).
	info *domains.Info
	// domainSeed, if set, is the analysis of an earlier run on the same
	// variables, whose learned candidate domains info starts from.
	domainSeed *domains.Info
	// nfences is the size of the fence set of the current iteration.
	nfences int
	// workers expand states in parallel (parallel.go); made on first use.
	workers []*worker
	// releases close the provers forked for the engine (release).
	releases []func()
}

func newEngine(sol Solver, opt Options) *engine {
	opt.defaults()
	e := &engine{opt: opt, sol: sol, preds: predabs.NewPreds(), k: 1, seen: map[string]escalation{}, progress: opt.Progress}
	if opt.startK > 1 {
		e.k = opt.startK
	}
	e.progress = e.statusHook(e.progress)
	// The abstraction's queries are mostly linear integer ones: decided in
	// Go, the rest by sol (lia/doc.go).
	//
	// Z3 answers the few lia cannot in a context of its own (a fork), not
	// in sol's: Spacer's interpolants depend on the history of its
	// context, and that history is then the path-level work alone
	// (classification, interpolation), the same whichever worker asked
	// which query (parallel.go).
	var fallback predabs.Prover = sol
	if f, ok := sol.(forker); ok {
		var release func()
		fallback, release = f.Fork()
		e.releases = append(e.releases, release)
	}
	e.dl = lia.New(fallback)
	e.ab = predabs.NewAbstractor(e.preds, e.dl)
	e.ab.CacheLimit = 2 * opt.MaxStates // memory stays proportional to --max-states
	for _, f := range opt.Seed {
		e.preds.Add(f)
	}
	return e
}

func (e *engine) logf(format string, args ...any) {
	if e.opt.Log != nil {
		e.opt.Log(format, args...)
	}
}

// seedFromProgram adds the atoms of the guards of sys.
func (e *engine) seedFromProgram(sys *cs.System) {
	var add func(op cs.Op)
	add = func(op cs.Op) {
		if op.Kind == cs.OpAssume {
			for _, a := range e.sol.Atoms(op.Val) {
				e.preds.Add(a)
			}
		}
		for _, b := range op.Body {
			add(b)
		}
	}
	for _, p := range sys.Procs {
		for _, ed := range p.Edges {
			add(ed.Op)
		}
	}
}

// outcome of one CEGAR loop on a system.
type outcome struct {
	verdict Verdict
	trace   *Witness
	fences  []int // site IDs, sorted
	cands   [][]int
	wits    []*Witness
	reason  string
}

// loop runs CEGAR on sys under the engine's model. With insert, real
// counterexamples under a weak model add fences; without, they end the run.
func (e *engine) loop(ctx context.Context, sys *cs.System, insert bool) (*outcome, error) {
	model := e.opt.Model
	out := &outcome{}
	fenced := map[int]bool{}
	e.sysForParams = sys
	e.writers = writersOf(sys)
	e.sym = newSymmetry(sys)
	rob := newRobustCheck(sys, model)
	e.info = domains.Analyze(sys)
	e.info.Seed(e.domainSeed)
	for iter := 0; ; iter++ {
		if iter >= e.opt.MaxRefinements {
			return unknown(out, fmt.Sprintf("refinement limit reached (%d refinements)", iter)), nil
		}
		cur := sys
		if len(fenced) > 0 {
			cur = withElements(sys, fenced)
		}
		if insert && len(fenced) > 0 && rob.holds(fenced) {
			return e.provedRobust(out), nil
		}
		abs, err := kabs.NewAbs(cur, model, e.k)
		if err != nil {
			return nil, err
		}
		p, err := e.reach(ctx, abs)
		if err != nil {
			return e.stopped(ctx, out, err)
		}
		if p == nil {
			out.verdict = Correct
			for _, q := range e.preds.All() {
				e.logf("predicate %s", q.F)
			}
			return out, nil
		}
		res, err := e.classify(ctx, cur, abs, p)
		if err != nil {
			return e.stopped(ctx, out, err)
		}
		switch {
		case res.real != nil && (model == kabs.SC || !insert):
			out.verdict, out.trace = Unsafe, res.real
			if model == kabs.SC {
				out.verdict = SCBug
			}
			return out, nil
		case res.real != nil:
			cand := candidates(res.real, e.opt.StoreFences)
			if len(cand) == 0 {
				return unknown(out, "a real counterexample under "+model.String()+" passes no fence site with a non-empty buffer (it should be feasible under SC: fencer bug)"), nil
			}
			out.cands = append(out.cands, cand)
			out.wits = append(out.wits, res.real)
			hs, ok := minFenceSet(sys, out.cands, e.opt.StoreFences)
			if !ok {
				return unknown(out, "no fence set blocks all counterexamples"), nil
			}
			fenced = map[int]bool{}
			for _, s := range hs {
				fenced[s] = true
			}
			out.fences = hs
			e.nfences = len(hs)
			e.stats.Refinements.Fences++
			e.logf("fence case: candidate sites %v, fences now %v", siteLines(sys, cand), siteLines(sys, hs))
		case res.newK > 0:
			e.stats.Refinements.K++
			e.logf("k case: k %d -> %d", e.k, res.newK)
			e.k = res.newK
		case res.reason != "":
			if insert && res.kGiveUp && e.robustUpperBound(sys, out, res.reason) {
				return out, nil
			}
			if ctx.Err() != nil { // the solver gave up because the run was stopped
				return unknown(out, interruptReason(ctx.Err())), nil
			}
			return unknown(out, res.reason), nil
		default:
			e.stats.Refinements.Predicates++
			if e.preds.Len() > e.opt.MaxPredicates {
				return unknown(out, fmt.Sprintf("predicate limit reached (refinement needs %d predicates, more than --max-predicates %d)", e.preds.Len(), e.opt.MaxPredicates)), nil
			}
			e.ab.ClearCache()
		}
	}
}

// stopped turns an error into an unknown outcome when it comes from a limit
// or from the run being cancelled (an SMT call cut short by the interrupt
// fails in its own way); other errors stay errors.
func (e *engine) stopped(ctx context.Context, out *outcome, err error) (*outcome, error) {
	var lim *errLimit
	if errors.As(err, &lim) {
		return unknown(out, lim.reason), nil
	}
	if ctx.Err() != nil {
		return unknown(out, interruptReason(ctx.Err())), nil
	}
	return nil, err
}

func unknown(o *outcome, reason string) *outcome {
	o.verdict, o.reason = Unknown, reason
	return o
}

func siteLines(sys *cs.System, ids []int) string {
	var parts []string
	n := len(sys.Sites)
	for _, id := range ids {
		if id >= n {
			parts = append(parts, fmt.Sprintf("%d(store)", sys.File.Line(sys.Sites[id-n].Pos())))
			continue
		}
		parts = append(parts, fmt.Sprintf("%d", sys.File.Line(sys.Sites[id].Pos())))
	}
	return "lines [" + strings.Join(parts, ",") + "]"
}

// classification of one counterexample.
type classification struct {
	real    *Witness // feasible under the exact semantics
	newK    int      // k case: the new k
	reason  string   // give up: unknown with this reason
	kGiveUp bool     // the reason is that raising k does not end
	// otherwise: predicates were added
}

func (e *engine) classify(ctx context.Context, sys *cs.System, abs *kabs.Abs, p *path) (*classification, error) {
	model := e.opt.Model
	// 1. feasible under the exact semantics of the schedule?
	exact := abs
	if model != kabs.SC {
		var err error
		if exact, err = kabs.NewAbs(sys, model, kabs.Unbounded); err != nil {
			return nil, err
		}
	}
	det := e.info.AllFinite()
	if ts, _, _, ok := exact.Interpret(p.steps); ok && det {
		w, err := e.replayDet(sys, model, p.steps)
		if err != nil {
			return nil, err
		}
		if w != nil {
			return &classification{real: w}, nil
		}
	} else if ok {
		f := buildSSA(exact.InitFormula(), ts)
		var w *Witness
		ans, err := e.checkAll(f.A, func() (err error) {
			w, err = e.witness(sys, model, p.steps)
			return err
		})
		if err != nil {
			return nil, err
		}
		if ans == predabs.Sat {
			return &classification{real: w}, nil
		}
	}
	// 2. feasible under the k-abstraction (the trace's own transitions)?
	// With every variable explicit, the exploration ran the trace in the
	// k-abstraction: it is.
	if det && model != kabs.SC {
		return e.raiseK(sys, p)
	}
	f := buildSSA(abs.InitFormula(), p.ts)
	if model != kabs.SC {
		ans, err := e.checkAll(f.A, nil)
		if err != nil {
			return nil, err
		}
		if ans != predabs.Unsat {
			return e.raiseK(sys, p)
		}
	}
	// 3. predicate case.
	return e.refinePredicates(f, p)
}

// checkAll checks the conjunction of fs; onSat, if set, runs while the
// model of a Sat answer is available.
func (e *engine) checkAll(fs []expr.Expr, onSat func() error) (predabs.Answer, error) {
	if err := e.sol.Push(); err != nil {
		return predabs.Unknown, err
	}
	defer e.sol.Pop()
	for _, f := range fs {
		if err := e.sol.Assert(f); err != nil {
			return predabs.Unknown, err
		}
	}
	e.stats.Queries++
	ans, err := e.sol.Check()
	if err == nil && ans == predabs.Sat && onSat != nil {
		err = onSat()
	}
	return ans, err
}

// witness builds the real trace of a feasible schedule from the solver's
// model and replays it in the explicit checker: a trace that does not replay
// is a fencer bug, reported as an error.
func (e *engine) witness(sys *cs.System, model kabs.Model, steps []kabs.AStep) (*Witness, error) {
	c := kabs.NewConcrete(sys, model)
	tr := concreteTrace(c, steps, e.sol.Value)
	states, err := c.Replay(tr)
	if err != nil {
		return nil, fmt.Errorf("internal error: a counterexample the engine found feasible does not replay in the explicit checker: %v", err)
	}
	if !c.IsBadState(states[len(states)-1]) {
		return nil, fmt.Errorf("internal error: a replayed counterexample does not end in a bad state")
	}
	return &Witness{Sys: sys, Model: model, Trace: tr, States: states}, nil
}

// raiseK finds the least k' > k under which the schedule is infeasible.
func (e *engine) raiseK(sys *cs.System, p *path) (*classification, error) {
	key := ceKey(p, e.k)
	if e.seen[key] != fresh {
		return &classification{reason: "the same counterexample came back after raising k", kGiveUp: true}, nil
	}
	e.seen[key] = refined
	for k := e.k + 1; k <= e.opt.MaxK; k++ {
		abs, err := kabs.NewAbs(sys, e.opt.Model, k)
		if err != nil {
			return nil, err
		}
		if e.info.AllFinite() {
			feasible, err := feasibleExplicit(e.info, abs, p.steps)
			if err == nil {
				if !feasible {
					return &classification{newK: k}, nil
				}
				continue
			}
		}
		ts, _, _, ok := abs.Interpret(p.steps)
		if !ok {
			return &classification{newK: k}, nil
		}
		ans, err := e.checkAll(buildSSA(abs.InitFormula(), ts).A, nil)
		if err != nil {
			return nil, err
		}
		if ans == predabs.Unsat {
			return &classification{newK: k}, nil
		}
	}
	return &classification{reason: fmt.Sprintf("k limit reached (a counterexample needs k > %d, --max-k)", e.opt.MaxK), kGiveUp: true}, nil
}

// escalation is how far the refinement of one counterexample has gone, so
// that a counterexample that comes back is met with more, and the loop ends.
type escalation uint8

const (
	fresh     escalation = iota // not seen before
	refined                     // k raised for it, or the atoms of its interpolants added
	escalated                   // whole interpolants added and posts made precise: next time, give up
)

// ceKey identifies a counterexample: its steps and the k it was found at.
func ceKey(p *path, k int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "k%d:", k)
	for _, s := range p.steps {
		fmt.Fprintf(&b, "%d.%d.%d.%d;", s.Proc, s.Edge, s.Var, s.Rule)
	}
	return b.String()
}

// refinePredicates adds the atoms of sequence interpolants of the infeasible
// path formula (and their parameterised copies). A counterexample seen
// before escalates: whole interpolants and precise posts, then unknown.
func (e *engine) refinePredicates(f *ssa, p *path) (*classification, error) {
	t0 := time.Now()
	itps, ans, err := e.sol.Interpolate(f.A)
	e.stats.Interpolations++
	e.logf("interpolation: %d steps, %v", len(f.A)-1, time.Since(t0).Round(time.Millisecond))
	if err != nil {
		return nil, err
	}
	if ans != predabs.Unsat || len(itps) == 0 {
		return &classification{reason: "could not compute interpolants for an infeasible counterexample (solver said " + ans.String() + ")"}, nil
	}
	key := ceKey(p, e.k)
	level := e.seen[key]
	if level == escalated {
		return &classification{reason: "refinement made no progress: the same spurious counterexample came back after whole interpolants and precise posts"}, nil
	}
	var backs []expr.Expr
	for j, itp := range itps {
		back := expr.Rename(itp, func(n string) expr.Expr { return expr.V(unSSA(n)) })
		if level != fresh {
			e.logf("  I_%d = %s", j, back)
		}
		if !hasStepLocal(back) {
			backs = append(backs, back)
		}
	}
	before := e.preds.Len()
	for _, back := range backs {
		for _, a := range e.sol.Atoms(back) {
			for _, b := range append([]expr.Expr{a}, e.sym.images(a)...) {
				e.preds.Add(b)
				for _, g := range e.parameterise(b) {
					e.preds.Add(g)
				}
			}
		}
	}
	// Escalate when the atoms are not enough: whole interpolants as
	// predicates, and posts that re-evaluate every predicate. With both, the
	// abstract post of each step implies the next interpolant, so the same
	// path cannot come back (I_n is false).
	e.seen[key] = refined
	if level != fresh || e.preds.Len() == before {
		for _, back := range backs {
			e.preds.Add(back)
		}
		e.seen[key] = escalated
		if e.preds.Len() == before && e.ab.Precise {
			return &classification{reason: "refinement made no progress: the same spurious counterexample came back with no new predicate"}, nil
		}
		e.ab.Precise = true
	}
	e.logf("predicate case: %d new predicates (%d in all)%s", e.preds.Len()-before, e.preds.Len(), map[bool]string{true: ", precise posts", false: ""}[e.ab.Precise])
	for _, q := range e.preds.All()[before:] {
		e.logf("  + %s", q.F)
	}
	return &classification{}, nil
}

func hasStepLocal(f expr.Expr) bool {
	for _, v := range expr.Vars(f) {
		if kabs.ParseVar(v).Kind == kabs.VarStep {
			return true
		}
	}
	return false
}

// parameterise returns the copies of atom a with its one shared variable x
// replaced by lw_{p,x} and by each buffer slot b_{p,i} (i ≤ k), for each
// process p that writes x: the same shape over the places where a value of
// x waits in a buffer (the paper's parameterised predicates).
func (e *engine) parameterise(a expr.Expr) []expr.Expr {
	sys := e.sysForParams
	if sys == nil || e.opt.Model == kabs.SC {
		return nil
	}
	var xs []string
	for _, v := range expr.Vars(a) {
		if len(e.writers[v]) > 0 {
			xs = append(xs, v)
		}
	}
	if len(xs) != 1 {
		return nil
	}
	x := xs[0]
	subst := func(to string) expr.Expr {
		return expr.Rename(a, func(n string) expr.Expr {
			if n == x {
				return expr.V(to)
			}
			return nil
		})
	}
	var out []expr.Expr
	for _, p := range e.writers[x] {
		name := sys.Procs[p].Name
		out = append(out, subst(kabs.LWVar(name, x)))
		for i := 1; i <= e.k; i++ {
			if e.opt.Model == kabs.PSO {
				out = append(out, subst(kabs.SlotVarX(name, x, i)))
			} else {
				out = append(out, subst(kabs.SlotVar(name, i)))
			}
		}
	}
	return out
}

// writersOf maps each shared variable to the processes that write it through
// their buffers (writes outside atomic).
func writersOf(sys *cs.System) map[string][]int {
	w := map[string][]int{}
	for i, p := range sys.Procs {
		seen := map[string]bool{}
		for _, ed := range p.Edges {
			if ed.Op.Kind == cs.OpWrite && !seen[ed.Op.Shared] {
				seen[ed.Op.Shared] = true
				w[ed.Op.Shared] = append(w[ed.Op.Shared], i)
			}
		}
	}
	return w
}

// Fence elements: an element id < len(sys.Sites) is a full fence at site
// id, len(sys.Sites)+id a store fence there (Options.StoreFences).

// withElements is sys with the fences of the elements in set.
func withElements(sys *cs.System, set map[int]bool) *cs.System {
	n := len(sys.Sites)
	full, store := map[int]bool{}, map[int]bool{}
	for id := range set {
		if id >= n {
			store[id-n] = true
		} else {
			full[id] = true
		}
	}
	return sys.WithFenceKinds(full, store)
}

// candidates is the candidate set of a real counterexample: the full
// fences that block it and, with store, the store fences (fences.Candidates,
// fences.StoreCandidates).
//
// For a system read from another format (cs.System.Reader), whose readers
// write fences only right after a write, only those points (and the fences
// of the file, with Options.Reconsider) are candidates; store fences only
// after a write.
func candidates(w *Witness, store bool) []int {
	c := kabs.NewConcrete(w.Sys, w.Model)
	cand := fences.Candidates(w.Sys, c, w.Trace, w.States)
	if w.Sys.Reader != nil {
		var after []int
		for _, id := range cand {
			if s := w.Sys.Sites[id]; s.AfterWrite && s.Place == cs.After || s.Fence {
				after = append(after, id)
			}
		}
		cand = after
	}
	if store {
		n := len(w.Sys.Sites)
		for _, q := range fences.StoreCandidates(w.Sys, c, w.Trace, w.States) {
			if s := w.Sys.Sites[q]; w.Sys.Reader == nil || s.AfterWrite && s.Place == cs.After {
				cand = append(cand, n+q)
			}
		}
	}
	return cand
}

// minFenceSet is the minimum hitting set of cands, ties broken by the
// preference of sites and, with store fences, fewest full fences first.
func minFenceSet(sys *cs.System, cands [][]int, store bool) ([]int, bool) {
	if store {
		return fences.MinHittingSetCost(cands, fences.KindRank(fences.Rank(sys)), len(sys.Sites))
	}
	return fences.MinHittingSetRanked(cands, fences.Rank(sys))
}
