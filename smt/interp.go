package smt

/*
#include <stdlib.h>
#include "z3shim.h"
*/
import "C"

import (
	"errors"
	"fmt"
	"runtime"
	"sort"
	"time"
	"unsafe"

	"fencer/expr"
)

// Interpolate computes sequence interpolants of the path A_1 ∧ … ∧ A_n
// (steps), whose variables are SSA names: any name may occur in any step.
//
// If the conjunction is unsatisfiable it returns Unsat and I_0 … I_n with
// I_0 = true, I_n = false, I_{i-1} ∧ A_i ⇒ I_i valid for every i, and each
// I_i over the variables that occur both in A_1 … A_i and in A_{i+1} … A_n
// (so I_i is true or false when the cut shares no variable). The
// interpolants are checked by the solver before they are returned. If the
// conjunction is satisfiable it returns Sat and no interpolants; otherwise
// Unknown and an error (*ErrUnknown when Z3 gave up, for example after
// timeoutMs for the whole call, or on non-linear steps; timeoutMs <= 0
// means DefaultTimeoutMs).
//
// The interpolants come from Z3's Horn-clause engine (Spacer): predicates
// P_1 … P_{n-1}, P_i over the shared variables of cut i (sorted by name),
// rules P_1(V_1) ← A_1, P_i(V_i) ← P_{i-1}(V_{i-1}) ∧ A_i and
// Err ← P_{n-1}(V_{n-1}) ∧ A_n, and the query Err. When Err is unreachable
// the solution of P_i is I_i. Before that, the solver finds the shortest
// unsatisfiable prefix A_1 … A_k incrementally (a feasible path is answered
// there, without Spacer); Spacer gets only that prefix, and I_k … I_n are
// false. The cost grows faster than linearly in k, so the prefix is cut to
// the points that matter first: each step is reduced to its conjuncts in a
// minimal unsatisfiable core of the prefix (slice), and Spacer gets only
// the steps with some conjunct left; a dropped step passes the interpolant
// before it on. The interpolants are then over the variables the
// infeasibility needs, which also makes them better predicates.
//
// Maps to: Z3_fixedpoint_add_rule, Z3_fixedpoint_query,
// Z3_fixedpoint_get_cover_delta, Z3_substitute_vars, Z3_simplify.
func (c *Context) Interpolate(steps []expr.Expr, timeoutMs int) (itps []expr.Expr, res Result, err error) {
	if c.s == nil {
		return nil, Unknown, ErrClosed
	}
	n := len(steps)
	if n == 0 {
		return nil, Unknown, errors.New("smt: Interpolate of an empty path")
	}
	deadline := time.Now().Add(timeoutOf(timeoutMs))

	// Find the shortest unsatisfiable prefix A_1..A_k. Spacer drops rules
	// whose body is unsatisfiable and then reports "true" for predicates
	// that are in fact empty, so it only gets paths whose proper prefixes
	// are satisfiable; I_k .. I_n are false.
	k, res, err := c.firstUnsat(steps, time.Until(deadline))
	if res != Unsat {
		return nil, res, err
	}
	itps = make([]expr.Expr, n+1)
	itps[0] = expr.True
	for i := k; i <= n; i++ {
		itps[i] = expr.False
	}
	if k > 1 {
		sliced, err := c.slice(steps[:k], deadline)
		if err != nil {
			return nil, Unknown, err
		}
		// Spacer gets the steps the core kept; a step it dropped passes the
		// interpolant before it on.
		var kept []expr.Expr
		var at []int // at[j]: the index in steps of kept[j]
		for i, s := range sliced {
			if s != expr.True {
				kept = append(kept, s)
				at = append(at, i)
			}
		}
		if len(kept) > 1 {
			mid, res, err := c.spacer(kept, deadline)
			if res != Unsat {
				if res == Sat { // cannot be: the sliced path is unsatisfiable
					return nil, Unknown, errors.New("smt: Spacer finds an unsatisfiable path feasible")
				}
				return nil, res, err
			}
			j := 0
			for i := 1; i < k; i++ {
				for j < len(at) && at[j] < i {
					j++
				}
				// kept[0..j-1] are the kept steps among A_1..A_i.
				if j == 0 {
					itps[i] = expr.True
				} else {
					itps[i] = mid[j-1]
				}
			}
		} else {
			for i := 1; i < k; i++ {
				itps[i] = expr.True
			}
		}
	}
	if err := c.CheckInterpolants(steps, itps); err != nil {
		return nil, Unknown, fmt.Errorf("smt: Spacer gave bad interpolants: %w", err)
	}
	return itps, Unsat, nil
}

// firstUnsat returns the length k of the shortest unsatisfiable prefix of
// steps and Unsat, or Sat if the whole path is satisfiable.
func (c *Context) firstUnsat(steps []expr.Expr, timeout time.Duration) (int, Result, error) {
	h, err := c.solver()
	if err != nil {
		return 0, Unknown, err
	}
	ts, err := c.terms(steps...)
	if err != nil {
		return 0, Unknown, err
	}
	if err := c.g.begin(max(timeout, time.Millisecond)); err != nil {
		return 0, Unknown, err
	}
	var k, r C.int32_t
	rc := C.shim_first_unsat(c.s, h.sv, &ts[0], C.int32_t(len(ts)), &k, &r)
	why := c.g.end()
	res, err := c.answer(rc, r, why)
	return int(k), res, err
}

