// Package weakfix finds the cheapest changes that make a program correct
// under an axiomatic memory model (memmodel.ARM, RISCV, RMO): barriers of
// the model's kinds at fence sites, and plain accesses raised to acquire
// or release where the model offers it (memmodel.Model.RaiseCost).
//
// # The loop
//
// It is the CEGAR loop of the store-buffer engine with executions for
// traces. The explorer (package execgraph) enumerates the runs of the
// program once, within the unroll bound; a change adds no run, it only
// forbids executions. Starting from no change:
//
//  1. look for a bad execution that the model allows with the changes so
//     far (execgraph.Explorer.Check);
//  2. none: the changes are the answer, correct within the bound (exactly
//     when no run was cut);
//  3. an SC execution: no change can forbid it (every change only adds
//     order inside program order), the program is wrong under SC;
//  4. else remember the execution (without the changes: the bare runs)
//     and choose again, from nothing, a set of changes that makes the
//     model forbid every execution remembered: the fewest changes, then
//     the cheapest (the sum of the barriers' costs and raises'), and go
//     to 1.
//
// A set chosen in 4 is a smallest one that forbids the executions found so
// far, and every correct set must forbid them too, so the size is a lower
// bound; when step 2 ends the loop, the set is verified and of minimum size
// among the sets that are correct within the bound.
//
// # The choice
//
// The candidates are the fence sites a remembered execution passes
// between two accesses of one process, and, where raising is offered, its
// plain accesses. The search goes by size; for each set of candidates it
// first tries the strongest change at each (a full barrier, or the raise):
// adding order never allows an execution, so if those do not forbid every
// remembered execution no weaker kinds do. Then it tries every assignment of
// the offered kinds and keeps the cheapest.
//
// # Why each change is needed
//
// The set is of minimum size, so without any one of its changes some
// remembered execution is allowed again: Result.Needed gives it, a bad
// execution within the bound.
package weakfix
