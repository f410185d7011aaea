// Package expr is the one representation of integer terms and formulas used
// across fencer: the front end (cs) produces it for the operations of the
// automata, kabs builds transition formulas with it, predabs keeps predicates
// in it and smt translates it to and from Z3.
//
// Terms are integers (mathematical, unbounded), formulas are booleans. Nodes
// are immutable values; build them with the constructors (Add, Le, And, ...),
// which fold constants but do no other rewriting. Division and remainder are
// C's: they truncate toward zero, and the divisor must be a non-zero constant.
//
// Key returns a canonical string for structural equality, and Linearize turns
// a comparison into the normal form Σ cᵢxᵢ + k ≤ 0 (or = 0). The two normal
// forms of formulas are built on it (normal.go): Normal, which keeps the
// polarity (how predabs stores and finds predicates), and NormalAtom, up to
// negation (the atoms smt.Atoms takes from interpolants).
//
// The package is pure Go and safe for concurrent use.
package expr
