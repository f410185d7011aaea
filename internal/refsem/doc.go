// Package refsem is a reference semantics of the .cs language, written from
// LANGUAGE.md alone, for tests only: the oracle of the differential suite.
//
// It takes the syntax tree that cs.ParseProgram returns and nothing else
// from the engine: no lowering, no cs.System, no automata, no kabs, predabs,
// smt or cegar. Templates, for loops, constants and names are expanded and
// resolved here, and the program is run directly with concrete values and
// real FIFO store buffers under SC, TSO and PSO. Every reachable state is
// explored (breadth first, with a visited set and a state limit), so on
// finite-state programs the verdict is exact.
//
// The step rules (see LANGUAGE.md):
//
//   - each occurrence of a shared variable in an expression is one read step,
//     left to right, before the statement's own effect, which is one more
//     step (a write, a local assignment, the test of assume/assert/if/while);
//   - under TSO a write goes to the process's FIFO buffer, under PSO to the
//     FIFO of the process and variable, under SC straight to memory; a read
//     sees the process's newest buffered write to the variable, else memory;
//     the oldest buffered write (per process, or per process and variable)
//     reaches memory at any time;
//   - fence waits for empty buffers; atomic blocks and cas/fetch_add/swap
//     wait for empty buffers, then run as one step on memory, after their
//     arguments have been read;
//   - skip, an empty statement and goto are one step each, so that every
//     statement has a control point of its own: a label names the point just
//     before its statement and is reached only by the paths that execute it;
//   - a failing assert is bad; forbidden and mutex name combinations of
//     label points that are bad.
//
// A fence statement orders what its kind says (cs.FenceKind.Orders); the
// store-buffer runs know two kinds: a fence with store->load order waits
// for empty buffers, else one with store->store order is a store fence,
// else it does nothing. They ignore acquire and release annotations (a
// release write is an error under PSO).
//
// The axiomatic models arm, riscv and rmo are in weak.go and weakexec.go
// (RunWeak, MinFullFencesWeak): executions enumerated by brute force and
// checked against the axioms of aarch64.cat, riscv.cat and fencer's RMO;
// sc, tso and pso are there as axioms too, checked against Run.
//
// "r = *", "x = *" and "shared y = *" choose from a finite set of values
// (every integer constant of the program, each plus and minus one, and 0, 1
// and -1), so on such programs a "safe" answer is bounded, not exact:
// Result.Complete is then false.
package refsem
