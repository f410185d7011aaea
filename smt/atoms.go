package smt

import (
	"math"

	"fencer/expr"
)

// Atoms returns the distinct atoms of the formula e in a normal form, in the
// order of their first occurrence. It looks through &&, ||, ! and =>, and
// drops boolean constants and comparisons without variables.
//
// A linear comparison becomes expr.Linearize's normal form Σ cᵢxᵢ + k ≤ 0
// or = 0, written back with expr.Linear.Expr, so x - y <= 0, y >= x and
// x < y + 1 give one atom. An atom and its negation give the same atom,
// since they carry the same information as predicates: x != y gives
// x == y, and of the two forms of an inequality and of its negation the
// one whose first coefficient (by variable name) is positive is kept, so
// x > y gives x <= y. Non-linear atoms are kept as they are, without
// duplicates by expr.Key.
//
// Atoms is pure Go and safe for concurrent use.
func Atoms(e expr.Expr) []expr.Expr {
	var out []expr.Expr
	seen := map[string]bool{}
	var walk func(expr.Expr)
	walk = func(x expr.Expr) {
		if a, ok := x.(*expr.App); ok {
			switch a.Op {
			case expr.OpAnd, expr.OpOr, expr.OpNot, expr.OpImplies:
				for _, y := range a.Args {
					walk(y)
				}
				return
			}
		}
		atom, key, ok := NormalAtom(x)
		if ok && !seen[key] {
			seen[key] = true
			out = append(out, atom)
		}
	}
	walk(e)
	return out
}

// NormalAtom returns the normal form of the atom a as Atoms computes it,
// with its key (equal keys mean the same predicate up to negation). It
// reports false for boolean constants and comparisons without variables.
func NormalAtom(a expr.Expr) (atom expr.Expr, key string, ok bool) {
	if _, isConst := expr.BoolValue(a); isConst {
		return nil, "", false
	}
	x := a
	if app, isApp := a.(*expr.App); isApp && app.Op == expr.OpNe && len(app.Args) == 2 {
		x = &expr.App{Op: expr.OpEq, Args: app.Args}
	}
	l, linear := expr.Linearize(x)
	if !linear {
		return a, expr.Key(a), true
	}
	if len(l.Coef) == 0 {
		return nil, "", false
	}
	if l.Rel == expr.OpLe && l.K > math.MinInt64+1 && firstCoef(l) < 0 && !hasMinCoef(l) {
		// ¬(Σ cx + k ≤ 0) ⇔ Σ (-c)x + (1 - k) ≤ 0 over the integers.
		neg := expr.Linear{Coef: make(map[string]int64, len(l.Coef)), K: 1 - l.K, Rel: expr.OpLe}
		for v, c := range l.Coef {
			neg.Coef[v] = -c
		}
		l = neg
	}
	return l.Expr(), l.Key(), true
}

// firstCoef returns the coefficient of the first variable by name.
func firstCoef(l expr.Linear) int64 {
	first := ""
	for v := range l.Coef {
		if first == "" || v < first {
			first = v
		}
	}
	return l.Coef[first]
}

// hasMinCoef reports a coefficient that cannot be negated.
func hasMinCoef(l expr.Linear) bool {
	for _, c := range l.Coef {
		if c == math.MinInt64 {
			return true
		}
	}
	return false
}
