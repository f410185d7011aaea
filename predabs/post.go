package predabs

import (
	"sync"

	"fencer/expr"
	"fencer/kabs"
	"fencer/lia"
	"fencer/smt/answer"
)

// Answer is a solver's answer to a satisfiability query (answer.Answer).
type Answer = answer.Answer

const (
	Unknown = answer.Unknown
	Sat     = answer.Sat
	Unsat   = answer.Unsat
)

// Prover is the part of an SMT solver predabs needs: an incremental solver
// (lia.Prover, where its contract is). A lia.Solver is one, over another
// as its fallback.
type Prover = lia.Prover

// Stats counts the work of an Abstractor.
type Stats struct {
	Queries   int // satisfiability queries sent
	Unknowns  int // of which the solver could not decide
	Posts     int // abstract posts asked for
	CacheHits int // of which answered from the cache
	Syntactic int // predicates decided without the solver
	Memo      int // queries answered by the memo of sliced queries
}

// Abstractor computes α and abstract posts over a growing predicate set.
type Abstractor struct {
	Preds *Preds
	P     Prover
	// Precise re-evaluates every predicate after every step. Otherwise a
	// predicate whose variables the step neither assigns nor tests keeps its
	// literal (sound, cheaper, sometimes less precise).
	Precise bool
	// CacheLimit bounds the memo of posts (entries); it is emptied when full.
	CacheLimit int
	Stats      Stats

	cache *postCache
	dec   *decisions // the solver's answers on sliced queries (slice.go)
	// conjuncts memoises the text and variables of cube literals.
	conjuncts conjunctMemo
	keep      []bool // during a Post: the predicates to evaluate (nil: all)
}

type postResult struct {
	cube Cube
	ok   bool
}

// postCache memoises whole posts by cube, transition, kept predicates and
// explicit values. Abstractors forked for a parallel exploration share it
// (mu).
type postCache struct {
	mu sync.Mutex
	m  map[string]postResult
}

func newPostCache() *postCache { return &postCache{m: map[string]postResult{}} }

func (c *postCache) lookup(key string) (postResult, bool) {
	c.mu.Lock()
	r, ok := c.m[key]
	c.mu.Unlock()
	return r, ok
}

// store adds an entry, emptying the cache first when it holds limit.
func (c *postCache) store(key string, r postResult, limit int) {
	c.mu.Lock()
	if len(c.m) >= limit {
		c.m = map[string]postResult{}
	}
	c.m[key] = r
	c.mu.Unlock()
}

// NewAbstractor returns an abstractor over ps using p.
func NewAbstractor(ps *Preds, p Prover) *Abstractor {
	return &Abstractor{Preds: ps, P: p, cache: newPostCache(), dec: newDecisions(1 << 18), CacheLimit: 1 << 21, conjuncts: conjunctMemo{}}
}

// Fork returns an abstractor over the same predicates that asks p and
// shares a's memos of posts and of sliced queries: one per goroutine of a
// parallel exploration (the memos lock; the predicates must not change
// while forks run). Sync it with a again before each use.
func (a *Abstractor) Fork(p Prover) *Abstractor {
	b := &Abstractor{Preds: a.Preds, P: p, conjuncts: conjunctMemo{}}
	b.Sync(a)
	return b
}

// Sync makes b, a fork of a, use a's predicates, settings and memos as they
// are now (a new predicate set, ClearCache and ShareMemo replace them).
func (b *Abstractor) Sync(a *Abstractor) {
	b.Preds, b.Precise, b.CacheLimit, b.cache, b.dec = a.Preds, a.Precise, a.CacheLimit, a.cache, a.dec
}

// TakeStats adds the counts of b to a's and zeroes b's.
func (a *Abstractor) TakeStats(b *Abstractor) {
	s, t := &a.Stats, b.Stats
	s.Queries += t.Queries
	s.Unknowns += t.Unknowns
	s.Posts += t.Posts
	s.CacheHits += t.CacheHits
	s.Syntactic += t.Syntactic
	s.Memo += t.Memo
	b.Stats = Stats{}
}

// ClearCache forgets cached posts (call it after the predicates change).
// The memo of sliced queries stays: it is about formulas.
func (a *Abstractor) ClearCache() { a.cache = newPostCache() }

