// Package predabs is the predicate abstraction of fencer: predicates over
// X = X_S ∪ X_L ∪ X_B ∪ X_LW (shared, local, buffer-slot and last-write
// variables), cubes of predicate literals, the abstraction α of a formula to
// the strongest cube it implies, and the abstract post of a cube through a
// kabs transition, with a cache keyed by (cube, transition).
//
// The abstraction is Cartesian: a cube holds, for each predicate, whether
// the formula implies it, implies its negation, or neither. It is sound
// whatever the solver answers: an unknown answer only drops a literal.
//
// Two memos spare the solver. The cache of posts, keyed by (cube,
// transition, kept predicates, explicit values), is emptied when the
// predicates change. The memo of sliced queries (slice.go) is keyed by
// formulas: each query is cut to the conjuncts of cube and guard that share
// variables with the predicate, and its answer under that text stays valid
// whatever predicates are added later; abstractors share it (ShareMemo)
// across the runs of one insert.
//
// The solver is reached through the narrow Prover interface so tests can use
// a fake.
package predabs
