// Package kabs is the k-abstraction of the store buffers of the SAS 2012
// paper: control states (pc, B_x, S) and, for each operation and rule, the
// symbolic data transition over X ∪ X' (abstract.go). It is parameterised by
// a memory model of package memmodel, through its buffer layout: none
// (SC, k is 0), one buffer per process (TSO), one per process and variable
// (PSO). The exact semantics and the explicit checker are memmodel's; k =
// Unbounded gives the exact semantics as a kabs transition system (the
// engine judges counterexamples with it).
//
// A store fence ("fence store;", cs.StoreFence) does not wait. Under SC and
// TSO it changes nothing; under PSO a write after it reaches memory only
// when every write of its process before it has: buffered writes carry an
// epoch (memmodel.Entry.Epoch, Ctl.E), lowered by each store fence, and
// only writes of the lowest buffered epoch of their process may be flushed.
// The abstraction orders its exact writes so and lets the writes of its
// abstract tail go in any order (an over-approximation: a larger k, or the
// exact semantics, rules out what it adds).
//
// A step of process p reads and changes only p's part of a control state
// (PC[p], B[p], S[p], E[p]): Successors is the concatenation over the
// processes of ProcSuccessors (procsucc.go), which explorers memoise per
// process part (collapse compression).
//
// compat.go keeps the old names of the memory model and the explicit
// checker (kabs.Model, kabs.SC, kabs.NewConcrete, ...) as aliases of
// memmodel's for the command's report files until they move; new code uses
// memmodel.
package kabs
