package smt

/*
#include "z3shim.h"
*/
import "C"

import (
	"errors"
	"fmt"
	"runtime"
	"sort"

	"fencer/smt/expr"
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
// timeoutMs; timeoutMs <= 0 means DefaultTimeoutMs).
//
// The interpolants come from Z3's Horn-clause engine (Spacer): predicates
// P_1 … P_{n-1}, P_i over the shared variables of cut i (sorted by name),
// rules P_1(V_1) ← A_1, P_i(V_i) ← P_{i-1}(V_{i-1}) ∧ A_i and
// Err ← P_{n-1}(V_{n-1}) ∧ A_n, and the query Err. When Err is unreachable
// the solution of P_i is I_i. The cost grows faster than linearly in n:
// cut the path to the points that matter.
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
	timeout := timeoutOf(timeoutMs)
	if n == 1 {
		h, err := c.solver()
		if err != nil {
			return nil, Unknown, err
		}
		r, err := c.checkWith(h, timeout, steps[0])
		if r != Unsat {
			return nil, r, err
		}
		return []expr.Expr{expr.True, expr.False}, Unsat, nil
	}

	cuts, rules, names := pathVars(steps)
	roots := append([]expr.Expr(nil), steps...)
	for _, name := range names {
		roots = append(roots, expr.V(name))
	}
	ts, err := c.terms(roots...)
	if err != nil {
		return nil, Unknown, err
	}
	stepTerms := append([]C.Z3_ast(nil), ts[:n]...)
	varTerm := make(map[string]C.Z3_ast, len(names))
	for i, name := range names {
		varTerm[name] = ts[n+i]
	}
	cutOff, cutVars := flatten(cuts, varTerm)
	ruleOff, ruleVars := flatten(rules, varTerm)
	out := make([]C.Z3_ast, n-1)

	if err := c.g.begin(timeout); err != nil {
		return nil, Unknown, err
	}
	var r C.int32_t
	rc := C.shim_interpolate(c.s, C.int32_t(n), &stepTerms[0],
		&cutOff[0], first(cutVars), &ruleOff[0], first(ruleVars), &r, &out[0])
	why := c.g.end()
	runtime.KeepAlive(c)
	if rc != 0 {
		if why != "" {
			return nil, Unknown, &ErrUnknown{Reason: why}
		}
		return nil, Unknown, c.err(rc)
	}
	switch lbool(int32(r)) {
	case Sat:
		return nil, Sat, nil
	case Unknown:
		if why == "" {
			why = C.GoString(&c.s.errmsg[0])
		}
		return nil, Unknown, &ErrUnknown{Reason: why}
	}

	itps = make([]expr.Expr, n+1)
	itps[0], itps[n] = expr.True, expr.False
	for i, a := range out {
		if err == nil {
			itps[i+1], err = c.toExpr(a)
		}
		c.release(a)
	}
	if err != nil {
		return nil, Unknown, err
	}
	if err := c.CheckInterpolants(steps, itps); err != nil {
		return nil, Unknown, fmt.Errorf("smt: Spacer gave bad interpolants: %w", err)
	}
	return itps, Unsat, nil
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