// ShareMemo makes a use the memo of sliced queries of b (valid whatever
// the predicates: it is keyed by formulas).
func (a *Abstractor) ShareMemo(b *Abstractor) { a.dec = b.dec }

func (a *Abstractor) check(fs ...expr.Expr) (Answer, error) {
	if err := a.P.Push(); err != nil {
		return Unknown, err
	}
	for _, f := range fs {
		if err := a.P.Assert(f); err != nil {
			a.P.Pop()
			return Unknown, err
		}
	}
	ans, err := a.P.Check()
	a.Stats.Queries++
	if ans == Unknown {
		a.Stats.Unknowns++
	}
	if perr := a.P.Pop(); err == nil {
		err = perr
	}
	return ans, err
}

// Env gives the values of the variables that the explicit-value domain
// tracks in one abstract state. Those variables are substituted by their
// values before anything goes to the solver. Key identifies the values.
type Env interface {
	Lookup(name string) (int64, bool)
	Key() string
}

// Alpha returns the cube of f: for each predicate, whether f implies it or
// its negation. ok is false when f is unsatisfiable.
func (a *Abstractor) Alpha(f expr.Expr) (Cube, bool, error) {
	return a.abstract(f, nil, nil, nil, nil, nil)
}

// AlphaEnv is Alpha in a state whose explicit variables have the values of
// env: f and the predicates are read with those values substituted.
// Predicates outside keep (nil: all) are left unknown.
func (a *Abstractor) AlphaEnv(f expr.Expr, env Env, keep []bool) (Cube, bool, error) {
	sub := substitution(env)
	a.keep = keep
	defer func() { a.keep = nil }()
	return a.abstract(rename(f, sub), nil, nil, sub, sub, nil)
}

// Post returns the abstract successor of c through t: the cube of
// ∃X. c(X) ∧ t(X, X'). ok is false when there is no successor (the step's
// guard contradicts c). Predicates outside keep (nil: all) are not
// evaluated and left unknown; keepKey identifies keep for the cache.
func (a *Abstractor) Post(c Cube, t *kabs.Trans, keep []bool, keepKey string) (Cube, bool, error) {
	return a.PostEnv(c, t, nil, nil, keep, keepKey)
}

// PostEnv is Post between two states whose explicit variables have the
// values of pre and post (nil: none). The explicit values are substituted
// into the cube, the guard, the right-hand sides and the predicates; the
// assignments to explicit variables are the explicit domain's business and
// are not looked at here (except to know which predicates they touch). A
// step that touches no predicate outside keep and whose guard is true after
// substitution is answered without the solver and without the cache.
func (a *Abstractor) PostEnv(c Cube, t *kabs.Trans, pre, post Env, keep []bool, keepKey string) (Cube, bool, error) {
	a.Stats.Posts++
	preSub, postSub := substitution(pre), substitution(post)
	guard := rename(t.Guard, preSub)
	trivial := expr.Key(guard) == "true"
	if trivial && !a.Precise {
		if out, ok := a.copyUntouched(c, t, keep); ok {
			a.Stats.CacheHits++
			return out, true, nil
		}
	}
	key := c.Key() + "\x00" + t.Key() + "\x00" + keepKey
	if pre != nil {
		key += "\x00" + pre.Key() + "\x00" + post.Key()
	}
	if r, hit := a.cache.lookup(key); hit {
		a.Stats.CacheHits++
		return r.cube, r.ok, nil
	}
	st := t
	if preSub != nil {
		st = symbolicPart(t, guard, preSub, postSub)
	}
	a.keep = keep
	cube, ok, err := a.abstract(expr.And(c.formula(a.Preds, preSub), st.Guard), c, st, preSub, postSub, t)
	a.keep = nil
	if err != nil {
		return nil, false, err
	}
	a.cache.store(key, postResult{cube, ok}, a.CacheLimit)
	return cube, ok, nil
}

