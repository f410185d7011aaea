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
	"fencer/memmodel"
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
	Model          memmodel.Model // nil: SC
	MaxK           int            // default 10
	MaxPredicates  int            // default 400
	MaxStates      int            // abstract states per exploration, default 1,000,000
	MaxRefinements int            // default 500
	// Seed predicates to start from (e.g. those of an earlier run).
	Seed []expr.Expr
	// Progress, if set, is called now and then with the number of abstract
	// states explored so far.
	Progress func(states int)
	// Status, if set, is called now and then (with Progress) with where the
	// run is: phase, k, predicates, states, fences (see Status in api.go).
	Status func(Status)
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
	// NoSymmetry turns off what the automorphisms of the system give the
	// search (orbit.go): the symmetry reduction of states and the images
	// of candidate sets (for the tests that compare with and without).
	NoSymmetry bool
	// NoShrink turns off the shrinking of candidate sets by witness
	// (shrink.go; for the tests that compare with and without).
	NoShrink bool
	// NoStaging explores the exact-only part under the precision's k on
	// its own before the climb's next k (stage.go; for the tests that
	// compare with and without).
	NoStaging bool
	// NoSleep turns the sleep sets off (sleep.go; for the tests that
	// compare with and without).
	NoSleep bool
	// Workers is the number of goroutines that expand the states of an
	// exploration (parallel.go); 0 or 1: one. More need a solver that can
	// fork (Z3Solver).
	Workers int
	// MaxMemory is the memory of the process, in bytes, to stay within:
	// an exploration stops (MemoryLimit) when its live Go heap and state
	// stores pass ExploreBudget(MaxMemory) (memlimit.go); 0: no limit.
	MaxMemory int64
}

// stage is what the engine knows of a run beyond its Options: where in
// Insert it is. The zero stage is a run of its own.
type stage struct {
	phase string // the phase Status reports ("": the model's name); the final check's is "final check"
	// startK is the k to start from (default 1); the final check starts
	// from the k the loop ended with, which that loop needed.
	startK int
}

func (o *Options) defaults() {
	o.Model = memmodel.OrSC(o.Model)
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
	Model  memmodel.Model
	Trace  *memmodel.Trace
	States []*memmodel.State
}

// Fence is one fence site of the answer and a counterexample that needs
// it. With Options.Reconsider, Site.Fence marks a fence of the source that
// stays.
type Fence struct {
	Site    *cs.Site
	Kind    cs.FenceKind // cs.StoreFence ("fence store;") only with Options.StoreFences
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
	// StoreBytes is the memory of the stored states (nodes, keys and their
	// table, as allocated) of the exploration with the most states,
	// StoreStates its number of states: StoreBytes/StoreStates is the
	// bytes a stored state costs there.
	StoreBytes  int64
	StoreStates int
	// ControlBytes is the memory of that exploration's control states
	// (their nodes, keys and table, and the process components with their
	// steps, as allocated): (StoreBytes+ControlBytes)/StoreStates is what
	// a stored state costs in all.
	ControlBytes int64
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
	Model   memmodel.Model
	Fences  []Fence // Correct: the minimum fence set, in source order
	// Removed lists, with Options.Reconsider, the fences of the source that
	// the answer drops (the patched text no longer has them).
	Removed []*cs.Site
	// Alternatives holds, with Options.All, the other minimum fence sets
	// found (each verified), in the order of preference.
	Alternatives [][]Fence
	Trace        *Witness // SCBug, Unsafe: a real trace to a bad state
	Reason       string   // Unknown: why
	Limit        Limit    // Unknown because a limit was hit: which
	Stats        Stats
	Preds        []expr.Expr // the final predicates, to seed a later run
	// Partial is, for an Insert whose verdict is Unknown, what it knew
	// when it stopped (partial.go); nil otherwise.
	Partial *Partial
	// Known is, for an Insert or Verify whose verdict is Unknown, what it
	// proved before it stopped and where it stopped (known.go); nil
	// otherwise.
	Known *Known
}

