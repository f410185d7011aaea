// Package memmodel holds the exact semantics of fencer's memory models:
// what a model is (Model: SC, TSO and PSO, found by name through Parse), the
// semantics of a system under it with real, unbounded store buffers and
// concrete values (Concrete, concrete.go), and the explicit-state checker
// over that semantics, the oracle of the abstract engine (Explore,
// explore.go; ReachSet, reachset.go).
//
// # The models
//
// A Model answers the questions the rest of fencer asks of a memory model,
// and nothing else compares models:
//
//   - its buffer layout (Layout): none (SC), one FIFO per process (TSO),
//     one FIFO per process and variable (PSO). The layout says where a
//     write waits, which buffered write a read of the process is served by
//     (its newest to the variable), and which writes may reach memory
//     next (the oldest of a buffer). Concrete and the k-abstraction of
//     package kabs are written against the layout;
//   - what each fence kind waits for (Orders): a full fence waits for the
//     process's buffers to be empty; a store fence ("fence store;") does
//     not wait, and orders the writes of its process before it before
//     those after it (Entry.Epoch: a write reaches memory only when no
//     write of its process with a lower epoch is buffered), which only
//     matters under PSO. Package fences asks it for its candidate rule;
//   - the relaxed program-order edges (Relaxes): TSO lets a read of
//     another variable pass a buffered write, PSO also a write. Package
//     robust builds its critical cycles from them.
//
// # Where a new model goes
//
// A store-buffer model is one more implementation of Model in model.go
// and one more entry in the registry (models); its name is then known to
// the command line, the expectation lines and the reports. A model whose
// buffers are laid out as one of the existing layouts (for example a
// per-variable FIFO where only store–store fences order anything) needs
// nothing else: Concrete, kabs and the engine follow the layout. A new
// layout is a new Layout value with its cases in Concrete (emptyBufs,
// read, flushable, flush, exec) and in kabs (its abstraction of those
// buffers: control state, successors and slot names).
//
// # The explicit checker
//
// The explicit checker is exact on loop-free programs without
// nondeterministic values: it then returns either a shortest trace to a
// bad state or Safe. With loops it is bounded by MaxStates and MaxDepth; a
// nondeterministic value (`r = *`, `= *`) is drawn from a finite set of
// interesting values (the constants of the program, their neighbours and
// 0), so a search that met one can only say "no bug within bounds", never
// Safe.
package memmodel
