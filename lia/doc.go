// Package lia decides, in pure Go, the satisfiability queries of the
// predicate abstraction whose atoms are linear integer constraints under
// and/or/not, and hands every other query (products of variables,
// division, a search over budget) to a fallback prover, Z3.
//
// Why: the abstract posts of programs with unbounded counters (Bakery, the
// ticket lock) ask hundreds of thousands of small questions. Through cgo,
// Z3 answers about ten thousand a second, term conversion included, and
// those calls were two thirds of Bakery's run time. Their atoms are
// comparisons of a few variables (interpolants give t0 + t1 > n0 + n1 - 1
// as well as n < t), and the questions come in runs over one context: the
// cube of a state and the guard of a step, then one predicate after the
// other, negated and not.
//
// # The decision procedure
//
// A formula is put in negation normal form; != becomes a disjunction of <
// and >, == two inequalities, an integer if-then-else inside a comparison
// is split into its two cases, and each comparison is normalised
// (expr.Linearize) to Σ a·x ≤ b. A depth-first search over the disjunctions
// collects conjunctions of constraints and decides each by Fourier–Motzkin
// elimination with integer tightening (fm.go):
//
//   - Unsat is exact: every derived constraint is a positive combination of
//     two others divided by the gcd of its coefficients with the bound
//     rounded down, which is implied over the integers.
//   - Sat needs a model: back-substitution gives each variable an integer
//     between the bounds that the variables chosen before leave it. When an
//     interval holds no integer (the rational shadow is not the integer
//     one), a number would overflow, or the constraints multiply past a
//     bound, the answer is Unknown and the query goes to the fallback.
//
// The model of the literals is tried on the disjunctions before any case
// split; a split is made on a disjunction the model violates. A model is
// evaluated on the original formulas (expr.Holds) before Sat is answered:
// a model that fails is counted in Stats.Rejected (a bug) and the query
// goes to the fallback.
//
// # Scopes
//
// Solver implements the incremental Push/Pop/Assert/Check interface of
// predabs.Prover over a stack of frames. Each frame remembers a model of
// itself and the frames below, once one is found. A query in a new frame
// is first answered by evaluating the frame's formulas under the model of
// the frames below (most "does the context imply p" questions are settled
// so); failing that, only the conjuncts connected to the frame's variables
// are searched, the rest being satisfied by the model below on other
// variables. The fallback prover mirrors a prefix of the stack and is
// brought up to date lazily, only when a query must go there, so a run
// whose queries are all decided here builds no Z3 term for them.
package lia