type engine struct {
	opt      Options
	stage    stage
	sol      Solver
	prec     Precision // of the current exploration (use)
	ab       *predabs.Abstractor
	dl       *lia.Solver // the prover of ab, over sol
	stats    Stats
	seen     map[string]escalation // counterexample key (ceKey) → how far its refinement went
	progress func(int)
	// info is the finite-domain analysis of the system of the loop (fences
	// do not change it).
	info *domains.Info
	// domainSeed, if set, is the analysis of an earlier run on the same
	// variables, whose learned candidate domains info starts from.
	domainSeed *domains.Info
	// workers expand states in parallel (parallel.go); made on first use.
	workers []*worker
	light   []*worker // workers without an abstractor (workersFor)
	// releases close the provers forked for the engine (release).
	releases []func()
	// symMapped counts the stored states of counterexamples rebuilt
	// under the symmetry reduction that were reached through a
	// permutation other than the identity (orbitstates.go; for tests).
	symMapped int
	// clean lists the parts of the graph found free of bad states
	// (reachParts, cleanRun).
	clean []cleanPart
	// last is what the last exploration stored and left out (partRun);
	// stage1, of a staged one whose stage 1 ended with no bad state,
	// what stage 1 stored and held back (stage.go), nil otherwise.
	last   partRun
	stage1 *partRun
	// lastRun is the part, k and states of the last exploration that
	// ended, and missed is set once an exploration missed a tail write
	// (noteExplored, known.go).
	lastRun *exploredRun
	missed  bool
}

