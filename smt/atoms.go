package smt

import "fencer/expr"

// Atoms returns the distinct atoms of the formula e in a normal form, in the
// order of their first occurrence. It looks through &&, ||, ! and =>, and
// drops boolean constants and comparisons without variables.
//
// Each atom is in expr.NormalAtom's form, up to negation (an atom and its
// negation carry the same information as predicates): x - y <= 0, y >= x,
// x < y + 1 and y < x give one atom, x != y gives x == y. Non-linear atoms
// are kept as they are, without duplicates by expr.Key.
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
		atom, key, ok := expr.NormalAtom(x)
		if ok && !seen[key] {
			seen[key] = true
			out = append(out, atom)
		}
	}
	walk(e)
	return out
}