// copyUntouched returns the successor of c through a step with a true guard
// when no predicate in keep mentions a variable the step assigns: every
// kept literal is copied. ok is false when some predicate must be decided.
func (a *Abstractor) copyUntouched(c Cube, t *kabs.Trans, keep []bool) (Cube, bool) {
	n := a.Preds.Len()
	var out Cube
	for i, p := range a.Preds.All() {
		if keep != nil && (i >= len(keep) || !keep[i]) {
			continue
		}
		for _, as := range t.Assign {
			if p.Vars[as.Var] {
				return nil, false
			}
		}
		if i < len(c) && c[i] != 0 {
			if out == nil {
				out = make(Cube, n)
			}
			out[i] = c[i]
		}
	}
	return out, true
}

// substitution turns env into a renaming (nil for a nil env).
func substitution(env Env) func(string) expr.Expr {
	if env == nil {
		return nil
	}
	return func(n string) expr.Expr {
		if v, ok := env.Lookup(n); ok {
			return expr.N(v)
		}
		return nil
	}
}

func rename(f expr.Expr, sub func(string) expr.Expr) expr.Expr {
	if sub == nil {
		return f
	}
	return expr.Rename(f, sub)
}

// symbolicPart is t with the explicit values of the state before it
// substituted, without its assignments to variables that are explicit after
// it.
func symbolicPart(t *kabs.Trans, guard expr.Expr, preSub, postSub func(string) expr.Expr) *kabs.Trans {
	st := &kabs.Trans{Guard: guard, Exists: t.Exists}
	for _, as := range t.Assign {
		if postSub(as.Var) != nil {
			continue
		}
		st.Assign = append(st.Assign, kabs.Assign{Var: as.Var, Val: rename(as.Val, preSub)})
	}
	return st
}

// abstract computes the cube of pre ∧ t for the state after t (t nil: the
// identity, pre itself). old is the cube before the step, for literals that
// the step cannot change. preSub and postSub (nil: none) substitute the
// explicit values before and after the step into the predicates; full is
// the whole transition (t may be its symbolic part), which says which
// predicates the step touches.
func (a *Abstractor) abstract(pre expr.Expr, old Cube, t *kabs.Trans, preSub, postSub func(string) expr.Expr, full *kabs.Trans) (Cube, bool, error) {
	if full == nil {
		full = t
	}
	n := a.Preds.Len()
	out := make(Cube, n)
	trivial := t != nil && expr.Key(t.Guard) == "true"
	var sl *slicer
	preSat := false // pre was found satisfiable
	slices := func() *slicer {
		if sl == nil {
			sl = newSlicer(pre, a.conjuncts)
		}
		return sl
	}
	if !trivial || a.Precise {
		if b, ok := expr.BoolValue(pre); ok {
			if !b {
				return nil, false, nil
			}
		} else {
			sat, sure, err := a.satisfiable(slices())
			if err != nil {
				return nil, false, err
			}
			if !sat {
				return nil, false, nil
			}
			preSat = sure
		}
	}
	var touched map[string]bool
	if t != nil && !a.Precise {
		touched = map[string]bool{}
		for _, as := range full.Assign {
			touched[as.Var] = true
		}
		if !trivial {
			for _, v := range expr.Vars(t.Guard) {
				touched[v] = true
			}
		}
	}
	var assigned map[string]bool
	if t != nil {
		assigned = map[string]bool{}
		for _, as := range full.Assign {
			assigned[as.Var] = true
		}
	}
	// The slice asserted in the open scope, if any.
	pushed, cur := false, ""
	defer func() {
		if pushed {
			a.P.Pop()
		}
	}()
	for i, p := range a.Preds.All() {
		if a.keep != nil && (i >= len(a.keep) || !a.keep[i]) {
			continue
		}
		if touched != nil && !intersects(p.Vars, touched) {
			if i < len(old) {
				out[i] = old[i]
			}
			continue
		}
		if t != nil && !mentions(p, assigned, preSub, postSub) {
			// The step leaves p alone and no explicit value reads it: its
			// weakest precondition is p, whose literal the old cube has.
			if i < len(old) && old[i] != 0 {
				a.Stats.Syntactic++
				out[i] = old[i]
				continue
			}
		}
		wp := rename(p.F, postSub)
		if t != nil {
			wp = t.WP(wp)
		}
		wkey := expr.Key(wp)
		if v, ok := a.syntactic(wp, wkey, old, preSub); ok {
			a.Stats.Syntactic++
			out[i] = v
			continue
		}
		conj, key := slices().slice(slices().components(wp))
		if v, ok := a.dec.lookup(key, wkey); ok {
			a.Stats.Memo++
			out[i] = v
			continue
		}
		// With pre satisfiable, the answer on pre is the answer on the
		// slice: pre is asserted once for all the predicates of the post.
		// Otherwise the slice itself is asked, so that the memo holds the
		// answer about its key.
		scope := key
		if preSat {
			scope, conj = "\x00pre", []expr.Expr{pre}
		}
		if !pushed || cur != scope {
			if pushed {
				pushed = false
				if err := a.P.Pop(); err != nil {
					return nil, false, err
				}
			}
			if err := a.P.Push(); err != nil {
				return nil, false, err
			}
			pushed, cur = true, scope
			for _, c := range conj {
				if err := a.P.Assert(c); err != nil {
					return nil, false, err
				}
			}
		}
		v, err := a.decide(wp)
		if err != nil {
			return nil, false, err
		}
		a.dec.store(key, wkey, v)
		out[i] = v
	}
	return out, true, nil
}

