// Package smallgen writes small finite concurrent programs of 3 and 4
// processes, of the kind that made fencer answer unknown at its state
// limit (issue 25): a ring of flags (each process sets its own flag and
// reads its neighbour's before a critical point), with a prefix drawn from
// bounded counters, fetch_add, cas and swap on shared cells, plain writes
// and reads of other shared variables, and the property that all processes
// (forbidden) or any two (mutex) are at the critical point at once.
//
// The programs are loop-free, so their state spaces are finite under SC,
// TSO and PSO, and package refsem (an independent interpreter) decides
// them exactly: its minimum fence count is the reference for fencer's.
// The benchmark in this package (BenchmarkUnknowns, not a test: it runs
// the fencer binary on each program and takes minutes) counts how often
// fencer answers unknown where the reference answers, and any answer that
// disagrees.
package smallgen
