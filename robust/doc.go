// Package robust is fencer's static robustness analysis: it proves that
// every run of a program under TSO (resp. PSO) is equivalent to a run under
// SC, so that the program is correct under the model exactly when it is
// correct under SC. It works on the lowered automata of cs.System and never
// looks at values: it may report a cycle that no run follows, never miss
// one.
//
// # The graph
//
// The nodes are the accesses (graph.go): every OpRead and OpWrite edge, and
// every read and write inside the body of an OpAtomic edge (cas, fetch_add,
// swap and atomic blocks; an atomic read-modify-write is a read and a
// write). Template instances are separate processes. Two kinds of relation:
//
//   - program order: b after a (PoBefore) when both are in one process and
//     b's edge starts at a location reachable from the end of a's edge.
//     Through a loop b may be a itself: program order relates dynamic
//     instances, and an instance of b can follow an instance of a exactly
//     when such a path exists. Two accesses of one atomic step are related
//     both ways: the step is one indivisible event of the run (below), so a
//     cycle may enter it through one access and leave it through another,
//     whatever their order in the body (atomic { r = x; y = r + 1; } entered
//     by a conflict on y and left by one on x is a real SB-like cycle).
//   - conflict: a and b in different processes, same shared variable, at
//     least one a write. Conflicts are symmetric.
//
// A pair (a, b) in program order is of the relaxed kind of the model when a
// is a buffered write (outside atomic) and b, outside atomic, is a read of
// another variable (TSO), or a read or a buffered write of another variable
// (PSO). It is relaxed when, moreover, some path from a to b in the
// automaton passes no fence, no atomic step, and no write followed by an
// installed fence (Graph.FreePath): "cut" must hold on every path. `fence;`
// cuts both kinds; the language's `fence store;` (PSO W→W only) is parsed
// and lowered, and blocks counts it as cutting nothing (sound: more cycles
// stay critical).
//
// # Critical cycles (cycle.go)
//
// A critical cycle is a cyclic sequence of visits to pairwise distinct
// processes T1..Tm (m ≥ 2); the visit to Ti is a pair (s_i, t_i) of its
// accesses with s_i = t_i or t_i after s_i in program order; t_i conflicts
// with s_{i+1} (indices mod m); and the visit to T1 is a pair of the relaxed
// kind. A pair is critical when it is the T1 visit of some critical cycle.
// Analyze finds them all: for each write w and each b of the relaxed kind
// after it, a depth-first search over states (access, set of visited
// processes) looks for a way back from b to w. Whether a pair lies on a
// critical cycle does not depend on fences (a fence is not an access);
// whether it is relaxed does. The program is robust under the fences F when
// no critical pair is relaxed with F installed (Analysis.Robust).
//
// # Why no relaxed critical pair means robust
//
// Take a run under the model and its events: the reads and writes, an
// atomic step being one event that reads and writes all its accesses, with
// program order po (per process, total), reads-from rf, the coherence order
// co (the order in which writes to one variable reach memory) and from-read
// fr (r fr w when r reads a write co-before w). By Shasha and Snir, the run
// is equivalent to an SC run (the same events, each read reading the same
// write) iff hb = po ∪ rf ∪ co ∪ fr is acyclic. Suppose it is not, and take
// a closed walk of hb with the fewest edges, after merging consecutive po
// edges (po is transitive). Then:
//
//  1. Every com edge (rf, co, fr) between two events of one process goes
//     forward in po: TSO and PSO are coherent per variable (uniproc), so a
//     backward one would make a cycle of po-loc ∪ com. A maximal run of
//     consecutive events of the walk in one process is therefore one po
//     segment from its first event to its last.
//  2. No process has two such segments: if [e1..e2] and [e3..e4] are two of
//     them, po is total on the process, so e1 ≤po e4 (and the walk
//     e1 →po e4 → ... → e1 drops the part from e2 to e3) or e3 <po e2 (and
//     e3 →po e2 → ... → e3 drops the rest): a shorter closed walk.
//  3. No segment is a buffered write W and then a read R, outside atomic
//     steps, of the same variable: R leaves by fr to a write w” of another
//     process, and R reads W or a write co-after W (coherence), so W co w”:
//     one co edge replaces two. (A segment that ends in an atomic step is
//     ordered anyway: the step waits for an empty buffer.)
//  4. So the walk visits distinct processes, joined by com edges between
//     different processes, which are static conflicts. If no segment were
//     a buffered write then a read of another variable with no fence or
//     atomic step between (TSO), resp. also a buffered write then a write of
//     another variable (PSO), every segment would be in the model's
//     preserved program order (ppo, or ordered by a fence or a locked step:
//     an atomic write goes to memory at once, an atomic read waits for an
//     empty buffer), and the walk would be a cycle of
//     ppo ∪ fence ∪ rfe ∪ co ∪ fr, which the model forbids (the axiomatic
//     x86-TSO of Owens, Sarkar and Sewell; PSO likewise with W→W dropped
//     from ppo).
//
// Mapping each event to its access and each segment to the static pair of
// its ends gives a critical cycle whose relaxed segment is relaxed in the
// static sense (the run took a fence-free path). Hence: no relaxed critical
// pair ⇒ every run is SC-equivalent ⇒ every (control locations, local
// values) a run under the model reaches is reached by an SC run (the prefix
// of a run, buffers flushed, is a run; its SC equivalent executes the same
// operations reading the same values). The robust_test differential suite
// checks exactly this last statement against the explicit checker.
//
// # The over-approximation
//
// Exactly what is checked, and nothing else: (1) the visits of the cycle are
// to distinct processes; (2) one visit is a pair of the relaxed kind, in
// program order, with a fence-free path; (3) consecutive visits conflict.
// Not used, though sound to add: the values (guards are ignored, every path
// of the automaton is assumed feasible), the order constraints of more
// than one relaxed pair on a cycle, and the "at most three accesses per
// variable" rule of Musketeer's critical cycles. A search that exceeds
// MaxSearchStates assumes the pair critical.
//
// # Fences (fences.go)
//
// MinFences returns a minimum set of fence sites (System.Sites: a fence
// right after a write statement) that cuts every critical pair: every path
// from the pair's write to its second access must pass a fenced write (the
// pair's own write included). Since the critical pairs do not change when
// fences are added, a set is sufficient iff it cuts them all; the search is
// iterative deepening, branching on the sites of a shortest fence-free path
// of a pair still relaxed. Past MaxFenceNodes it falls back to a greedy set
// and says so (Minimal false).
package robust