// satisfiable reports whether the conjunction sl came from is satisfiable:
// each of its components is (they share no variable). An unknown answer
// counts as satisfiable, but not as sure, and is not memoised.
func (a *Abstractor) satisfiable(sl *slicer) (sat, sure bool, err error) {
	sure = true
	done := map[int]bool{}
	for _, c := range sl.comp {
		if done[c] {
			continue
		}
		done[c] = true
		conj, key := sl.slice([]int{c})
		sat, ok := a.dec.lookupSat(key)
		if ok {
			a.Stats.Memo++
		} else {
			ans, err := a.check(conj...)
			if err != nil {
				return false, false, err
			}
			sat = ans != Unsat
			if ans == Unknown {
				sure = false
			} else {
				a.dec.storeSat(key, sat)
			}
		}
		if !sat {
			return false, true, nil
		}
	}
	return true, sure, nil
}

// syntactic decides f without the solver when it is a constant or a
// predicate whose literal the cube before the step already has.
func (a *Abstractor) syntactic(f expr.Expr, key string, old Cube, preSub func(string) expr.Expr) (int8, bool) {
	if b, ok := expr.BoolValue(f); ok {
		if b {
			return 1, true
		}
		return -1, true
	}
	if old == nil {
		return 0, false
	}
	j := a.Preds.IndexText(f, key)
	if j >= 0 && j < len(old) && old[j] != 0 {
		// old[j] is about the predicate with the explicit values substituted:
		// it is f only when no variable of the predicate is explicit.
		if preSub != nil {
			for v := range a.Preds.At(j).Vars {
				if preSub(v) != nil {
					return 0, false
				}
			}
		}
		return old[j], true
	}
	return 0, false
}

// decide returns +1 if the asserted context implies f, -1 if it implies !f,
// else 0.
func (a *Abstractor) decide(f expr.Expr) (int8, error) {
	ans, err := a.check(expr.Not(f))
	if err != nil {
		return 0, err
	}
	if ans == Unsat {
		return 1, nil
	}
	ans, err = a.check(f)
	if err != nil {
		return 0, err
	}
	if ans == Unsat {
		return -1, nil
	}
	return 0, nil
}

// mentions reports whether predicate p mentions a variable the step
// assigns or one with an explicit value before or after it.
func mentions(p *Pred, assigned map[string]bool, preSub, postSub func(string) expr.Expr) bool {
	for v := range p.Vars {
		if assigned[v] || preSub != nil && preSub(v) != nil || postSub != nil && postSub(v) != nil {
			return true
		}
	}
	return false
}

func intersects(a, b map[string]bool) bool {
	if len(a) > len(b) {
		a, b = b, a
	}
	for v := range a {
		if b[v] {
			return true
		}
	}
	return false
}

// ShareCache makes a use the cache of b when both have the same predicates
// in the same order (cached cubes are indexed by predicate position).
func (a *Abstractor) ShareCache(b *Abstractor) {
	if a.Preds.Len() != b.Preds.Len() {
		return
	}
	for i, p := range a.Preds.All() {
		if b.Preds.At(i).Key != p.Key {
			return
		}
	}
	a.cache = b.cache
}
