// Package cegar is the loop of the SAS 2012 method: BFS reachability over
// the combined abstraction with subsumption, and the classification of each
// counterexample (paper §7).
//
// # The abstract state is a product of small domains
//
// A state of the exploration (reach.go) is (control, values, cube):
//
//   - control: the kabs control state (pc, B_x, S). Its steps are
//     computed once per process component (a process's pc, buffer, tail
//     and epochs: each step of a process reads and changes only those);
//     its key, whether it is bad, its relevance mask and its explicitness
//     once per control state (ctlNode), however many states share it;
//   - values: the explicit-value domain of package domains, a vector over
//     the variables whose values a static analysis proved to lie in a
//     finite set, and the deterministic ones it could not bound, whose
//     candidate domains each exploration checks (dynamic variables: reach
//     explores again until no value written into a buffer tail falls
//     outside its domain); shared, local, and the buffer slots and
//     last-write values that hold their writes. Its transfer is evaluation
//     (domains.Step): no solver;
//   - cube: predicate abstraction (predabs) over the predicates that are
//     relevant at the control state and mention a variable without an
//     explicit value there. Its transfer is predabs.PostEnv, with the
//     explicit values substituted into the cube, the guard, the right-hand
//     sides and the predicates. A predicate whose variables are all
//     explicit is not kept: the values decide it. Its satisfiability
//     queries go to package lia, which decides linear integer ones in Go
//     and sends the rest to Z3 (lia/doc.go).
//
// A step goes to the solver only when its guard mentions an unbounded
// variable or it assigns a variable of a kept predicate; a program with no
// unbounded variable is explored without an SMT query. The explicit values
// are the predicates x = c evaluated exactly, so the abstraction is at least
// as precise as before and the classification below is unchanged: an
// abstract counterexample is still a sequence of kabs steps, judged by its
// path formulas; when every variable of the system is finite the same
// judgement is made without a solver (explicit.go). Two states are the same
// when their control states and values are; among those, a cube implied by
// a stored one is dropped (subsumption).
//
// # Partial-order reduction
//
// When every variable of the system is finite (domains.Info.AllFinite),
// the exploration (reach.go, por.go) expands a state by an ample set when
// it can: the enabled steps of one process p whose edges out of its
// location are all local (kabs.Abs.Local: assignments and assumes over p's
// locals, a fence with p's buffer empty, a write that goes to the exact
// part of p's buffer, a read of a variable no other process writes) and invisible (neither the location they leave nor
// one they enter is part of a bad state: the assert sink, or a location of
// a forbidden or mutex declaration, kabs.Visibility) and none of which is
// a back edge of p's local subgraph (below). The conditions of an ample
// set (Clarke, Grumberg, Peled, Model Checking, ch. 10) hold:
//
//   - C0: the set is used only when one of its steps is enabled.
//   - C1: every step outside the set is a step of another process or a
//     flush of p's buffer. Neither touches p's locals or p's location; a
//     flush only shrinks p's buffer, so a write that goes to the exact part
//     still does, with the same result in either order (it fills the newest
//     slot and lw, the flush empties the oldest: kabs/por.go); no flush of
//     p can precede a fence of p since p's buffer is empty; a read of a
//     variable no other process writes gives p's last write to it (or its
//     initial value) before and after any of them; the enabledness
//     of p's edges depends on p's locals alone. So no step dependent on the
//     set can run before a step of the set, on any path.
//   - C2: the set is used only when all its steps are invisible.
//   - C3 (cycle proviso, static): every cycle of the reduced graph
//     contains a fully expanded state. Take the subgraph of p's
//     control-flow graph made of the edges that can ever be local
//     (assignments, assumes, havocs, fences, writes: not reads, not atomic
//     blocks) and a depth-first search of it; its back edges (into a
//     location on the search stack) are never in an ample set (por.go). A
//     cycle of the reduced graph through states that are not fully
//     expanded takes ample steps only, i.e. local steps; each process that
//     moves along it comes back to its location, so its steps form a closed
//     walk of the local subgraph, which contains a cycle of it, and every
//     cycle contains a back edge of the search (the edge into the first of
//     its locations the search reached): a contradiction. A spin loop
//     through a read needs no fully expanded state of its own. (An earlier
//     dynamic proviso, "every state the set produces is new or at the next
//     BFS depth", expanded about a third of the states fully on the lock
//     benchmarks; the static one does not depend on the order of the
//     search and gave fewer states on every benchmark measured.)
//     Refined by values: a back edge is kept out of an ample set only
//     where it closes a cycle of p's local steps once the values of p's
//     static locals are known (a node of p's local skeleton,
//     domains.LocalSkeleton, with an arc by the back edge inside a
//     strongly connected component of the local arcs); a restart flag
//     (while (again == 1) { again = 0; ... }) closes a cycle of the graph
//     but not of the steps. por.go has the argument; on the 4-process
//     Burns lock written with loops and a restart flag it took the
//     stored states from 3,618,372 to 799,449.
//
// States passed through: a state that the reduced graph expands by an
// ample set with exactly one successor (most of them: a local step is
// deterministic, and of the two assumes of a branch one is enabled) is not
// stored; the exploration follows the ample steps from it until a state
// with zero, several or all successors, or a bad one, and stores that
// (reach.go, forward). The choice of the ample set is a function of the
// state (the first candidate with an enabled step, and the proviso above is
// static), so the graph explored is the reduced graph with those states
// contracted, and a counterexample is rebuilt by replaying them. States are
// expanded in the order of their depth, those passed through counted, so
// the search order is the breadth-first one of the reduced graph. On
// dijkstra_3 with its fence, 3,267,622 stored states become 948,894.
//
// Within a depth the states are expanded grouped by control state, the
// groups in the order of their first state (levelorder.go): a worker
// makes a control state's steps and resolves their targets once for the
// states of a group, and its nodes and components stay in the caches.
// The states stored do not depend on that order (every state of the
// reduced graph is stored, and a state's sleep set is the intersection
// over its arrivals); which arrival stores a state first, and so its
// parent and depth, does, and with them the counts of states passed
// through and of re-expansions, and which counterexample an exploration
// that finds one finds first. The order is the storing goroutine's
// alone, so neither depends on the number of workers.
//
// Lean passes (lean.go): nearly every state passed through is reached by
// a step of some process p and left by p's next local step, p's
// candidate being the first there (and allowed, when conditional). Such
// a state differs from the one before only in p's component, so forward
// does not make it in full (the steps of every process, the ample sets,
// the targets resolved for all): it knows that p's candidate comes first
// from the lengths of the other processes' candidates, which have not
// changed, and resolves only that candidate's targets, by their profile
// parts. Where that does not hold the state is made in full as before;
// the steps taken, the states stored and every count are the same
// (TestLeanPasses compares them). When the candidate's steps are plain
// (domains.Step.InPlace: no order view, tail or value to choose), their
// guards alone decide which one is enabled, and that one is applied to
// the values themselves, not to a copy.
//
// With C0–C3 every bad state reachable in the abstraction is reachable in
// the reduced graph (reachability of a set of control locations is a
// stutter-invariant property over the location propositions). The
// abstraction here is the control state with explicit values: each step
// is evaluation, so "independent" means commuting exactly. With a
// predicate cube the reduction is off: the cartesian abstract post of a
// step reads every literal of the cube, so two steps of different
// processes need not commute in the abstraction even when they do in the
// program.
//
// What this keeps of the method:
//
//   - Every counterexample is still a path of the k-abstraction, so its
//     classification (real, k, predicates) is unchanged: a real one is a
//     real trace, replayed by the explicit checker.
//   - Minimality of the fences. Each real counterexample yields the
//     candidate set of the sites it passes with a non-empty buffer; any
//     fence set that blocks that trace must contain one of them, so every
//     correct fence set hits every candidate set whichever traces the
//     reduced search happens to find, and the minimum hitting set is a
//     lower bound. The loop ends when the reduced exploration with that
//     set installed finds no bad state, which by the argument above means
//     the abstraction (and so the program) reaches none: the set is
//     correct, hence a minimum. The reduction may find different (longer)
//     traces and so a different order of candidate sets, never a wrong
//     bound.
//   - Traces are real executions but no longer necessarily shortest: BFS
//     finds a shortest path of the reduced graph, which may run a process's
//     local steps earlier than a shortest trace would. Options.NoReduction
//     turns the reduction off.
//
// # Sleep sets
//
// Ample sets cut the steps of states where some process has only local
// steps; where every process reads or writes memory (the stored states,
// mostly), a state is expanded in full, and the interleavings of
// independent steps reach the same states again and again (several
// successors computed per state stored, on the locks with four
// processes).
// Sleep sets (Godefroid, Partial-Order Methods for the Verification of
// Concurrent Systems, ch. 5–6) cut those steps, with no state lost that
// the ample sets keep. When the reduction is on (and the symmetry
// reduction off: sleep.go), each stored state s has a sleep set Z(s) of
// steps it need not take: s is expanded by ample(s) \ Z(s), and the state
// after step t of s gets the steps of Z(s), and of those s took before t,
// that are independent of t (a step of another process, neither writing
// a shared variable the other reads or writes; all else a step touches is
// its own process's), less, along the states forward passes through, the
// steps of the process moving there (its steps are named anew; its local
// steps are independent of all others'). A step of Z(s) was taken, enabled,
// from an ancestor, and nothing since touched what it reads, so it is
// enabled in s: an ample candidate with its steps asleep counts as
// enabled. A state passed through whose one ample step is asleep ends
// the walk with no state.
//
// A process's own steps commute too: the flush of its oldest buffered
// write with its steps that do not empty a buffer (a read gets its newest
// write to the variable from the buffer or, flushed, from memory, the
// same value; a write into the exact part appends behind it; local steps
// touch no buffer), and under PSO with its flushes of other variables.
// So a flush is named by its process and variable (the one flush under
// TSO), not by its place among the component's steps, and that name
// outlives those steps of its process; a state expanded in full takes
// its flushes first, so that its later steps leave them asleep.
//
// With states stored, a state reached again gets the intersection of its
// sleep sets; if it was expanded already, the steps that were asleep
// then and are not now are taken in a re-expansion, queued at the depth
// of the new arrival (Godefroid's state caching with sleep sets). A
// re-expansion takes every step woken, ample or not: more steps, never
// fewer. The sleep sets of a level's states are read when the level
// starts, and "expanded already" means "in a level started", so the
// states stored do not depend on how far the workers have got. In stage 2 of a staged exploration the held steps of a state get
// its sleep set, not the steps stage 1 took. A counterexample is replayed
// without sleep sets: a walk that ended was not stored. Options.NoSleep
// turns them off.
//
// # Automorphisms
//
// orbit.go finds, by unifying the process automata edge by edge, a set of
// automorphisms of a system: permutations π of the processes with a
// renaming σ of the variables (shared onto shared, the locals of a onto
// those of π(a)) and a map of the fence sites, under which each process's
// automaton is its image's (the same locations and edge order, the same
// operations up to σ), the initial values are kept and the bad states are
// invariant. Such a map sends every run of the k-abstraction (and of the
// exact semantics) to a run, step by step (a step of a by edge i becomes
// the step of π(a) by edge i, a flush of x one of σ(x)), and bad states
// to bad states. It is found for template instances that index by i or
// (i+k)%N and for processes written out one by one (an n-thread litmus
// test), never decided by a name or a flag. They serve three purposes:
// predicate images (symmetry.go), candidate sets and states (below).
// Options.NoSymmetry turns the last two off.
//
// # Candidate sets and symmetry
//
// A real counterexample t found with the fence set F installed is a run
// of the system without fences as well (a fence step only waits for an
// empty buffer: the run without the fence steps is a run). For an
// automorphism g of the system without fences, g(t) is then a run of it
// to a bad state, and a fence set blocks g(t) exactly when it contains an
// element of the candidate set of g(t), which is g(cand(t)) (a site passed
// with a non-empty buffer by process a in t is passed so by π(a) in g(t)).
// Every correct fence set must block g(t), so it hits g(cand(t)): the
// images are evidence like the counterexamples found, and the minimum
// hitting set of all of them is still a lower bound on any correct fence
// set. The engine adds them (orbitcands.go), each computed from the image
// trace itself (fences.Blocking on the image replayed by the explicit
// checker, which is also the witness kept for it), deduplicated, before
// the minimum hitting set. Template instances share their sites, so only
// processes written out one by one get new sets from it: on the n-thread
// store-buffering ring the exploration with F finds the run that delays
// every process outside F, and its images are the rotations of that
// complement (of the smaller set that the shrinking below makes of it,
// when that is on).
//
// # Candidate sets shrunk by witness
//
// The exploration with fence set F finds, as a rule, a run that delays
// every write it can: its candidate set is all of what F leaves out, and
// the minimum hitting set moves by one fence set at a time. Before the
// candidate set of a real counterexample t is recorded, fences.Shrink
// (shrink.go) looks for a real run of the system without fences that
// fewer elements block: it drops the elements of cand(t) one by one, each
// time searching, among the interleavings and flushes of t's own steps, a
// run that passes no other full-fence site with a non-empty buffer, and
// keeps a run found only after it has been replayed from scratch by the
// explicit checker (memmodel.Concrete.Replay) to a bad state and its
// candidate set, computed by fences.Blocking as for t, is a non-empty
// proper subset of cand(t). That run u is a run of the system to a bad
// state like t, so (fences/doc.go) every correct fence set hits cand(u);
// nothing else is assumed, and the search (bounded by
// fences.DefaultShrinkLimit states per counterexample) only decides which
// real run is found. cand(u) ⊂ cand(t), so hitting cand(u) also hits
// cand(t), and the engine records cand(u) with u as its witness (the run
// --explain shows for a fence) instead of t; F, disjoint from cand(t), is
// disjoint from cand(u), so the next minimum hitting set differs from F and
// the loop still ends. The images of cand(u) under the automorphisms
// follow (above): on the n-thread store-buffering ring u delays one
// process, and its n images ask for all n fences at once. Store fences
// are not modelled in the search, only in the check: a run that a store
// fence outside the smaller set would block is not kept. Options.NoShrink
// turns the shrinking off. The counterexamples that Insert's --all
// alternatives find (alternatives.go) are shrunk the same way.
//
// # Symmetry of states
//
// An exploration whose variables are all explicit (no cube) stores one
// state per orbit (orbitstates.go): the least image, by control key and
// then value vector, of each successor under the automorphisms of the
// system explored (its fences installed, so only those that map the fence
// set onto itself). Initial states are stored as they are. By induction
// on the runs, for every state s reachable some image h(s) is stored
// (if h(s) is stored and s' is a successor of s, h(s') is a successor of
// h(s) and the least image of h(s') is stored), and bad states are
// invariant, so a bad state is reachable exactly when a stored one is.
// A counterexample is rebuilt as a real path (symPathTo): between the
// stored r and r' the search took a step (and the steps passed through)
// to a state s with r' = g(s); the path so far ends in h(r), so it goes
// on by the image under h of those steps, and h becomes h∘g⁻¹.
//
// With the partial-order reduction: the ample set of an explored state
// (stored, or passed through) is chosen as before, from its own steps;
// that of any other state s is taken to be h⁻¹(ample(u)) for one explored
// u = h(s) (any choice where s has no explored image). An automorphism keeps
// what the conditions C0–C2 ask of a set (enabled, local, invisible: each
// is decided by the process's automaton at its location, its buffer and
// the bad states, all mapped onto the image's), and C3, the static
// proviso, too: π(a)'s automaton is a's, so the depth-first search of
// por.go marks the same back edges in both, and no ample set holds one.
// So this choice of ample sets satisfies C0–C3 on every state, and its
// reduced graph reaches a bad state when the abstraction does. The
// induction above, run on that reduced graph, shows that every state it
// reaches has an explored image: if u = h(s) is explored, each successor
// s' of s by h⁻¹(ample(u)) has h(s') a successor of u by ample(u), which
// is passed through or has its least image stored. The states passed
// through are replayed from the stored parent as before.
//
// With the order view of counters (domains/order.go) an automorphism is
// used when it maps each class of the view onto a class with the same
// anchors, moves, hull and cap, all positions of a class onto one class:
// the canonical form of a class's values depends on them as a set, so it
// commutes with such a permutation of the positions, and so do the Exact
// checks and the widening, which read values, not positions; the image of
// a canonical state is canonical and the argument above holds for the
// view's graph. (The ticket locks at N = 4: 30,119 states stored without
// it, 3,022 with it; the CAS loop version 350,613 and 30,870.)
//
// Explorations with the first m processes only (below) use no
// automorphism. A dynamic variable (domains/dynamic.go) is mapped only
// onto one with the same candidate domain, so its tail sets (bit sets over
// the domain) and its observed values mean the same at the image's
// position; the values observed outside a domain are recorded for the
// images of the variable too (so the domains grow alike and the next
// exploration keeps the automorphisms).
//
// # Locations with the same future
//
// reach explores the quotient of the system by the locations of a process
// with the same future (cs.Process.SameFuture: a bisimulation of its
// automaton that keeps live locals and the locations of bad states), each
// edge redirected to the least location of its target's block, and lifts
// a counterexample to the system by following the real locations
// (quotient.go). A wait through a local copy (c = x; while (c != 0) { c =
// x; }) or a CAS loop has two locations before its read with one future;
// on the 3-process textbook Bakery the states went from 743,951 to
// 244,799, on the CAS ticket lock from 33,976 to 15,055.
//
// # Parts of the graph first
//
// With the reduction on, each exploration first looks for a counterexample
// in parts of the graph (reach.go, reachParts): for m = 2, ..., N-1 the
// part where only the first m processes move, the others staying at their
// initial locations with empty buffers; each first exact-only (no write
// goes to a buffer's abstract tail: kabs RuleWriteG is not taken, a write
// waits while the exact part is full) and then with tails; then the
// exact-only part with all N processes (below); then the whole graph.
// Each part is a subgraph of the full one from the same initial state, so
// what it finds is a path of the abstraction, classified as any other;
// when it finds none the next one is explored, and the whole graph
// decides. An
// exact-only exploration in which no write to a tail was enabled is the
// whole graph, and decides itself. A part found free of bad states is not
// explored again under the same k with more fences (a fence only takes
// runs away: engine.cleanRun). The minimality argument below holds for
// any choice of counterexamples.
//
// The exact-only part with all processes is also where k is chosen for a
// proof (reach.go, reachExact). An exact-only exploration in which no
// write to a tail was enabled is the whole graph of its k-abstraction,
// whatever k, and every k-abstraction over-approximates the model: its
// "no bad state" proves the program, and the precision takes that k. So
// when the exact-only part under the precision's k leaves writes out and
// has no bad state, it is explored on under k+3 (the two are one
// exploration in two stages: "Staged exploration" below), then k+4, ...
// (at most
// k+climbSteps; the first step skips the k between, whose explorations
// are nearly as large as the last where the buffers settle), each time
// with a budget of climbGrowth times the
// states of the one before, while the writes left out fall by a quarter
// or more from one k to the next; the first that leaves none out is the
// proof. A counterexample found under a larger k is not used (it needs
// more exact writes than the precision keeps): the whole graph under the
// precision's k decides, and its k case raises k. Where the buffers settle
// (every run keeps at most some number of writes buffered), the smallest
// such k gives an exploration with no tail at all, far smaller than the
// one with tails under k = 1; where they do not (a loop that writes with
// no fence), the climb stops after a step or two and the whole graph
// under the precision's k decides.
//
// Where the skeletons of the processes bound the writes a buffer can hold
// (domains.Info.BufferBound: the most writes on a path of a process's
// locations and counter values since its last fence or atomic step; loops
// bounded by counters, as in the generated programs of issue 38), the
// climb goes from the precision's k straight to that bound (staged as
// well), with no budget and no stop rule (reachExact, exactK). Under it the exact-only
// part is the exact semantics: the exploration is the concrete system's,
// reduced, never larger, where the tails of k = 1 multiplied the states
// (a four-process ring with a loop of four writes: no answer in 60 s,
// over 5,000,000 states with tails under k = 1; 1,273,716 states under
// k = 6 with no tail). A counterexample found there used no tail, so it
// is a run of the exact semantics and is used like one found under the
// precision's k. The bound is only a choice of k: the exploration still
// counts the writes it left out, and proves nothing if there are any.
// The search for counterexamples keeps the precision's k (k = 1 with no
// tail restricts the buffers and finds most of them in a far smaller
// graph: under the bound first, the same rings took 4 to 10 times the
// states before their first counterexample).
//
// # Staged exploration
//
// The exact-only part under the precision's k and the next exploration of
// the climb (under the bound, or k+climbJump) share most of their states:
// where the buffers settle, the first is nearly the second's size, and
// with no counterexample it was explored for nothing. So the two are one
// exploration of the second's k-abstraction in two stages (stage.go).
// Stage 1 is the part in which no buffer holds more exact writes than the
// precision's k: a step that would put more in one (a WRITE-L into a slot
// past it, kabs.Abs.ExceedsK) is held back, and the ample sets are those
// of the exploration under the precision's k (locality decided with its
// exact part, kabs.Abs.LocalUnder), so stage 1 stores the states that
// exploration stores, in its order, and finds its counterexample. Stage 2
// starts from the states stage 1 expanded in full with steps held back,
// takes those steps, and explores on under the larger k, with its ample
// sets. Every state is expanded once. An ample set chosen in stage 1 is
// one under the larger k too: its steps are local with the shorter exact
// part, so with the longer one (a write with room in the one has room in
// the other, and the other conditions do not depend on k); and a state
// expanded in full in stage 1 is expanded in full, the steps held back
// taken in stage 2. So the states of both stages are those of a reduced
// graph of the larger k's exact-only part (C0–C3 hold at every state),
// and the answer, a proof or a counterexample, is that exploration's; a
// counterexample of either stage used no tail. A counterexample found in
// stage 1 is handled as one of the exploration under the precision's k,
// one found in stage 2 as one under the larger k. The budget of a climb
// step holds for both stages together, as a multiple of stage 1's states.
// The reduced graph differs from the one the larger k alone would give
// (its ample sets are fewer in stage 1: a write into a non-empty exact
// part is local under the larger k only), so where the first exploration
// would have been small beside the second the stages can store more than
// the second alone; they never store the first's states twice.
// Options.NoStaging explores the two one after the other.
//
// The tails are what multiplies the states of a buffered exploration,
// and most counterexamples need a write delayed past a read, which the
// exact part holds: on the 4-process filter lock the first counterexample
// (two processes moving) is found after 17,835,369 states with tails and
// 6,668 without; on the 3-process filter lock the one with two processes
// is found within 221,000 states, and the full exploration had not found
// one within 8,000,000.
//
// # The state store
//
// An exploration's tables hold no Go pointer and make no allocation per
// state (stateset.go, vecset.go, nodeset.go, arena.go). The control part
// is a collapse compression per process, as in SPIN and LTSmin: a
// process's part of a control state (pc, buffer, tail, epochs) is a
// component, interned per process (there are few: dijkstra_3 has 345 in
// all), and memoises that process's steps, their transitions, the
// components after them and the process's candidate ample set
// (ctlexpand.go). A control state is interned in a nodeSet by its ctlKey,
// the vector of its components' ids as varints (a few bytes), with an
// open-addressing table of 32-bit entries over 64-bit hashes and a dense
// 32-bit id; its node (16 bytes, no Go pointer, in chunks of 1024 that
// never move) holds its id, the reference of its profile and whether it
// is bad, and its key when that has at most 7 bytes (else the key's place
// in an arena of large chunks), so that finding a control state reads
// its table entry and its node; a node holds nothing of its steps: a
// control state's steps are its
// components', and the target of one is found when it is taken by editing
// the key (the process's id replaced) and looking it up, made if missing,
// with its compiled step memoised per component step and explicitness
// before and after; a worker's direct-mapped cache of resolved steps by
// node and step saves most of those lookups, and the states passed
// through derive the next key from the step taken. The store of
// states is a collapse compression in two components: a state's key is its
// control node's id and the reference of its vector of explicit values,
// interned in a vecSet (zigzag varints, one byte for a value in -64..63;
// the reference is the vector's place in the arena, so that finding one
// reads its table slot and the vector, no table of references; few
// distinct vectors are shared by many control states: dijkstra_3 has
// 42,574 for 948,894 states). A vector is encoded at the positions its
// control state's profile does not clear (ctlProfile.kept, keptRuns): the
// others are 0 in every state stored, so the profile, which the key's
// control node gives, decodes it; most positions of a state with
// buffers and several processes are such (bakery_4: 145 of 160 on
// average), and the encoding, its hash and its comparison shrink with
// them. A stored state is a node of 14 bytes (its
// key, its parent's index, and its step as 16 bits: the rare larger one
// in a map), dense in the order of storing, in chunks of 1024 that never
// move, and a 32-bit slot of the table: the index of the first node
// stored under a key and, in the bits the table's size leaves free, a tag
// of the key's hash, so that a probe reads a node only when the tags
// agree. The key is not kept twice, and the depth not at all: a state is
// expanded in the BFS level of its depth. A key's hash mixes its
// control node's id with the hash of its vector's encoding, not the
// vector's reference, so that the worker that made a successor has its
// hash. The table is rebuilt from the nodes, read in order (each vector
// hashed again), when it doubles. The states of a level are expanded in
// batches before their successors are stored (eight at a time without
// the pipeline, one worker or a small level; a chunk of sixteen with
// it), and the successors of a batch are looked up together
// (touchItems): the slots of both tables where their probes start, then
// the vectors, nodes and sleep sets those name, then the lookups
// themselves, so that the cache misses of independent loads overlap
// instead of following one another. Without the pipeline the batch's own
// nodes and vectors are loaded the same way before it is expanded
// (touchStates). The nodes and the table live outside the Go heap
// (offheap.go: mapped from the system, returned when the exploration
// ends, an old table before its successor is built), so the garbage
// collector's headroom, which lets the heap grow to twice what is live,
// does not double them. Only the control
// states of states stored, or looked up in the store, are nodes: a
// control state that the partial-order reduction only passes through is
// transient (resolve), its profile and badness found from its
// components' parts in the worker that meets it (profparts.go; the
// parts packed in 64 bits, with no key built or looked up:
// resolveByParts) and kept with the step that reached it, not in the
// nodeSet; the state where forward stops makes its node
// (promote). A step clears, of the positions that do not matter after
// it (Zero), only its process's (domains.Step.ApplyClipped): they are
// decided by the process's component, which keeps them (ctlComp.zrun),
// and the others are 0 already; the profiles are many (46,035 on
// dijkstra_4 against 426 components), and reading the positions from
// the target's profile was a cache miss per step. Of those it clears
// only the ones that do matter before it or that it assigns
// (compStep.clear, domains.Layout.ClearedZeros): the others are 0 too. Most control states are of
// states passed through (dijkstra_4: 3,290,855 control states met in its
// last exploration, 307,191 of them of its 1,435,942 stored states), so
// the nodes are about one per four stored states there. The memory limit
// (--max-memory) is
// checked against the live heap, which counts them, and the stores'
// memory outside it.
//
// # Parallel expansion
//
// With Options.Workers > 1 (the command line's --workers, by default the
// number of CPUs up to 4), the states of a BFS level are expanded by that
// many goroutines (parallel.go): a worker takes a chunk of 16 stored states
// and computes, for each, everything the sequential search computes before
// it stores a successor (the control successors, the explicit step, the
// abstract post, the states passed through, the choice of the ample set).
// One goroutine takes the expanded states in the order of the level and
// stores their successors (lookup, subsumption, limits, the queue), up to
// 16 chunks per worker behind them (fewer would hand over more often: the
// workers would wait for the storing goroutine, and it for them). It
// decodes none of their values: the worker decodes those of the state it
// expands from the store's arena. Expanding reads nothing else of the store, and the
// store sees the successors in the sequential order, so the states stored,
// their numbering and the counterexample found are those of one goroutine
// (TestWorkersSameRun; the differential suite runs with two workers). What
// the workers share: the control nodes and the components, created the
// first time a step reaches them and read without a lock once made (a
// component's ready flag is atomic, a node does not change once published,
// the lists of chunks are replaced, not changed, when they grow); the
// table of control keys, looked up without a lock and entered under the
// explorer's lock (nodeSet); the memos of posts and sliced queries (predabs.Abstractor.Fork); each worker has its own
// lia solver with its own Z3 context for the fallback. The main context
// (classification, interpolation) gets no abstraction query at all, so its
// history, on which Spacer's interpolants depend, is the same whatever the
// number of workers.
//
// Expanding a state (ctlexpand.go) takes the explorer's lock only when a
// control state, a component or a compiled step it needs is missing:
// copying a control key, decoding it, the steps of a new component
// (kabs.Abs.ProcSuccessors is safe for concurrent use: its memo of
// transitions is read without a lock), the keys and hashes of the targets,
// their lookup and that of their compiled steps, and the profile parts
// keys of the targets not yet made (profparts.go: a control state's
// profile is a function of its components' parts, so a new one is found
// by them and drafted only for parts not seen together before) are done
// without it. The lock is held to look the
// missing up again, make them, compile new steps and publish; two workers
// that meet one new component at once both compute its steps, the first to
// take the lock publishes. (With a read lock on every lookup, the two
// workers were slower than one: the lock's cache line and the sleeps of
// readers behind a writer cost more than the second core gave.) Control nodes and components are therefore
// numbered in an order that depends on the workers' timing: nothing
// stored or reported depends on it (states are numbered by the store, the
// symmetry reduction orders control states by their contents keys).
//
// Explorations of a system whose variables are all finite use the workers
// too, without a prover each (there is no abstract post: workersFor):
// there the storing goroutine does the interning of the values, the
// lookup and the queue, and the workers the rest (the control steps, the
// explicit steps, the states passed through, under the symmetry reduction
// the least image of each successor, the values' encoding and hash).
// Explorations with no predicate but some unbounded variable have one
// worker.
//
// # The loop
//
// The loop (engine.go) has two steps: search explores the system, with the
// fences of the current Precision installed, under that precision and
// returns a counterexample or none; refine judges the counterexample and
// returns the next Precision, or ends the run with a verdict (an SC bug, a
// real counterexample of Verify, unknown). A Precision is a value: k, the
// predicates, whether posts are precise, the fences. A refinement does not
// change the precision it refines: its predicate set is a clone that
// grows (predabs.Preds.Clone). What refine keeps beyond it is evidence
// (the candidate sets and witnesses of the real counterexamples, which
// the fences are the minimum hitting set of) and the escalation of each
// counterexample (below). Options holds configuration only; where a run
// is in Insert (its phase, the k its final check starts from) is a stage.
//
// # Counterexamples
//
//   - feasible under the exact semantics of the model (SC, or TSO with real
//     buffers): a real trace. Under SC it is an SC bug; under TSO it yields
//     a candidate set of fence sites and the minimum hitting set of all
//     candidate sets found so far is installed (fence case);
//   - else feasible under the k-abstraction: k is raised to the least value
//     under which the trace is infeasible (k case);
//   - else: predicates from the atoms of sequence interpolants of the path
//     formula, with the same shapes over buffer slots and last-write values
//     (the paper's parameterised predicates) and their images under the
//     automorphisms of the system (symmetry.go) (predicate case). The
//     interpolants are those of the path sliced to a minimal
//     unsatisfiable core of its conjuncts (smt.Interpolate): over the
//     variables the infeasibility needs.
//
// A counterexample is a sequence of abstract steps; its TSO feasibility is
// decided for exactly that schedule: the process operations in trace order
// and each flush at the point the trace flushes, which under the abstraction
// always moves the oldest write of the buffer. A real trace is replayed by
// the explicit-state checker before it is used or shown.
//
// # What a refinement keeps
//
// The predicates of a precision are one global set, and a refinement's is
// the old one with more (a clone: the order of the old ones is kept, so
// whatever is keyed by their positions stays valid). A refinement
// adds predicates and the next exploration starts again from the initial
// state, but it does not start again at the solver: every question a post
// asks is sliced to the conjuncts of the cube and guard that share
// variables with the predicate, and the answer is memoised under the text
// of that slice (predabs, slice.go). The memo is about formulas, so it
// survives new predicates, a raised k, new fences, the move from the SC
// check to the weak model, and the final check of the patched program; a
// re-exploration asks the solver only about what the new predicates make
// new. (The memo of whole posts, keyed by predicate positions, is dropped
// at each predicate refinement as before.)
//
// Exploring again only from the pivot (the first state of the
// counterexample whose cube does not imply the interpolant there, the
// states before it kept as they are) was measured before it was built and
// not built: the pivots are early, and the states before them are 1% of
// the states on Bakery TSO (pivots at depth 2 to 9 of counterexamples of
// 20 to 32 steps) and 2.6% on the SC check of scale/bakery.cs -D N=3 (60,000
// of 2,300,000 states over 25 refinements, pivots at depth 5 to 32 of 48
// to 76 steps). Keeping them could save at most that.
//
// Predicates kept per control location (lazy abstraction: the atoms of the
// interpolant I_j kept only where state j of the counterexample was) were
// tried and dropped: per vector of program counters Bakery did not end
// (hundreds of refinements, one per interleaving of the same locations);
// per process they made Bakery 2.6× and the ticket lock 1.3× slower (more
// refinements, each an interpolation and a new exploration, cost more than
// the fewer literals per state saved). Predicates are kept where they are
// relevant (live locals, buffer slots and last-write values that exist,
// relevance.go) and where some variable is not explicit, as before.
//
// Refinement must make progress: a counterexample that comes back after a
// predicate refinement first makes the engine add whole interpolants as
// predicates and re-evaluate every predicate at every step; if it comes back
// again the verdict is unknown.
//
// # The final check of insert
//
// Insert writes the fences into the input's text (fences.Place) and reads
// the patched text again (cs.System.Reparse), so that the answer is about
// the text the user gets. When the loop's verdict comes from an
// exploration that found no bad state, the system it explored is the input
// with fence steps added (cs.System.WithFenceKinds), and the final check
// asks whether the patched text lowers to that system's automata:
// cs.SameAutomata walks both from location 0 in step, matching the
// outgoing edges of each location in order with equal operations, and
// builds a map of locations (the text numbers a fence location in order,
// WithFenceKinds appends it; the text has one fence where branches join,
// WithFenceKinds one per edge) that is a functional bisimulation and keeps
// the bad states, so both systems have a reachable bad state or neither.
// Then that exploration is the check of the patched text, and nothing is
// explored again. When the verdict rests on robustness (the SC check found
// the input correct, and the robustness analysis found the input with the
// fences robust), the patched text must lower to the input with the fences
// in the same sense and be found robust by the analysis run on the patched
// system itself; its SC verdict is the input's (a fence step changes
// nothing under SC, and a functional bisimulation keeps the bad states),
// so robustness makes it the verdict under the model. Otherwise (a
// patched text that lowers to anything else: a fence the text places
// before the first statement, or in dead code after a goto) the patched
// program is verified from scratch (verify, phase "final check"), and a
// verdict other than correct there is unknown or a fencer bug.
package cegar
