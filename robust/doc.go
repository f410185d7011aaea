// Package robust is fencer's static robustness analysis: it proves that
// every run of a program under TSO (resp. PSO, or one of the axiomatic
// models Arm, RISC-V and RMO: "Models with axioms" below) is equivalent to
// a run under SC, so that the program is correct under the model exactly
// when it is correct under SC. It works on the lowered automata of
// cs.System and never looks at values: it may report a cycle that no run
// follows, never miss one.
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
// cuts both kinds; `fence store;` (cs.StoreFence) cuts the write→write pairs it lies
// between (it keeps PSO's buffered writes in order) and not the
// write→read ones (Analysis.RobustKinds takes installed store fences). A
// fence of another kind is read as memmodel.ForBuffers reads it (with
// store→load order a full fence, else with store→store order a store
// fence, else nothing); Analysis.RobustFences takes a kind per site.
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
// and says so (Minimal false). Under a model with axioms the sites are
// found the same way, a fence at a site counting as a full one; then each
// site gets the cheapest barrier of the model (memmodel.Barriers, by Cost)
// that keeps the pair of kinds of every critical pair with a free path
// through the site (FenceSet.Kinds): MP under Arm gets dmb ishst
// (cs.StoreFence) between the writes and dmb ishld (cs.LoadFence) between
// the reads. A pair none of whose sites lies between its accesses on some
// path (two reads in one loop condition, as in Peterson's lock) cannot be
// cut by a fence: MinFences returns ErrUncuttable.
//
// # Models with axioms (weak.go)
//
// Arm, RISC-V and RMO (memmodel.Model.Axioms non-nil) have no buffers: a
// process's accesses leave program order unless the model's preserved
// program order, a barrier or a dependency keeps them. The graph and the
// critical cycles are the same; what changes is the relaxed kind and what
// cuts a path.
//
//   - A pair (a, b) in program order is of the relaxed kind when a and b
//     are of different variables and !m.Keeps(a, b), each access given as
//     its kind, its annotation (cs.Ann; an atomic step's accesses carry the
//     step's: a .cs atomic step is seq_cst, Acquire|Release, and keeps
//     everything around it; a relaxed one nothing) and whether it is in an
//     atomic step (Access.ModelAccess). Reads start relaxed pairs too
//     (read→read, read→write), so Analyze searches a cycle from every
//     access. Two accesses of one atomic step edge form a relaxed pair
//     only across a loop (two instances of the step): FreePath then needs
//     a path from the step back to itself.
//   - A path from a to b is cut when b is ordered after a along it by a
//     chain a = e0, e1, …, en = b of accesses of the path, each kept before
//     the next by Keeps or by a fence between them (of the program, or
//     installed at a site the path passes) whose kind keeps their pair of
//     kinds (cs.FenceKind.Keeps). A fence that keeps (kind a, kind b) is
//     the chain of one link; an access e with Keeps(a, e) and Keeps(e, b)
//     (x = 1; release z = 1; acquire r = y; under the RCsc models) one of
//     two. FreePath searches the product of the automaton and a summary of
//     the chains (per class of access: whether one is ordered after a, and
//     which pairs the fences since it keep). The weak models' Keeps looks
//     at the annotations only ([A|Q];po, po;[L], [L];po;[A] of
//     memmodel.Axioms hold whatever the variables and whatever lies
//     between), so the chain asks it of any two accesses. Dependencies
//     (Op.Addr, data, control) and the rules of ppo beyond Keeps are not
//     used: sound, they only leave more pairs relaxed.
//
// Why no relaxed critical pair means robust, under these models. Take an
// execution the model allows (events, po, rf, co, fr; an atomic step one
// event that reads and writes all its accesses) and suppose hb = po ∪ rf ∪
// co ∪ fr has a cycle; take a closed walk of hb with the fewest edges, as
// above.
//
//  1. All three models are coherent (po-loc ∪ rf ∪ co ∪ fr acyclic), so as
//     in step 1 above every com edge inside one process goes forward in po
//     and a maximal run of the walk in one process is one po segment.
//  2. As in step 2, no process has two segments.
//  3. No segment goes from s to a later t of the same variable, by
//     coherence: W→W: the edge into s is co or fr, and s co t, so it leads
//     to t; R→W: s reads a write co-before t (s fr t), the one the rf edge
//     into s comes from, which is then co-before t; W→R: the edge out of t
//     is fr to a write co-after the one t reads, which is s or co-after s,
//     so s co it; R→R: if t fr w then s fr w (s reads a write co-before or
//     equal to the one t reads). Each time one com edge replaces the
//     segment and one of its com edges: a shorter walk. A walk entering an
//     atomic step of one variable at its write and leaving at its read
//     (backwards in the two events of a read-modify-write) is shortened
//     likewise: the read reads the write co-just-before the step's write
//     (atomicity), so the step's write is co-before the write its fr edge
//     leads to.
//  4. So the walk visits distinct processes, each segment is of two
//     different variables (or one event), and the com edges join
//     different processes: they are rfe, coe and fre. If every segment is
//     preserved, by Keeps, by a fence of a kind that keeps it on the path
//     the execution took, or by a chain of those, each segment is a path
//     of ppo ∪ fences, and the walk a cycle of ppo ∪ fences ∪ rfe ∪ coe ∪
//     fre, which the order axiom of all three forbids (memmodel.Axioms:
//     Arm's external ob, RVWMO's main axiom; writes are other-multi-copy
//     atomic, so rfi is not needed in the cycle, and it is not in it).
//
// A segment that is not preserved is a relaxed pair whose path in the
// execution is free; the walk maps to a critical cycle with it as the
// relaxed visit. Hence: no relaxed critical pair ⇒ every execution the
// model allows is SC-equivalent (the same events, each read reading the
// same write) ⇒ every outcome (the paths the processes take, the values
// their reads return) is an SC outcome. A multi-variable atomic step has
// no counterpart in the hardware; the argument takes the .cs semantics,
// one indivisible event. There is no explicit checker for these models
// yet: the differential test (diff_test.go) covers TSO and PSO only.
//
// The accesses of an atomic step order what memmodel.RMWAnn says under
// the model: its read the acquire, its write the release, and both both
// for one atomic instruction on riscv and rmo, or an acquire-release one
// on Arm (a from-read edge out of its read is then a coherence edge out
// of its write, which atomicity puts right after what the read reads);
// an exclusive pair (cs.Pair) keeps them apart, and a step that writes
// nothing has no release.
package robust