func newEngine(sol Solver, opt Options, st stage) *engine {
	opt.defaults()
	e := &engine{opt: opt, stage: st, sol: sol, prec: Precision{K: 1, Preds: predabs.NewPreds()}, seen: map[string]escalation{}, progress: opt.Progress}
	if st.startK > 1 {
		e.prec.K = st.startK
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
	e.ab = predabs.NewAbstractor(e.prec.Preds, e.dl)
	e.ab.CacheLimit = 2 * min(opt.MaxStates, 1_000_000) // memory stays proportional to the states, up to a million
	for _, f := range opt.Seed {
		e.prec.Preds.Add(f) // the initial precision, built in place
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
				e.prec.Preds.Add(a) // the initial precision, built in place
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
	fences  []fences.Element // sorted (fences.Compare)
	cands   [][]fences.Element
	wits    []*Witness
	// shrunkFrom maps the witness of a shrunk candidate set (shrink.go)
	// to the counterexample it was shrunk from.
	shrunkFrom map[*Witness]original
	reason     string
	limit      Limit // the limit hit (Unknown)
	// explored is the system whose exploration found no bad state when
	// the verdict is Correct by exploration (the input with the fences
	// of the last precision, cs.System.WithFenceKinds); nil when the
	// verdict is anything else or rests on another argument (robustness).
	explored *cs.System
	// robustOf is the input with the fences of the answer installed when
	// the verdict Correct rests on robustness: the SC check found the
	// input correct, and the robustness analysis found this system robust.
	robustOf *cs.System
	// stoppedInSearch is set when the loop stopped (Unknown) in an
	// exploration, not while it judged a counterexample.
	stoppedInSearch bool
}

// loop runs CEGAR on sys under the engine's model: explore under the
// current precision, and refine it by the counterexample found, until no
// counterexample is left or the refinement ends the run. With insert, real
// counterexamples under a weak model add fences; without, they end the run.
func (e *engine) loop(ctx context.Context, sys *cs.System, insert bool) (*outcome, error) {
	out := &outcome{}
	r := e.newRefiner(sys, insert)
	prec := e.prec
	for iter := 0; ; iter++ {
		if iter >= e.opt.MaxRefinements {
			return limited(out, RefinementLimit, fmt.Sprintf("refinement limit reached (%d refinements)", iter)), nil
		}
		if insert && len(prec.Fences) > 0 && r.rob.holds(prec.Fences) {
			return e.provedRobust(r.sys, out), nil
		}
		x, err := e.search(ctx, sys, prec)
		if err != nil {
			out.stoppedInSearch = true
			return e.stopped(ctx, out, err)
		}
		if x.path == nil {
			out.verdict, out.explored = Correct, x.sys
			for _, q := range prec.Preds.All() {
				e.logf("predicate %s", q.F)
			}
			return out, nil
		}
		next, done, err := e.refine(ctx, r, x, prec, out)
		if err != nil {
			return e.stopped(ctx, out, err)
		}
		if done {
			return out, nil
		}
		prec = next
	}
}

// refiner is what the refinement of one loop knows of its system besides
// the precision: the order of its fence elements, its robustness analysis,
// the writers of each shared variable (parameterised predicates) and the
// automorphisms of the system (orbit.go: the images of predicates, the
// images of candidate sets). The engine keeps the
// escalation of each counterexample, which outlives a loop.
type refiner struct {
	sys     *cs.System // the system of the loop, without the precision's fences
	insert  bool
	order   *fences.Order
	rob     *robustCheck
	writers map[string][]int // shared variable -> the processes that write it through their buffers
	sym     *group           // the automorphisms of the system (nil: none)
}

// newRefiner prepares the refinement of a loop on sys, and the analyses of
// sys the exploration needs (its finite domains).
func (e *engine) newRefiner(sys *cs.System, insert bool) *refiner {
	e.info = domains.Analyze(sys)
	e.info.Seed(e.domainSeed)
	return &refiner{sys: sys, insert: insert, order: fences.NewOrder(sys, e.opt.StoreFences), rob: newRobustCheck(sys, e.opt.Model),
		writers: writersOf(sys), sym: findGroup(sys)}
}

// exploration is the result of one exploration: the system explored (sys
// with the precision's fences), its k-abstraction, and a counterexample
// (nil: no bad state is reachable).
type exploration struct {
	sys  *cs.System
	abs  *kabs.Abs
	path *path
}

// search explores sys under prec for a bad state (reach).
func (e *engine) search(ctx context.Context, sys *cs.System, prec Precision) (*exploration, error) {
	e.use(prec)
	cur := sys
	if len(prec.Fences) > 0 {
		cur = withElements(sys, prec.Fences)
	}
	abs, err := kabs.NewAbs(cur, e.opt.Model, prec.K)
	if err != nil {
		return nil, err
	}
	p, err := e.reachView(ctx, abs) // ordview.go
	if err != nil {
		return nil, err
	}
	return &exploration{sys: cur, abs: abs, path: p}, nil
}

// refine judges the counterexample of x, found under prec, and returns the
// refined precision, or done with out's verdict set: an SC bug, a real
// counterexample of verify, or unknown. The fence case adds the
// counterexample's candidate set and witness to out.
func (e *engine) refine(ctx context.Context, r *refiner, x *exploration, prec Precision, out *outcome) (next Precision, done bool, err error) {
	model := e.opt.Model
	res, err := e.classify(ctx, r, x.sys, x.abs, x.path)
	if err != nil {
		return prec, false, err
	}
	next = prec
	switch {
	case res.real != nil && (!buffered(model) || !r.insert):
		out.verdict, out.trace = Unsafe, res.real
		if !buffered(model) {
			out.verdict = SCBug
		}
		return prec, true, nil
	case res.real != nil:
		cand := candidates(res.real, e.opt.StoreFences)
		if len(cand) == 0 {
			if x.sys.Reader != nil {
				// The reader of the input's format writes fences only at
				// some points (cs.System.WriteSites): not a fencer bug.
				unknown(out, "a real counterexample under "+model.String()+" needs a fence where none can be written in the source (the writes with a non-empty buffer have no point after them in the text, as inside a macro's expansion)")
				return prec, true, nil
			}
			unknown(out, "a real counterexample under "+model.String()+" passes no fence site with a non-empty buffer (it should be feasible under SC: fencer bug)")
			return prec, true, nil
		}
		wit := res.real
		if sc, sw := e.shrink(r, res.real, cand); sw != nil { // shrink.go
			out.remember(sw, res.real, cand)
			cand, wit = sc, sw
		}
		out.cands = append(out.cands, cand)
		out.wits = append(out.wits, wit)
		imgs, iws, err := e.imageCandidates(r, wit, out.cands) // orbitcands.go
		if err != nil {
			return prec, false, err
		}
		out.cands = append(out.cands, imgs...)
		out.wits = append(out.wits, iws...)
		hs, ok := r.order.MinSet(out.cands)
		if !ok {
			unknown(out, "no fence set blocks all counterexamples")
			return prec, true, nil
		}
		out.fences = hs
		next.Fences = hs
		e.stats.Refinements.Fences++
		e.logf("fence case: candidate sites %v (and %d images), fences now %v", siteLines(r.sys, cand), len(imgs), siteLines(r.sys, hs))
	case res.newK > 0:
		e.stats.Refinements.K++
		e.logf("k case: k %d -> %d", prec.K, res.newK)
		next.K = res.newK
	case res.reason != "":
		if r.insert && res.kGiveUp && e.robustUpperBound(r.sys, out, res.reason) {
			return prec, true, nil
		}
		if ctx.Err() != nil { // the solver gave up because the run was stopped
			interruptedOutcome(out, ctx.Err())
			return prec, true, nil
		}
		limited(out, res.limit, res.reason)
		return prec, true, nil
	default:
		e.stats.Refinements.Predicates++
		next.Preds, next.Exact = res.preds, res.exact
		e.use(next)
		if next.Preds.Len() > e.opt.MaxPredicates {
			limited(out, PredicateLimit, fmt.Sprintf("predicate limit reached (refinement needs %d predicates, more than the limit of %d)", next.Preds.Len(), e.opt.MaxPredicates))
			return next, true, nil
		}
		e.ab.ClearCache()
	}
	return next, false, nil
}

// stopped turns an error into an unknown outcome when it comes from a limit
// or from the run being cancelled (an SMT call cut short by the interrupt
// fails in its own way); other errors stay errors.
func (e *engine) stopped(ctx context.Context, out *outcome, err error) (*outcome, error) {
	var lim *errLimit
	if errors.As(err, &lim) {
		return limited(out, lim.limit, lim.reason), nil
	}
	if ctx.Err() != nil {
		return interruptedOutcome(out, ctx.Err()), nil
	}
	return nil, err
}

func unknown(o *outcome, reason string) *outcome {
	return limited(o, NoLimit, reason)
}

// interruptedOutcome ends o Unknown because its context ended with err.
func interruptedOutcome(o *outcome, err error) *outcome {
	lim, reason := interrupted(err)
	return limited(o, lim, reason)
}

// limited ends o Unknown because of limit lim (NoLimit: another reason).
func limited(o *outcome, lim Limit, reason string) *outcome {
	o.verdict, o.reason, o.limit = Unknown, reason, lim
	return o
}

func siteLines(sys *cs.System, set []fences.Element) string {
	var parts []string
	for _, f := range set {
		line := fmt.Sprintf("%d", sys.File.Line(sys.Sites[f.Site].Pos()))
		if f.Kind == cs.StoreFence {
			line += "(store)"
		}
		parts = append(parts, line)
	}
	return "lines [" + strings.Join(parts, ",") + "]"
}

// classification of one counterexample.
type classification struct {
	real    *Witness // feasible under the exact semantics
	newK    int      // k case: the new k
	reason  string   // give up: unknown with this reason
	kGiveUp bool     // the reason is that raising k does not end
	limit   Limit    // the reason is this limit
	// otherwise, the predicate case: the refined predicates and whether
	// posts are precise
	preds *predabs.Preds
	exact bool
}

func (e *engine) classify(ctx context.Context, r *refiner, sys *cs.System, abs *kabs.Abs, p *path) (*classification, error) {
	model := e.opt.Model
	// 1. feasible under the exact semantics of the schedule?
	exact := abs
	if buffered(model) {
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
	if det && buffered(model) {
		return e.raiseK(sys, p)
	}
	f := buildSSA(abs.InitFormula(), p.ts)
	if buffered(model) {
		ans, err := e.checkAll(f.A, nil)
		if err != nil {
			return nil, err
		}
		if ans != predabs.Unsat {
			return e.raiseK(sys, p)
		}
	}
	// 3. predicate case.
	return e.refinePredicates(r, f, p)
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
func (e *engine) witness(sys *cs.System, model memmodel.Model, steps []kabs.AStep) (*Witness, error) {
	c := memmodel.NewConcrete(sys, model)
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
	key := ceKey(p, e.prec.K)
	if e.seen[key] != fresh {
		return &classification{reason: "the same counterexample came back after raising k", kGiveUp: true}, nil
	}
	e.seen[key] = refined
	for k := e.prec.K + 1; k <= e.opt.MaxK; k++ {
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
	return &classification{reason: fmt.Sprintf("k limit reached (a counterexample needs k > %d)", e.opt.MaxK), kGiveUp: true, limit: KLimit}, nil
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
func (e *engine) refinePredicates(r *refiner, f *ssa, p *path) (*classification, error) {
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
	key := ceKey(p, e.prec.K)
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
	ps, exact := e.prec.Preds.Clone(), e.prec.Exact
	before := ps.Len()
	for _, back := range backs {
		for _, a := range e.sol.Atoms(back) {
			for _, b := range append([]expr.Expr{a}, r.sym.images(a)...) {
				ps.Add(b)
				for _, g := range e.parameterise(r, b) {
					ps.Add(g)
				}
			}
		}
	}
	// Escalate when the atoms are not enough: whole interpolants as
	// predicates, and posts that re-evaluate every predicate. With both, the
	// abstract post of each step implies the next interpolant, so the same
	// path cannot come back (I_n is false).
	e.seen[key] = refined
	if level != fresh || ps.Len() == before {
		for _, back := range backs {
			ps.Add(back)
		}
		e.seen[key] = escalated
		if ps.Len() == before && exact {
			return &classification{reason: "refinement made no progress: the same spurious counterexample came back with no new predicate"}, nil
		}
		exact = true
	}
	e.logf("predicate case: %d new predicates (%d in all)%s", ps.Len()-before, ps.Len(), map[bool]string{true: ", precise posts", false: ""}[exact])
	for _, q := range ps.All()[before:] {
		e.logf("  + %s", q.F)
	}
	return &classification{preds: ps, exact: exact}, nil
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
func (e *engine) parameterise(r *refiner, a expr.Expr) []expr.Expr {
	sys := r.sys
	if !buffered(e.opt.Model) {
		return nil
	}
	var xs []string
	for _, v := range expr.Vars(a) {
		if len(r.writers[v]) > 0 {
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
	for _, p := range r.writers[x] {
		name := sys.Procs[p].Name
		out = append(out, subst(kabs.LWVar(name, x)))
		for i := 1; i <= e.prec.K; i++ {
			out = append(out, subst(kabs.SlotName(e.opt.Model.Layout(), name, x, i)))
		}
	}
	return out
}

// writersOf maps each shared variable to the processes that write it through
// their buffers (writes outside atomic).
// buffered reports whether writes wait in buffers under m (not SC): only
// then are there buffers to abstract, k to raise and fences to insert.
func buffered(m memmodel.Model) bool { return m.Layout().Buffered() }

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

// withElements is sys with the fences of set (cs.System.WithFenceKinds).
func withElements(sys *cs.System, set []fences.Element) *cs.System {
	kinds := make(map[int]cs.FenceKind, len(set))
	for _, f := range set {
		if k, ok := kinds[f.Site]; !ok || k == cs.StoreFence {
			kinds[f.Site] = f.Kind
		}
	}
	return sys.WithFenceKinds(kinds)
}

// candidates is the candidate set of a real counterexample
// (fences.Blocking): the full fences that block it and, with store, the
// store fences.
func candidates(w *Witness, store bool) []fences.Element {
	return fences.Blocking(w.Sys, memmodel.NewConcrete(w.Sys, w.Model), w.Trace, w.States, store)
}