// spacer returns I_1 .. I_{n-1} for a path of n >= 2 steps.
// spacerSettings are tried in turn while Spacer gives up by itself (it
// throws "Stuck on a lemma" on some paths, depending on the context's
// history): the defaults are the fastest on the usual traces; the others
// avoid the paths where the defaults get stuck.
var spacerSettings = []string{"", "spacer.arith.solver=6", "spacer.iuc.arith=0"}

// spacer returns I_1 .. I_{n-1} for a path of n >= 2 steps.
func (c *Context) spacer(steps []expr.Expr, deadline time.Time) ([]expr.Expr, Result, error) {
	n := len(steps)
	pure := make([]expr.Expr, n)
	for i, s := range steps {
		pure[i] = purifyDivMod(s, fmt.Sprintf("smt!%d", i))
	}
	steps = pure
	cuts, rules, names := pathVars(steps)
	roots := append([]expr.Expr(nil), steps...)
	for _, name := range names {
		roots = append(roots, expr.V(name))
	}
	ts, err := c.terms(roots...)
	if err != nil {
		return nil, Unknown, err
	}
	// Copy what the shim needs: ts is overwritten by the next conversion.
	// The terms stay alive: the cache is cleared only when a conversion
	// starts, and no conversion happens until the last attempt returns.
	stepTerms := append([]C.Z3_ast(nil), ts[:n]...)
	varTerm := make(map[string]C.Z3_ast, len(names))
	for i, name := range names {
		varTerm[name] = ts[n+i]
	}
	cutOff, cutVars := flatten(cuts, varTerm)
	ruleOff, ruleVars := flatten(rules, varTerm)
	out := make([]C.Z3_ast, n-1)

	var res Result
	for _, settings := range spacerSettings {
		var rc C.int
		var why string
		rc, res, why, err = c.spacerOnce(n, stepTerms, cutOff, cutVars, ruleOff, ruleVars, settings, deadline, out)
		if rc != C.SHIM_EGAVEUP || why != "" || !time.Now().Before(deadline) {
			break // a result, an error, or the timeout/interrupt
		}
	}
	if res != Unsat {
		return nil, res, err
	}
	itps := make([]expr.Expr, n-1)
	for i, a := range out {
		if err == nil {
			itps[i], err = c.toExpr(a)
		}
		c.release(a)
	}
	if err != nil {
		return nil, Unknown, err
	}
	return itps, Unsat, nil
}

// spacerOnce runs one query of the Horn clauses with the given settings. It
// returns the shim's code and the guard's reason for stopping it besides
// the result; after Unsat, out holds the interpolants (with references).
func (c *Context) spacerOnce(n int, steps []C.Z3_ast, cutOff []C.int32_t, cutVars []C.Z3_ast,
	ruleOff []C.int32_t, ruleVars []C.Z3_ast, settings string, deadline time.Time,
	out []C.Z3_ast) (C.int, Result, string, error) {
	var opts *C.char
	if settings != "" {
		opts = C.CString(settings)
		defer C.free(unsafe.Pointer(opts))
	}
	if err := c.g.begin(max(time.Until(deadline), time.Millisecond)); err != nil {
		return 0, Unknown, "", err
	}
	var r C.int32_t
	rc := C.shim_interpolate(c.s, C.int32_t(n), &steps[0],
		&cutOff[0], first(cutVars), &ruleOff[0], first(ruleVars), opts, &r, &out[0])
	why := c.g.end()
	runtime.KeepAlive(c)
	reason := why
	if rc == C.SHIM_EGAVEUP && reason == "" {
		reason = C.GoString(&c.s.errmsg[0])
	}
	res, err := c.answer(rc, r, reason)
	return rc, res, why, err
}

// CheckInterpolants checks that itps (I_0 … I_n) are sequence interpolants
// of steps (A_1 … A_n): I_0 = true, I_n = false, each I_{i-1} ∧ A_i ⇒ I_i
// is valid and each I_i uses only variables shared by A_1 … A_i and
// A_{i+1} … A_n. It returns nil if they are.
func (c *Context) CheckInterpolants(steps, itps []expr.Expr) error {
	n := len(steps)
	if len(itps) != n+1 {
		return fmt.Errorf("%d interpolants for %d steps", len(itps), n)
	}
	if itps[0] != expr.True {
		return fmt.Errorf("I_0 is %v, not true", itps[0])
	}
	if itps[n] != expr.False {
		return fmt.Errorf("I_%d is %v, not false", n, itps[n])
	}
	cuts, _, _ := pathVars(steps)
	for i := 1; i < n; i++ {
		shared := map[string]bool{}
		for _, v := range cuts[i-1] {
			shared[v] = true
		}
		for _, v := range expr.Vars(itps[i]) {
			if !shared[v] {
				return fmt.Errorf("I_%d = %v uses %s, which is not shared at cut %d", i, itps[i], v, i)
			}
		}
	}
	h, err := c.solver()
	if err != nil {
		return err
	}
	for i := 1; i <= n; i++ {
		r, err := c.checkWith(h, c.timeout, itps[i-1], steps[i-1], expr.Not(itps[i]))
		if err != nil {
			return fmt.Errorf("I_%d ∧ A_%d ⇒ I_%d: %w", i-1, i, i, err)
		}
		if r != Unsat {
			return fmt.Errorf("I_%d ∧ A_%d ⇒ I_%d is not valid: %v ∧ %v ⇒ %v", i-1, i, i,
				itps[i-1], steps[i-1], itps[i])
		}
	}
	return nil
}

