// Package statestore stores the states of an explicit exploration
// compactly: fixed-width vectors of uint32 slots, each state with a 32-bit
// index and the 32-bit index of the state it was first reached from, so
// that a trace is rebuilt by following parents (Trace). It knows nothing of
// programs: an explorer encodes its state as a vector (control locations,
// values, buffer contents, all as small integers) and chooses how to cut
// it into components.
//
// # Collapse compression
//
// Collapse is SPIN's collapse compression: the vector is cut into
// components, typically one per process (its pc, locals and store buffer)
// and one for the shared memory; each component is interned in a table of
// its own, and a state is the tuple of its component indices, interned in
// a root table. A step changes one process's component, a flush a
// process's and the memory's, so the component tables stay small (a few
// hundred entries on the benchmark's synthetic locks) and a state costs
// its tuple, its root slot and its parent.
//
// LTSmin's tree compression (the vector folded pairwise into a binary
// tree of interned pairs, a state the index of its root) was built and
// measured against it on the same benchmark and dropped: about 20% fewer
// bytes per state but four times the time per insert, since an insert
// interns width-1 pairs (LTSmin re-hashes only the path of a changed slot,
// which needs the parent's tree). The commit that removed it has the
// numbers.
//
// Every table is open addressing with linear probing over 64-bit words
// (the high half of the record's 64-bit hash as a tag, the record's index
// plus one), with the records in segmented arenas of uint32 words that
// never move (segment k holds 1024·2^k records): no Go allocation per
// state, no string key, no pointer for the garbage collector to scan.
//
// # Contract
//
// One goroutine, the writer, calls Insert and Lookup (the explorer's
// storing goroutine). Any goroutine may call Vector and Parent for an index
// the writer handed to it through a synchronising operation (a channel
// send, a mutex): those records are written once and never move, so the
// readers need no lock (TestConcurrentReaders under -race). Bytes counts
// what the store holds, as allocated.
//
// # How the explorers use it
//
// An explorer keeps, beside a Store, its own per-state arrays indexed by
// the store's index (a BFS depth, the step that reached the state, a
// predicate cube for an abstract state: cubes are not part of the vector,
// since subsumption is not equality). Per successor it encodes the vector
// into a reused []uint32 (values through Values: small ones as they are,
// large ones interned) and calls Insert(vec, parent); a fresh index goes on
// the queue, which can then be the numbering itself. It decodes a state to
// expand with Vector(buf[:0], idx).
//
//   - The explicit checker (memmodel.Explore, ReachSet): the shared memory
//     and, per process, its location, locals and buffers are the
//     components; a buffer is a list of cells (write, next cell) interned
//     in a Table, its slot the index of its oldest cell.
//
// The abstract explorer (cegar/stateset.go) keeps its own store, a
// collapse in two components of its own: a state is its control node's id
// (the explorer interns its control states, whose keys vary in length with
// the buffers) and the id of its value vector (interned as varints), and
// its node holds both, its parent, step and depth. An earlier version put
// its keys (the id and the values as varints) in a Collapse here (the id
// as a one-slot component, the shared values and each process's values as
// the others): that cost a third more instructions on the benchmark's
// filter lock with three processes (cachegrind), for a tenth fewer bytes
// per state on Dijkstra's; the commits that tried it have the numbers.
// What an abstract state is beside its key (its cube, compared by
// subsumption) stays beside the store, indexed by the store's index, as
// the explicit checker's depths and steps do.
//
// cegar's memory limit (--max-memory) compares the live heap of the whole
// exploration, of which the store is a small part.
package statestore
