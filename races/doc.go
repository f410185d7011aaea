// Package races finds the data races of a concurrent program in the sense
// of C11: two conflicting accesses (the same location, one of them a
// write, at least one of them plain, that is neither atomic nor
// volatile) by different threads, neither of which happens before the
// other.
//
// # Method
//
// By DRF-SC, a program has a data race if and only if some sequentially
// consistent run of it has one, so Find explores the SC runs of a
// cs.System (memmodel.Concrete under SC) breadth first and carries in
// each state what the happens-before relation of its run says about the
// accesses that matter. Happens-before is (po ∪ sw)+, with
// synchronises-with from
//
//   - a release write (or a read-modify-write with release, an unlock)
//     to an acquire read (or an acquire read-modify-write, a lock) that
//     reads it, or reads a later read-modify-write of the same location
//     (a release sequence, as C20 defines it);
//   - a release fence before an atomic write to an acquire read of it,
//     and an atomic read before an acquire fence from a release write
//     (or fence), as C11 29.8;
//   - the steps that start and join threads (cfront lowers them to
//     locked steps on flags, which count as seq_cst ones).
//
// seq_cst accesses and fences count as acquire and release. The order of
// every access and fence comes from an Orders function of the front end
// (cfront: the C11 memory_order of each access, and whether it is
// plain).
//
// Instead of vector clocks, whose values grow with the run, a state
// keeps a finite summary in the style of FastTrack: for each tracked
// variable x and each process u, the last plain write, the last atomic
// write, the last plain read and the last atomic read of x by u (an
// "event"), and for each holder — a process's current point, the clock
// a process's last release fence saved, the acquire a relaxed read of a
// process keeps for its next acquire fence, and the release clock of
// each atomic location — the set of events that happen before it. A new
// access by process t races with a tracked event of another process
// that its point does not know, when the two conflict and one is plain.
// Tracking only the last event of each kind is complete: if an earlier
// event e of u does not happen before the access, neither does the
// later one of the same kind (e happens before it by program order), and
// it conflicts the same way. So a race on x in some explored run is
// found on x (maybe with a later access of the same thread than the
// first one that races).
//
// Only variables that can race are tracked: those with a plain access,
// accessed by two processes, written by one. A program with none is not
// explored at all.
//
// # Bounds
//
// A race found is real: the run shown reaches both accesses, and nothing
// orders them. "No race found" is a proof only when Result.Complete is
// true: the whole SC state space was explored. The search stops at
// Limits.MaxStates states, and a nondeterministic value (a havoc, an
// initial value "= *") is tried from a guessed set, as memmodel's
// explicit search does; then Result.Why says so.
package races