// pathVars returns, for a path of n steps, the shared variables of each of
// the n-1 cuts (cut k lies between steps[k] and steps[k+1]), the variables
// of each step's rule (its own, and those of the cuts before and after it)
// and all names; each list sorted.
func pathVars(steps []expr.Expr) (cuts, rules [][]string, names []string) {
	n := len(steps)
	firstAt, lastAt := map[string]int{}, map[string]int{}
	stepVars := make([][]string, n)
	for i, s := range steps {
		stepVars[i] = expr.Vars(s)
		for _, v := range stepVars[i] {
			if _, ok := firstAt[v]; !ok {
				firstAt[v] = i
				names = append(names, v)
			}
			lastAt[v] = i
		}
	}
	sort.Strings(names)
	cuts = make([][]string, n-1)
	for _, v := range names { // sorted, so each cut is sorted
		for k := firstAt[v]; k < lastAt[v]; k++ {
			cuts[k] = append(cuts[k], v)
		}
	}
	rules = make([][]string, n)
	for i := range steps {
		set := map[string]bool{}
		for _, v := range stepVars[i] {
			set[v] = true
		}
		if i > 0 {
			for _, v := range cuts[i-1] {
				set[v] = true
			}
		}
		if i < n-1 {
			for _, v := range cuts[i] {
				set[v] = true
			}
		}
		for v := range set {
			rules[i] = append(rules[i], v)
		}
		sort.Strings(rules[i])
	}
	return cuts, rules, names
}

// flatten lays lists of variables out as offsets and terms for the shim.
func flatten(lists [][]string, term map[string]C.Z3_ast) (off []C.int32_t, flat []C.Z3_ast) {
	off = make([]C.int32_t, 0, len(lists)+1)
	for _, l := range lists {
		off = append(off, C.int32_t(len(flat)))
		for _, v := range l {
			flat = append(flat, term[v])
		}
	}
	off = append(off, C.int32_t(len(flat)))
	return off, flat
}

// slice returns the unsatisfiable path steps with each step cut to its
// conjuncts in a minimal unsatisfiable core of the whole path (true for a
// step with none): the parts of the path that its infeasibility needs.
// Interpolants of the sliced path are interpolants of steps (each sliced
// step is implied by its step, and shares no variable the step does not).
func (c *Context) slice(steps []expr.Expr, deadline time.Time) ([]expr.Expr, error) {
	var parts []expr.Expr
	var owner []int
	for i, s := range steps {
		for _, p := range expr.Conjuncts(s) {
			parts = append(parts, p)
			owner = append(owner, i)
		}
	}
	sv, err := c.NewSolver()
	if err != nil {
		return nil, err
	}
	defer sv.Close()
	check := func(idx []int) (Result, []int, error) {
		sv.timeout = max(time.Until(deadline), time.Millisecond)
		fs := make([]expr.Expr, len(idx))
		for j, i := range idx {
			fs[j] = parts[i]
		}
		r, err := sv.CheckAssumptions(fs...)
		if r != Unsat {
			return r, nil, err
		}
		var core []int
		for _, j := range sv.UnsatCore() {
			core = append(core, idx[j])
		}
		return r, core, nil
	}
	all := make([]int, len(parts))
	for i := range all {
		all[i] = i
	}
	r, core, err := check(all)
	if r != Unsat {
		if err == nil {
			err = errors.New("smt: an unsatisfiable path is satisfiable under assumptions")
		}
		return nil, err
	}
	// Deletion: drop each part whose removal keeps the path unsatisfiable.
	for i := 0; i < len(core); {
		without := append(append([]int(nil), core[:i]...), core[i+1:]...)
		r, sub, err := check(without)
		if err != nil && r == Unknown {
			return nil, err
		}
		if r == Unsat {
			// keep the parts before i (already known to be needed) and
			// the smaller core of the rest
			in := map[int]bool{}
			for _, x := range sub {
				in[x] = true
			}
			next := append([]int(nil), core[:i]...)
			for _, x := range core[i+1:] {
				if in[x] {
					next = append(next, x)
				}
			}
			core = next
			continue
		}
		i++
	}
	byStep := make([][]expr.Expr, len(steps))
	sort.Ints(core)
	for _, x := range core {
		byStep[owner[x]] = append(byStep[owner[x]], parts[x])
	}
	out := make([]expr.Expr, len(steps))
	for i := range steps {
		out[i] = expr.And(byStep[i]...)
	}
	return out, nil
}
