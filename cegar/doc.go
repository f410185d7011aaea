// Package cegar is the loop of the SAS 2012 method: BFS reachability over
// the combined abstraction (pc, B_x, S, cube) with subsumption, and the
// classification of each counterexample (paper §7):
//
//   - feasible under the exact semantics of the model (SC, or TSO with real
//     buffers): a real trace. Under SC it is an SC bug; under TSO it yields
//     a candidate set of fence sites and the minimum hitting set of all
//     candidate sets found so far is installed (fence case);
//   - else feasible under the k-abstraction: k is raised to the least value
//     under which the trace is infeasible (k case);
//   - else: predicates from the atoms of sequence interpolants of the path
//     formula, with the same shapes over buffer slots and last-write values
//     (the paper's parameterised predicates) (predicate case).
//
// A counterexample is a sequence of abstract steps; its TSO feasibility is
// decided for exactly that schedule: the process operations in trace order
// and each flush at the point the trace flushes, which under the abstraction
// always moves the oldest write of the buffer. A real trace is replayed by
// the explicit-state checker before it is used or shown.
//
// Refinement must make progress: a counterexample that comes back after a
// predicate refinement first makes the engine add whole interpolants as
// predicates and re-evaluate every predicate at every step; if it comes back
// again the verdict is unknown.
package cegar
