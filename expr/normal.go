package expr

import (
	"math"
	"sort"
)

// The two normal forms of formulas, both built on Linearize's normal form
// of linear comparisons (Σ cᵢxᵢ + k ≤ 0 or = 0, written back by
// Linear.Expr), so that x - y <= 0, y >= x and x < y + 1 are one formula:
//
//   - Normal keeps the polarity: it is the form in which a predicate is
//     stored and looked up (package predabs), where f and !f are two
//     different questions;
//   - NormalAtom identifies an atom with its negation: it is the form of
//     the atoms taken from interpolants (smt.Atoms), which as predicates
//     carry the same information.

// Normal returns f in normal form and its key: every linear comparison in
// Linearize's normal form and the arguments of every and/or sorted by key,
// recursively, so that formulas that differ only in the order of their
// conjuncts or disjuncts, or in how an atom is written, are equal. ok is
// false for boolean constants and comparisons without variables.
func Normal(f Expr) (Expr, string, bool) {
	if _, ok := f.(Bool); ok {
		return nil, "", false
	}
	if l, ok := Linearize(f); ok {
		if len(l.Coef) == 0 {
			return nil, "", false
		}
		f = l.Expr()
	} else {
		f = canon(f)
	}
	return f, Key(f), true
}

// canon is Normal's form of a formula that is not one linear comparison.
func canon(f Expr) Expr {
	a, ok := f.(*App)
	if !ok {
		return f
	}
	switch a.Op {
	case OpAnd, OpOr:
		args := make([]Expr, len(a.Args))
		keys := make([]string, len(a.Args))
		for i, x := range a.Args {
			args[i] = canon(x)
			keys[i] = Key(args[i])
		}
		idx := make([]int, len(args))
		for i := range idx {
			idx[i] = i
		}
		sort.SliceStable(idx, func(i, j int) bool { return keys[idx[i]] < keys[idx[j]] })
		sorted := make([]Expr, len(args))
		for i, k := range idx {
			sorted[i] = args[k]
		}
		return &App{Op: a.Op, Args: sorted}
	case OpNot:
		return &App{Op: OpNot, Args: []Expr{canon(a.Args[0])}}
	case OpEq, OpNe, OpLt, OpLe, OpGt, OpGe:
		if l, ok := Linearize(f); ok && len(l.Coef) > 0 {
			return l.Expr()
		}
	}
	return f
}

// NormalAtom returns the normal form of the atom a up to negation, with its
// key (equal keys: the same predicate up to negation). x != y gives
// x == y; of the two forms of an inequality and of its negation, the one
// whose first coefficient (by variable name) is positive is kept, so x > y
// gives x <= y. A non-linear atom is kept as it is. ok is false for
// boolean constants and comparisons without variables.
func NormalAtom(a Expr) (atom Expr, key string, ok bool) {
	if _, isConst := BoolValue(a); isConst {
		return nil, "", false
	}
	x := a
	if app, isApp := a.(*App); isApp && app.Op == OpNe && len(app.Args) == 2 {
		x = &App{Op: OpEq, Args: app.Args}
	}
	l, linear := Linearize(x)
	if !linear {
		return a, Key(a), true
	}
	if len(l.Coef) == 0 {
		return nil, "", false
	}
	if l.Rel == OpLe && l.K > math.MinInt64+1 && firstCoef(l) < 0 && !hasMinCoef(l) {
		// ¬(Σ cx + k ≤ 0) ⇔ Σ (-c)x + (1 - k) ≤ 0 over the integers.
		neg := Linear{Coef: make(map[string]int64, len(l.Coef)), K: 1 - l.K, Rel: OpLe}
		for v, c := range l.Coef {
			neg.Coef[v] = -c
		}
		l = neg
	}
	return l.Expr(), l.Key(), true
}

// firstCoef returns the coefficient of the first variable by name.
func firstCoef(l Linear) int64 {
	first := ""
	for v := range l.Coef {
		if first == "" || v < first {
			first = v
		}
	}
	return l.Coef[first]
}

// hasMinCoef reports a coefficient that cannot be negated.
func hasMinCoef(l Linear) bool {
	for _, c := range l.Coef {
		if c == math.MinInt64 {
			return true
		}
	}
	return false
}
