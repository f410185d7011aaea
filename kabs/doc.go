// Package kabs holds the store-buffer semantics of fencer: the memory models
// SC, TSO and PSO with real, unbounded buffers (concrete.go), an explicit-state
// checker over them that is the oracle of the abstract engine (explore.go),
// and the k-abstraction of the buffers of the SAS 2012 paper: control states
// (pc, B_x, S) and, for each operation and rule, the symbolic data transition
// over X ∪ X' (abstract.go).
//
// A store fence ("fence store;", cs.Op.Store) does not wait. Under SC and
// TSO it changes nothing; under PSO a write after it reaches memory only
// when every write of its process before it has: buffered writes carry an
// epoch (Entry.Epoch, Ctl.E), lowered by each store fence, and only writes
// of the lowest buffered epoch of their process may be flushed. The
// abstraction orders its exact writes so and lets the writes of its
// abstract tail go in any order (an over-approximation: a larger k, or the
// exact semantics, rules out what it adds).
//
// The explicit checker is exact on loop-free programs without nondeterministic
// values: it then returns either a shortest trace to a bad state or Safe. With
// loops it is bounded by MaxStates and MaxDepth; a nondeterministic value
// (`r = *`, `= *`) is drawn from a finite set of interesting values (the
// constants of the program, their neighbours and 0), so a search that met one
// can only say "no bug within bounds", never Safe.
package kabs
