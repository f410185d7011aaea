// Package execgraph is the bounded explorer of execution graphs for the
// axiomatic memory models (memmodel.ARM, RISCV, RMO): it decides whether
// an execution that the model allows reaches a bad state of a cs.System,
// and shows it (Witness).
//
// # Runs (runs.go)
//
// Each process's paths from its initial location are enumerated once
// (New), every prefix kept: a read takes each value some run writes to
// its variable (or an initial one), r = * each interesting value; a
// location is passed at most Options.Unroll times (Result.Bounded when a
// path was cut). The values grow until no run writes a new one, or for as
// many rounds as an execution has writes: a longer chain would need
// values out of thin air, which the models forbid. Dependencies are
// tracked by taint: a local carries the reads its value came from, a
// branch adds them to what follows (Event.Addr, Data, Ctrl).
//
// The spin rule: a path that comes back to a location with the same local
// values, having written nothing since it was last there, is not followed
// further. Dropping the events of such an iteration (reads and fences) from
// any execution leaves a run of the program that reaches the same state,
// and an execution whose order relations are a subset of the original's,
// so the model allows it too.
//
// # Executions (check.go)
//
// A bad state is a set of processes at given locations (an assert's error
// location, a forbidden or mutex combination); the others may be
// anywhere, and only prefixes that end with a write matter for them. For
// each choice of run prefixes, co is enumerated as interleavings of each
// process's writes per variable and rf among the writes of the value
// read, coherence and atomicity checked as they are chosen; the model's
// order axiom (memmodel.Axioms) is checked on their combinations. SC is
// checked first: a bad execution SC allows is an SC bug, which no change
// can forbid.
//
// Changes (fences at sites, raised accesses) change no run, only the
// order relations, so one Explorer answers Check for every set of
// changes that package weakfix tries. docs/models.md says what the
// verdicts mean.
package execgraph
