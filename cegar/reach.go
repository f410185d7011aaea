package cegar

import (
	"context"
	"errors"
	"fmt"
	"hash/maphash"
	"math"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"unsafe"

	"fencer/domains"
	"fencer/fences"
	"fencer/kabs"
	"fencer/memmodel"
	"fencer/predabs"
)

// The abstract state of the exploration is a product of three domains:
//
//   - control: the kabs control state (pc, B_x, S), shared by many states;
//     its steps are computed once per process component (ctlexpand.go),
//     its key and per-state tables once per control state (ctlNode);
//   - explicit values: a vector over the variables that the static analysis
//     of package domains found finite, buffer slots and last-write values
//     included; its transfer is evaluation, no solver;
//   - a predicate cube over the predicates that mention some variable
//     without an explicit value there (kept): its transfer is predabs's
//     abstract post with the explicit values substituted.
//
// Two states with the same control state and values are compared by their
// cubes (subsumption); the key of a state is its control key and its values.

// ctlNode is a control state with what the exploration needs of it, computed
// once however many states share it: its key, its profile and whether it
// is bad, in 8 bytes and no Go pointer (the collector does not scan the
// chunks): there are up to as many control states as stored states. Its
// steps are those of its processes' components (ctlexpand.go), not kept
// per node. What depends on the control state only through its
// explicitness, liveness and relevance is one ctlProfile shared by every
// control state with the same contents, referred to by its reference in
// an arena (explorer.prof); the control state itself is kept as its key
// (ctlKey, in the explorer's nodeSet) and decoded when
// needed (ctl), in the node itself when it is short (nodeSet). The nodes
// live in chunks: no allocation per node, and a pointer to one stays
// valid. A node is filled in before
// it is published (under the explorer's lock) and not changed after.
type ctlNode struct {
	id int32 // dense, in order of discovery
	// pb is the profile's reference in explorer.profTab, with nodeBad set
	// when the control state is bad (a reference stays below 1<<31: that
	// many profiles would not fit in memory).
	pb uint32
	// kl is the length of the key, keyOut when it does not fit in key,
	// which then holds its place in the nodeSet's arena (nodeSet.key).
	kl  uint8
	key [nodeKeyMax]byte
}

const nodeBad = 1 << 31

// bad reports whether n's control state is bad (Sys.IsBad).
func (n *ctlNode) bad() bool { return n.pb&nodeBad != 0 }

// prof returns the profile of n.
func (x *explorer) prof(n *ctlNode) *ctlProfile { return x.profTab.run(n.pb&^nodeBad, 1)[0] }

// nextAmple returns the first candidate ample set of the flat list a and
// the rest of a, and whether it is conditional (its length negated:
// flatAmple; allowed decides it).
func nextAmple(a []int32) (cand, rest []int32, cond bool) {
	k := a[0]
	if k < 0 {
		k, cond = -k, true
	}
	return a[1 : 1+k], a[1+k:], cond
}

// allowed reports whether the conditional candidate ample set cand of b
// may be taken from a state with values vals (porInfo.blocked).
func (x *explorer) allowed(w *worker, b *nodeSteps, cand []int32, vals []int64) bool {
	p, _ := b.step(cand[0])
	return !x.por.blocked(p, b.comps[p].pc, vals, &w.porVals, &w.porKey)
}

// ctlProfile is what the values and the cube of a state need of its
// control state. The fields every step reads come first, in the struct's
// first cache line, and the runs of zrun and kept share one array
// (profileOf): a profile is read once per step, and there are many
// (dijkstra_4 has 45,039).
type ctlProfile struct {
	xid     uint32        // identifies x among the control states, dense (explorer.xids)
	anyKeep bool          // some predicate is kept (keep)
	zrun    domains.Zeros // zero as runs, for Step.ApplyZeros
	kept    domains.Zeros // the other positions, as runs: those stored (appendVals)
	// dyn are the positions holding values of dynamic variables, checked
	// against their candidate domains in each new state (domains/dynamic.go).
	dyn  []domains.DynPos
	x    []bool // domains.Layout.Explicit
	xsig string // identifies x among the control states
	zero []int  // domains.Layout.Zero
	// keep marks the predicates that are relevant here and mention a
	// variable without an explicit value.
	keep    []bool
	keepKey string
}

// compiled is a transition with its compiled explicit step.
type compiled struct {
	t *kabs.Trans
	x *domains.Step
}

// stepRef is a step out of a control node: its index in the node's steps
// (nodeSteps).
type stepRef struct {
	n *ctlNode
	i int32
}

// path is an abstract counterexample: its steps and their transitions.
type path struct {
	steps []kabs.AStep
	ts    []*kabs.Trans
}

// explorer holds the tables of one exploration.
type explorer struct {
	e    *engine
	abs  *kabs.Abs
	lay  *domains.Layout
	rel  *relevance
	ctls nodeSet // the control nodes, by id and by key (ctlKey)
	// profs finds the profiles by xsig, Zero, keepKey and dyn; profTab
	// holds them by reference (ctlNode.pb), read without the lock.
	profs   map[string]uint32
	profTab arena[*ctlProfile]
	xids    map[string]uint32 // ctlProfile.xid by xsig
	// parts interns, per process, the profile parts of its components;
	// profByParts finds a profile by its parts key; posOf lists, per
	// process, the positions its part decides (profparts.go); partCtl and
	// partBuf are compPart's. All under the lock.
	parts       []map[string]uint32
	profByParts map[string]uint32
	posOf       [][]int
	partBits    uint // the bits of a process's part in a parts key (withPart)
	partCtl     kabs.Ctl
	partBuf     draftBuf
	// hasB and hasE say whether the control states have buffers and
	// epochs (kabs.Ctl.B and E are not nil).
	hasB, hasE bool
	// comps holds, per process, its components (ctlexpand.go).
	comps []compTab
	// The compiled steps, by transition and explicitness before and after
	// (steps), and by component step and profiles (compiledBy).
	steps      map[stepKey]*compiled
	compiledBy map[compiledKey]*compiled
	kbuf, pbuf []byte
	// ppos holds, per predicate, the positions in the layout of its
	// variables, -1 for one without a position (predPositions).
	ppos [][]int
	// por is the partial-order reduction, nil when it is off (por.go).
	por *porInfo
	// active is the number of processes that move (the first ones), all
	// when 0; with exactOnly no write goes to a buffer's abstract tail
	// (reachParts).
	active    int
	exactOnly bool
	budget    int
	// dropped counts the writes to a tail that exactOnly left out, over
	// the states expanded (stepsOfComps).
	dropped atomic.Int64
	// stage1K, when not 0, makes the exploration staged (stage.go): in
	// stage 1 no buffer holds more than stage1K exact writes, the steps
	// past that are held back (heldN counts them as dropped counts), and
	// stage 2 takes them; n1 is the number of states stored in stage 1.
	// stage is 0 when the exploration is not staged, and changes only
	// between the stages, when no worker is expanding.
	stage1K int
	stage   int
	heldN   atomic.Int64
	n1      int32
	growth  int // part.growth
	// valSeed is the seed of the store's hash of value vectors (valHash).
	valSeed maphash.Seed
	// sym is the symmetry reduction of states, nil when it is off
	// (orbitstates.go).
	sym *stateSym
	// badMoves decides the badness of a step's target (resolveByParts).
	badMoves *badMoves
	// sleepW is the bits per process of a sleep set, 0 when sleep sets
	// are off; the last flushSlots of them name flushes (flushSlot gives
	// a flush's slot); sharedBit gives a shared variable's bit in a
	// step's accesses (sleep.go: sleepInit).
	sleepW     int
	flushSlots int
	flushSlot  [][]int8 // by process and shared variable, -1 for none
	sharedBit  map[string]uint64
	// woken holds, by stored state, the steps woken for its re-expansion
	// queued (an entry -1-i of the queue; arrive); sleeps and wakes hold
	// the sleep sets and steps woken of the level being expanded, taken
	// when it starts (startLevel). Only the goroutine that stores touches
	// them.
	woken         map[int32]uint32
	sleeps, wakes []uint32
	order         levelOrder // sortLevel's buffers
	// mu guards the tables above, which expand and resolve fill in as the
	// workers need them (parallel.go). The workers read without it the
	// control nodes and their keys (nodeSet), the profiles, the ready
	// components and the compiled steps counted in their compStep
	// (compiledFast); everything else, and every change, takes it.
	mu sync.Mutex
}

// stepKey identifies a compiled explicit step: the transition and the
// explicitness before and after it.
type stepKey struct {
	t         *kabs.Trans
	pre, post string
}

// nodeAt returns the control node with id i.
func (x *explorer) nodeAt(i int32) *ctlNode { return x.ctls.node(i) }

// values reads the values of stored state i of st into out.
func (x *explorer) values(st *stateStore, i int32, out []int64) {
	st.values(i, out, x.prof(x.nodeAt(st.key(i).c)).kept)
}

// ctl decodes the control state of n from its key.
func (x *explorer) ctl(n *ctlNode) *kabs.Ctl { return x.ctlOf(x.ctls.key(n)) }

// node returns the control node of c, made on first sight (addNode). The
// caller holds the explorer's lock or is alone (ctlexpand.go).
func (x *explorer) node(c *kabs.Ctl) (*ctlNode, error) {
	kb := x.ctlKey(c)
	h := x.ctls.hash(kb)
	if id, ok := x.ctls.lookup(kb, h); ok {
		return x.nodeAt(id), nil
	}
	d := x.draft(c, nil)
	return x.addNode(kb, h, x.profileOf(&d), d.bad)
}

// predPositions returns, per predicate of preds, the positions in lay
// of its variables, -1 for one without a position. The predicates do not
// change during an exploration, so the workers read it without a lock.
func predPositions(preds []*predabs.Pred, lay *domains.Layout) [][]int {
	out := make([][]int, len(preds))
	for i, p := range preds {
		for v := range p.Vars {
			j, ok := lay.Index(v)
			if !ok {
				j = -1
			}
			out[i] = append(out[i], j)
		}
	}
	return out
}

// succsOf returns the steps out of c that the exploration takes (those of
// the active processes, and with exactOnly no write to a tail), in the
// order of the steps of c's node: its processes' in order.
func (x *explorer) succsOf(c *kabs.Ctl) []kabs.Succ {
	var out []kabs.Succ
	for p := range x.abs.Sys.Procs {
		if x.active == 0 || p < x.active {
			succ, _ := x.procSuccessors(c, p)
			out = append(out, succ...)
		}
	}
	return out
}

// stepAt returns the kabs step of r (the control state's successors
// computed again: kabs.Abs.Successors is deterministic).
func (x *explorer) stepAt(r stepRef) kabs.Succ {
	return x.succsOf(x.ctl(r.n))[r.i]
}

func (x *explorer) env(n *ctlNode, vals []int64, key string) *domains.Env {
	pr := x.prof(n)
	return domains.NewEnv(x.lay, pr.x, vals, pr.xsig+"\x00"+key)
}

// reach explores the combined abstraction breadth first and returns a path
// to a bad state, or nil when none is reachable. Without the partial-order
// reduction the path is a shortest one; with it, a shortest one in the
// reduced graph (por.go).
//
// With dynamic variables (domains/dynamic.go) an exploration may observe
// values outside the candidate domains it branched over: it is then void,
// and is run again with the enlarged domains (or with a variable that
// exceeded the size cap left to predicates). No bad state is reported
// only from an exploration that observed no value outside a domain it
// used. A counterexample is returned as found: it is a sequence of kabs
// steps, judged by its own path formulas, whatever the domains.
//
// It explores the quotient of abs's system by the locations with the same
// future (quotient.go) and lifts a counterexample found to abs's system.
func (e *engine) reach(ctx context.Context, abs *kabs.Abs) (*path, error) {
	q, merged, err := quotientOf(abs)
	if err != nil {
		return nil, err
	}
	if q == abs {
		return e.reachOn(ctx, abs)
	}
	e.logf("exploring the quotient by the locations with the same future: %d locations merged", merged)
	p, err := e.reachOn(ctx, q)
	if p == nil || err != nil {
		return p, err
	}
	return p, liftPath(abs.Sys, p)
}

// reachOn is reach on abs itself.
func (e *engine) reachOn(ctx context.Context, abs *kabs.Abs) (*path, error) {
	e.useOrderView(abs) // ordview.go
	if p, err := e.reachParts(ctx, abs); p != nil || err != nil {
		return p, err
	}
	if p, proved, err := e.reachExact(ctx, abs); p != nil || proved || err != nil {
		return p, err
	}
	for {
		lay := domains.NewLayout(e.info, abs)
		p, err := e.explore(ctx, abs, lay, part{})
		if errors.Is(err, domains.ErrArithmetic) && e.info.DropDynamic() {
			e.logf("explicit values: %v; dynamic variables left to predicates, exploring again", err)
			continue
		}
		if err != nil && err != domains.ErrDomainFull {
			return nil, err
		}
		again, what, aerr := e.info.Absorb(lay)
		if aerr != nil {
			return nil, aerr
		}
		if what != "" {
			e.logf("explicit values: %s", what)
		}
		if err == nil && (p != nil || !again) {
			return p, nil
		}
		if !again {
			return nil, fmt.Errorf("internal error: an exploration stopped on a full domain that Absorb kept")
		}
		e.logf("explicit values: exploring again")
	}
}

// part names a part of the abstraction's graph that an exploration keeps
// to: only the first active processes move (all when 0), and with
// exactOnly no write goes to the abstract tail of a buffer (kabs
// RuleWriteG is not taken: a write waits while the exact part is full).
type part struct {
	active    int
	exactOnly bool
	budget    int // stored states at most (0: no bound); past it errBudget
	// stage1K, when not 0, stages the exploration: first the part with
	// at most stage1K exact writes per buffer (stage.go); with growth,
	// the budget of both stages together is growth times the states of
	// stage 1.
	stage1K, growth int
}

// errBudget ends the exploration of a part that stored its budget of
// states.
var errBudget = errors.New("the part's budget of states is spent")

// reachParts looks for a counterexample in parts of the graph before
// reach explores all of it: for m = 2, ..., N-1, the part where only the
// first m processes move, first with no write to a tail (exact-only) and
// then with them (within tailsGrowth times the states of the exact-only
// one); the processes that do not move stay at their initial
// locations with empty buffers. reach then explores the exact-only part
// with all N processes (reachExact) and then the whole graph. Each part
// is a subgraph of the full one from the same initial state, so a path
// it finds is a path of the abstraction like any other (and is
// classified as any other); finding none proves nothing, unless no step
// was left out (reach).
//
// A counterexample that needs few processes, or no tail, is found in a
// far smaller space than the whole graph (cegar/doc.go, "Parts of the
// graph first"). Only with the partial-order reduction (all variables
// finite: the exploration is explicit and cheap per state). The
// explorations of the parts are wasted when there is no counterexample,
// a fraction of the full one; a part found free of bad states is not
// explored again with more fences (cleanRun).
func (e *engine) reachParts(ctx context.Context, abs *kabs.Abs) (*path, error) {
	if !e.porApplies() {
		return nil, nil
	}
	n := len(abs.Sys.Procs)
	tails := hasTails(abs)
	for m := 2; m < n; m++ {
		if !badWithPrefix(abs.Sys, m) { // orbit.go
			continue
		}
		exact := 0 // the states of the exact-only part with m processes
		for _, pt := range []part{{active: m, exactOnly: true}, {active: m}} {
			if pt.exactOnly && !tails {
				continue
			}
			if !pt.exactOnly {
				pt.budget = tailsGrowth * exact
			}
			if run, ok := e.cleanRun(abs, pt); ok {
				exact = run.states
				continue
			}
			p, err := e.explore(ctx, abs, domains.NewLayout(e.info, abs), pt)
			if err == nil && p != nil {
				return p, nil
			}
			if err != nil && ctx.Err() != nil {
				return nil, err
			}
			if err == nil {
				exact = e.last.states
				e.recordClean(abs, pt, e.last)
				if pt.exactOnly && e.last.dropped == 0 {
					// No write to a tail was enabled: the part with
					// tails is the same graph.
					e.recordClean(abs, part{active: m}, e.last)
				}
			}
			// No counterexample, or a budget, limit or domain this
			// exploration ran into: the full exploration decides.
		}
	}
	return nil, nil
}

// tailsGrowth bounds a part with tails and fewer processes (reachParts)
// to that many times the states of its exact-only part: with tails the
// same processes can have dozens of times more states (the Dijkstra lock
// with four processes, three moving), and the exploration of the whole
// graph is then the better place to look.
const tailsGrowth = 10

// partRun is what an exploration stored (states) and, of a part with
// exactOnly, the writes to a tail it left out (dropped: each time a step
// was left out of a state's successors).
type partRun struct {
	states  int
	dropped int64
}

// cleanPart is a part of the graph that an exploration went through to
// the end and found no bad state in, with the fences of the precision
// then.
type cleanPart struct {
	part
	k      int
	layout memmodel.Layout
	fences []fences.Element
	run    partRun
}

// cleanRun reports whether the part pt of abs's graph was explored to
// the end with no bad state, under the same k and with fences that the
// current ones include, and what that exploration stored and left out.
// More fences take steps away and add none (a fence step changes no
// value), so the part has no bad state now either and exploring it again
// would be wasted: on a program whose last counterexample needs a tail,
// each later exploration would otherwise explore the exact-only parts
// again for nothing. Only a hint: skipping a part never decides anything,
// the full exploration does. The budget of a part does not matter: a part
// recorded clean was explored to the end.
func (e *engine) cleanRun(abs *kabs.Abs, pt part) (partRun, bool) {
	pt.budget, pt.stage1K, pt.growth = 0, 0, 0
	for _, c := range e.clean {
		if c.part == pt && c.k == abs.K && c.layout == abs.Layout() && fences.Subset(c.fences, e.prec.Fences) {
			return c.run, true
		}
	}
	return partRun{}, false
}

// recordClean records that the part pt of abs's graph has no bad state
// with the current fences (cleanRun).
func (e *engine) recordClean(abs *kabs.Abs, pt part, run partRun) {
	pt.budget, pt.stage1K, pt.growth = 0, 0, 0
	e.clean = append(e.clean, cleanPart{part: pt, k: abs.K, layout: abs.Layout(), fences: slices.Clone(e.prec.Fences), run: run})
}

// reachExact explores the exact-only part with all processes, under
// abs's k and then, while some write to a tail was left out, under
// larger k (a climb), before reach explores the whole graph under abs's
// k. A counterexample found under abs's k is returned; one found under a
// larger k needs more exact writes than abs keeps, and the whole graph
// decides (its k case raises k). An exact-only exploration that left no
// write out is the whole graph of its k-abstraction: its "no bad state"
// is a proof (proved), whatever k (each k-abstraction over-approximates
// the model), and the engine's precision takes that k. The tails are what
// multiplies the states of a buffered exploration, so a larger k under
// which no tail is used can have far fewer states than abs's k with its
// tails. A program whose buffers grow without bound (a loop that writes
// with no fence) leaves writes out under every k: each step of the climb
// has a budget of climbGrowth times the states of the one before, the
// climb stops when the writes left out do not fall by a quarter, and
// past climbSteps above abs's k. The first step goes climbJump up, and
// abs's k's part is its first stage (stage.go: stage 1 is the exploration
// of abs's k's part, and finds what that would; stage 2 goes on under the
// larger k from where it stopped) unless one of the two was explored
// before (stageNext).
//
// When the skeletons of the processes bound the writes a buffer holds
// (exactK: loops bounded by counters, issue 38), the climb goes from
// abs's k straight to that bound, with no budget: under it the
// exact-only part is the exact semantics, so the exploration is the
// concrete system's (reduced by the partial-order reduction), however
// many states the tails of a smaller k would have. A counterexample
// found there used no tail, so it is a run of the exact semantics like
// any counterexample of an exact-only part, and it is returned (classify
// finds it real; none of its steps needs abs's k).
func (e *engine) reachExact(ctx context.Context, abs *kabs.Abs) (p *path, proved bool, err error) {
	if !e.porApplies() || !hasTails(abs) {
		return nil, false, nil
	}
	kx, bounded := e.exactK(abs)
	var prev partRun
	// staged says that abs's k's part was not explored on its own: it is
	// stage 1 of the climb's next exploration (stage.go).
	staged := false
	for k := abs.K; k <= e.opt.MaxK && k <= abs.K+climbSteps; k = climbNext(abs.K, k) {
		jump := bounded && k > abs.K
		if jump {
			k = kx
		}
		a, err := e.absAt(abs, k)
		if err != nil {
			return nil, false, err
		}
		pt := part{exactOnly: true, budget: climbGrowth * prev.states}
		if jump {
			pt.budget = 0
		}
		run, ok := e.cleanRun(a, pt)
		if !ok && k == abs.K && e.stageNext(abs, kx, bounded) {
			staged = true
			continue
		}
		if !ok {
			if staged {
				// The budget of both stages together is climbGrowth
				// times stage 1's states (none for the jump), as
				// the next exploration's is those of abs's k's.
				pt.stage1K, pt.budget, pt.growth = abs.K, 0, climbGrowth
				if jump {
					pt.growth = 0
				}
			}
			lay := domains.NewLayout(e.info, a)
			p, err := e.explore(ctx, a, lay, pt)
			inStage1 := staged && e.stage1 == nil
			proofK := k // the k whose whole graph an exploration with no write left out is
			if staged && e.stage1 != nil {
				prev = *e.stage1
				e.recordClean(abs, part{exactOnly: true}, prev)
				if prev.dropped == 0 {
					// Stage 1 held nothing back: it was the whole
					// graph under abs's k, and stage 2 had nothing.
					proofK = abs.K
				}
			}
			staged = false
			switch {
			case err == nil && p != nil && (k == abs.K || jump || inStage1):
				return p, false, nil
			case err == nil && p != nil:
				e.logf("exact-only exploration: a bad state needs more than %d exact writes per buffer; the whole graph under k=%d decides", abs.K, abs.K)
				return nil, false, nil
			case err != nil && ctx.Err() != nil:
				return nil, false, err
			case err != nil:
				// The budget, a limit or a domain this exploration ran
				// into: the whole graph decides.
				return nil, false, nil
			case e.last.dropped == 0:
				again, what, aerr := e.info.Absorb(lay)
				if aerr != nil {
					return nil, false, aerr
				}
				if what != "" {
					e.logf("explicit values: %s", what)
				}
				if again {
					return nil, false, nil
				}
				if proofK != abs.K {
					e.logf("exact-only exploration under k=%d left no write out: it is the whole graph of the %d-abstraction, with no bad state", k, k)
					e.prec.K = k
				}
				return nil, true, nil
			}
			run = e.last
			e.recordClean(a, pt, run)
		}
		if jump || k != abs.K && run.dropped*4 > prev.dropped*3 {
			// The buffers do not settle as k grows (or the bound of
			// exactK was wrong: a fencer bug, but only a slower run).
			return nil, false, nil
		}
		prev = run
	}
	return nil, false, nil
}

// absAt returns abs, or its system's k-abstraction for another k.
func (e *engine) absAt(abs *kabs.Abs, k int) (*kabs.Abs, error) {
	if k == abs.K {
		return abs, nil
	}
	return kabs.NewAbs(abs.Sys, abs.Model, k)
}

// stageNext reports whether reachExact explores abs's k's exact-only part
// as stage 1 of the climb's next exploration (under kx when bounded, else
// climbNext's k) rather than on its own: when that next one is within
// MaxK and was not explored before (an exploration recorded clean is not
// explored again, and abs's k's part alone is then the cheaper).
func (e *engine) stageNext(abs *kabs.Abs, kx int, bounded bool) bool {
	if e.opt.NoStaging {
		return false
	}
	next := climbNext(abs.K, abs.K)
	if bounded {
		next = kx
	}
	if next > e.opt.MaxK || next > abs.K+climbSteps && !bounded {
		return false
	}
	a, err := e.absAt(abs, next)
	if err != nil {
		return false
	}
	_, ok := e.cleanRun(a, part{exactOnly: true})
	return !ok
}

// exactK is the k under which the k-abstraction of abs's system is its
// exact semantics (domains.Info.BufferBound), when the skeletons of its
// processes bound its buffers by more than abs's k and at most MaxK
// writes.
func (e *engine) exactK(abs *kabs.Abs) (int, bool) {
	k, ok := e.info.BufferBound(abs.Sys, abs.Layout(), e.opt.MaxK)
	if ok && k > abs.K {
		e.logf("buffers: no run keeps more than %d writes in a buffer: the %d-abstraction is the exact semantics", k, k)
		return k, true
	}
	return 0, false
}

// climbSteps and climbGrowth bound reachExact's climb of k: at most
// climbSteps values above the precision's k, each exploration with at
// most climbGrowth times the states of the one before; and the climb
// stops when the writes left out do not fall by a quarter from one k to
// the next. Its first step is climbJump values up: where the buffers
// settle, the exact-only explorations under the k between have nearly as
// many states as the one that leaves no write out (the Bakery lock's
// settle at k=3, Dijkstra's at k=4), so each step skipped is one such
// exploration saved.
const (
	climbSteps  = 5
	climbJump   = 3
	climbGrowth = 2
)

// climbNext is the k after k in the climb from k0: k0+climbJump, then
// one by one.
func climbNext(k0, k int) int {
	if k == k0 {
		return k0 + climbJump
	}
	return k + 1
}

// hasTails reports whether abs's buffers can have an abstract tail: a
// finite k under TSO or PSO.
func hasTails(abs *kabs.Abs) bool {
	return abs.Layout() != memmodel.Unbuffered && abs.K != kabs.Unbounded
}

// explore is one exploration of the combined abstraction with the explicit
// layout lay, whose observations reach then checks, kept to the part pt
// of its graph (the zero part: all of it; reachParts).
func (e *engine) explore(ctx context.Context, abs *kabs.Abs, lay *domains.Layout, pt part) (*path, error) {
	e.last, e.stage1 = partRun{}, nil
	rel := newRelevance(abs.Sys)
	rel.update(e.prec.Preds)
	x := &explorer{e: e, abs: abs, lay: lay, rel: rel, active: pt.active, exactOnly: pt.exactOnly, budget: pt.budget, stage1K: pt.stage1K, growth: pt.growth,
		profs: map[string]uint32{}, xids: map[string]uint32{},
		steps: map[stepKey]*compiled{}, compiledBy: map[compiledKey]*compiled{}}
	x.ctls.init()
	x.comps = make([]compTab, len(abs.Sys.Procs))
	for p := range x.comps {
		x.comps[p].byKey = map[string]*ctlComp{}
	}
	x.partsInit()
	x.ppos = predPositions(e.prec.Preds.All(), lay)
	init := abs.Init()
	x.hasB, x.hasE = init.B != nil, init.E != nil
	if e.porApplies() {
		x.por = newPorInfo(abs, e.info, lay)
	}
	x.sym = e.stateSymmetry(x)
	x.sleepInit()
	x.badMoves = newBadMoves(abs.Sys)
	c0, err := x.node(init)
	if err != nil {
		return nil, err
	}
	st := newStateStore()
	defer st.release() // after the pipeline's close below: no worker reads it
	x.valSeed, st.sleepy = st.vals.seed, x.sleepW > 0
	var keys []stateKey              // the keys of an item's successors (keysOf)
	roots, err := x.addInits(st, c0) // inits.go
	if err != nil || len(roots) == 0 {
		return nil, err
	}
	if c0.bad() {
		return &path{}, nil
	}
	ws := e.workersFor(x.lay.Len())
	defer func() {
		for _, w := range ws {
			w.ctl.release() // after pathTo too
		}
	}()
	// With several workers, states are expanded ahead of the storing of
	// their successors, in order (parallel.go).
	var pl *pipeline
	if len(ws) > 1 {
		pl = x.newPipeline(ws)
		defer pl.close() // finish does it; this is for a panic
	}
	// finish ends the exploration: every return below goes through it.
	finish := func() {
		if pl != nil {
			pl.close()
		}
		e.stats.States += st.n
		e.last = partRun{states: st.n, dropped: x.dropped.Load()}
		e.noteExplored(x, st.n) // known.go
		switch {
		case x.stage == 1:
			// Stopped in stage 1: the exact-only exploration under
			// stage1K, its held steps the writes it leaves out.
			e.logf("exact-only exploration under k=%d: %d writes to a tail left out, %d states (stage 1 of k=%d)", x.stage1K, x.heldN.Load(), st.n, x.abs.K)
		case x.exactOnly:
			e.logf("exact-only exploration under k=%d: %d writes to a tail left out, %d states", x.abs.K, x.dropped.Load(), st.n)
		}
		x.logMemory(st)
		comps, _ := x.compBytes()
		e.stats.noteStore(st.bytes(), x.ctls.bytes()+comps+x.order.bytes(), st.n)
		if x.sym != nil {
			x.sym.symmetrize(x)
		}
		e.collect(ws, x.por)
	}
	// Without the pipeline (one worker, or a level too small for it),
	// the states of a level are expanded in batches of up to
	// singleBatch, then their successors stored: the cache misses of
	// their lookups overlap (touchStates, touchItems).
	var batch [singleBatch]item
	// The states are expanded in the order of their depth (the number of
	// steps from the initial state, those forward passed through
	// included): queue[d] lists the states of depth d, all stored before
	// the level is expanded (a successor is deeper than its state).
	// Without passing through it is the order in which they were stored.
	queue := [][]int32{roots}
	expanded := 0
	// held lists, in stage 1 of a staged exploration, the states it
	// expanded in full with steps held back: stage 2's first level.
	var held []int32
	if x.stage1K > 0 {
		x.stage, x.n1 = 1, math.MaxInt32
	}
	for {
		for d := 0; d < len(queue); d++ {
			level := queue[d]
			x.sortLevel(st, level) // levelorder.go
			x.startLevel(st, level)
			par := pl != nil && len(level) >= parallelFrom
			if par {
				pl.start(st, level, int32(d))
			}
			for j := range level {
				if expanded&255 == 0 {
					if err := ctx.Err(); err != nil {
						finish()
						lim, reason := interrupted(err)
						return nil, &errLimit{lim, reason}
					}
					if e.progress != nil {
						e.progress(e.stats.States + expanded)
					}
					if err := e.memoryLimit(st); err != nil {
						finish()
						return nil, err
					}
				}
				expanded++
				var it *item
				if par {
					it = pl.wait(j)
					if j%chunkItems == 0 {
						st.touchItems(pl.chunk(j, len(level)))
					}
				} else {
					if j%singleBatch == 0 {
						n := min(singleBatch, len(level)-j)
						x.touchStates(st, level[j:j+n])
						for t := range n {
							batch[t].reset(x, st, level[j+t], j+t, int32(d))
							x.expandState(ws[0], &batch[t])
						}
						st.touchItems(batch[:n])
					}
					it = &batch[j%singleBatch]
				}
				found, foundDepth := int32(-1), int32(0)
				keys = st.keysOf(it.outs, keys)
				if x.por != nil {
					x.por.succs += len(it.outs)
				}
				for j := range it.outs {
					// Under the symmetry reduction r is the least image
					// of the successor (expandState).
					r := &it.outs[j]
					k := keys[j]
					if k.v < 0 {
						finish()
						return nil, errVecsFull
					}
					slot, seen := st.findHashed(k, r.sh)
					if seen && x.sleepW > 0 {
						x.arrive(st, st.firstAt(slot), r, &queue)
					}
					if seen && st.subsumedAt(slot, r.cube) {
						continue
					}
					first := int32(-1)
					if seen {
						first = st.firstAt(slot)
					}
					if x.budget > 0 && st.n >= x.budget {
						finish()
						return nil, errBudget
					}
					if st.n >= min(e.opt.MaxStates, math.MaxInt32) { // node indices are int32
						finish()
						return nil, &errLimit{StateLimit, fmt.Sprintf("state limit reached (%d abstract states)", e.opt.MaxStates)}
					}
					if dyn := x.prof(r.next).dyn; dyn != nil && !x.lay.Observe(dyn, r.vals) {
						finish()
						return nil, domains.ErrDomainFull
					}
					idx := st.addHashed(rnode{via: r.via, parent: it.head}, k, r.sh, r.cube, first)
					st.setSleep(idx, r.sleep)
					for int(r.depth) >= len(queue) {
						queue = append(queue, nil)
					}
					queue[r.depth] = append(queue[r.depth], idx)
					if r.next.bad() {
						found, foundDepth = idx, r.depth
						break
					}
				}
				if found >= 0 {
					finish()
					e.logf("exploration%s: %d abstract states, %d control nodes (k=%d, %d predicates%s), counterexample of %d steps", x.partNote(), st.n, x.ctls.n, x.abs.K, e.prec.Preds.Len(), x.por.note(), foundDepth)
					return x.pathTo(ws[0], st, found)
				}
				if it.err != nil {
					finish()
					return nil, it.err
				}
				if it.hasHeld {
					held = append(held, it.head)
				}
				if par {
					pl.stored(j, st, level)
				}
			}
			queue[d] = nil
		}
		if x.stage != 1 {
			break
		}
		x.endStage1(st.n, len(held))
		x.stage, x.n1 = 2, int32(st.n)
		if x.growth > 0 {
			x.budget = x.growth * st.n
		}
		queue, held = [][]int32{held}, nil
	}
	finish()
	e.logf("exploration%s: %d abstract states, %d control nodes (k=%d, %d predicates%s), no bad state", x.partNote(), st.n, x.ctls.n, x.abs.K, e.prec.Preds.Len(), x.por.note())
	return nil, nil
}

// singleBatch is the number of states one worker expands before it
// stores their successors.
const singleBatch = 8

// touchStates loads what expanding the stored states heads (-1-i for a
// re-expansion of i) reads first: their keys, then their control nodes and
// the first bytes of their vectors, a pass each, so that the cache misses
// of a batch overlap.
func (x *explorer) touchStates(st *stateStore, heads []int32) {
	var sink uint64
	for _, i := range heads {
		sink += uint64(st.key(levelState(i)).v)
	}
	for _, i := range heads {
		k := st.key(levelState(i))
		sink += uint64(x.nodeAt(k.c).pb) + uint64(st.vals.arena.head(uint32(k.v)))
	}
	st.sink += sink
}

// errVecsFull ends an exploration whose value vectors fill the store's
// arena (vecSet.push): 2 GB of them, beyond any sensible memory limit.
var errVecsFull = &errLimit{MemoryLimit, "memory limit reached (2 GB of value vectors in one exploration)"}

// errCtlsFull ends an exploration whose control states' keys fill their
// arena (nodeSet.add): 4 GB of them.
var errCtlsFull = &errLimit{MemoryLimit, "memory limit reached (4 GB of control states' keys in one exploration)"}

// logMemory logs what the tables of the exploration hold, as allocated:
// the store of states (its value vectors included) and the control
// states' nodes and keys, table, components and steps, and the marks of
// the order of a level (sortLevel).
func (x *explorer) logMemory(st *stateStore) {
	if st.n == 0 {
		return
	}
	comps, ncomps := x.compBytes()
	per := func(b int64) float64 { return float64(b) / float64(st.n) }
	table := int64(x.ctls.ids.size()) * 4
	order := x.order.bytes()
	x.e.logf("exploration memory per stored state: store %.1f B (%d value vectors), control states %.1f B (%d nodes: nodes and keys %.1f, table %.1f, level order %.1f; %d process components and their steps %.1f; %d profiles)",
		per(st.bytes()), st.vals.n, per(x.ctls.bytes()+comps+order), x.ctls.n,
		per(x.ctls.bytes()-table), per(table), per(order), ncomps, per(comps), len(x.profs))
}

// compBytes returns the memory of the process components and their steps
// (each map entry counted as its key and 48 bytes) and of the compiled
// steps' index by component step, and the number of components.
func (x *explorer) compBytes() (int64, int) {
	comps, ncomps := int64(0), 0
	for p := range x.comps {
		t := &x.comps[p]
		for k, c := range t.byKey {
			comps += 2*int64(len(k)) + 48 + 8 + int64(unsafe.Sizeof(ctlComp{})) + int64(len(c.steps))*int64(unsafe.Sizeof(compStep{})) + int64(len(c.cand))*4
		}
		ncomps += len(t.byKey)
	}
	comps += int64(len(x.compiledBy)) * (int64(unsafe.Sizeof(compiledKey{})) + 16)
	return comps, ncomps
}

// valHash is the store's hash of an encoded value vector (appendVals).
func (x *explorer) valHash(enc []byte) uint64 { return maphash.Bytes(x.valSeed, enc) }

// partNote says which part of the graph the exploration kept to.
func (x *explorer) partNote() string {
	var what []string
	if x.exactOnly {
		what = append(what, "exact buffers")
	}
	if x.active > 0 {
		what = append(what, fmt.Sprintf("the first %d processes", x.active))
	}
	if what == nil {
		return ""
	}
	return " with " + strings.Join(what, " and ") + " only"
}

// subsumed reports whether some stored cube covers c.
func subsumed(stored []predabs.Cube, c predabs.Cube) bool {
	for _, d := range stored {
		if c.Implies(d) {
			return true
		}
	}
	return false
}

// insertCube adds c and drops the stored cubes it covers.
func insertCube(stored []predabs.Cube, c predabs.Cube) []predabs.Cube {
	out := stored[:0]
	for _, d := range stored {
		if !d.Implies(c) {
			out = append(out, d)
		}
	}
	return append(out, c)
}

// forward follows, with the partial-order reduction on, the ample steps
// from the state after step via of from (resolved) with values vals, for
// as long as they give it exactly one successor, and returns the first
// state where they do not (none enabled, several, or a bad state). Those
// states are not stored: the reduced graph (doc.go) is the same, its
// states with a single successor by an ample set are passed through. The
// choice is a function of the state (the first candidate with an enabled
// step, as in explore), so pathTo can replay it; rec, when not nil,
// collects the steps taken. The returned values live in w's buffers until
// the next call with w. With sleep (the sleep set of the state after via,
// sleep.go), the steps passed through update it, and a state whose one
// step is asleep ends the walk with no state (a nil node).
func (x *explorer) forward(w *worker, from *nodeSteps, via int32, vals []int64, rec *[]stepRef, sleep *uint32) (*ctlNode, []int64, int, error) {
	cur := w.ffCur
	copy(cur, vals)
	passed := 0
	// pred is the state before b made in full (from), nil when b was
	// reached by a lean pass (lean.go).
	pred := from
	for k := 0; !from.res[via].next.bad(); k ^= 1 {
		b := &w.ctl.fwd[k]
		l := &w.ctl.lean
		var err error
		if rec == nil && !noLean && x.startLean(l, from, via) {
			before := passed
			end, lerr := x.passLean(w, l, &cur, &passed, sleep)
			if lerr != nil {
				return nil, nil, 0, lerr
			}
			switch {
			case end == leanCut:
				w.ffCur = cur
				return nil, cur, passed, nil
			case end == leanStop && passed == before:
				w.ffCur = cur
				n, err := x.promote(w, from, via)
				return n, cur, passed, err
			case end == leanStop:
				w.ffCur = cur
				s := &w.ctl
				s.leanKey = appendKeyWith(s.leanKey[:0], l.base, l.p, l.c.id)
				n, err := x.promoteKey(w, s.leanKey, &l.n)
				return n, cur, passed, err
			case passed != before:
				w.ctl.leanNode[k] = l.n
				err = x.expandWith(w, l.base, l.p, l.c, &w.ctl.leanNode[k], b)
				pred = nil
			default:
				err = x.expandChild(w, from, via, b)
			}
		} else {
			err = x.expandChild(w, from, via, b)
		}
		if err != nil {
			return nil, nil, 0, err
		}
		var stepIdx int32
		count := 0
		for a := b.ample; len(a) > 0; {
			cand, rest, cond := nextAmple(a)
			a = rest
			if cond && !x.allowed(w, b, cand, cur) {
				continue
			}
			if err := x.resolve(w, b, cand, rec == nil); err != nil {
				return nil, nil, 0, err
			}
			for _, i := range cand {
				r := b.res[i]
				_, ps := b.step(i)
				var first bool
				var err error
				count, first, err = x.applyCount(w, r.cm, cur, x.prof(r.next), ps.clear, count)
				if err != nil {
					return nil, nil, 0, err
				}
				if first {
					stepIdx = i
				}
				if count > 1 {
					break
				}
			}
			if count > 0 {
				break
			}
		}
		if count != 1 {
			w.ffCur = cur
			if pred == nil {
				n, err := x.promoteKey(w, b.kb, b.n)
				return n, cur, passed, err
			}
			n, err := x.promote(w, pred, via)
			return n, cur, passed, err
		}
		if dyn := x.prof(b.n).dyn; dyn != nil && !x.lay.Observe(dyn, cur) {
			return nil, nil, 0, domains.ErrDomainFull
		}
		if sleep != nil && *sleep != 0 {
			p, ps := b.step(stepIdx)
			// The state's only step is asleep: it reaches nothing new.
			if *sleep&ps.name != 0 {
				w.ffCur = cur
				return nil, cur, passed, nil
			}
			*sleep = x.sleepStep(*sleep, p, ps)
		}
		passed++
		cur, w.ffNext = w.ffNext, cur
		if rec != nil {
			*rec = append(*rec, stepRef{b.n, stepIdx})
		}
		from, via, pred = b, stepIdx, b
	}
	w.ffCur = cur
	n, err := x.promote(w, from, via)
	return n, cur, passed, err
}

// applyCount applies the compiled step cm to the values cur (pr the
// target's profile, moved the step's zeros) for forward: it returns count
// plus the successors the step gives, up to two in all, and whether it
// gave the first of all, which goes to w.ffNext.
func (x *explorer) applyCount(w *worker, cm *compiled, cur []int64, pr *ctlProfile, moved domains.Zeros, count int) (int, bool, error) {
	first := false
	var zeroErr error
	// The first successor of all is made in w.ffNext itself, not copied
	// there: a second overwrites it, but then it is not wanted.
	scratch := w.ffScratch
	if count == 0 {
		scratch = w.ffNext
	}
	err := cm.x.ApplyClipped(cur, pr.zrun, moved, scratch, func(v []int64) bool {
		if checkProfiles && !zeroAt(v, pr.zero) {
			zeroErr = errNotZero
			return false
		}
		count++
		if count == 1 {
			if &v[0] != &w.ffNext[0] {
				copy(w.ffNext, v)
			}
			first = true
		}
		return count < 2
	})
	if err == nil {
		err = zeroErr
	}
	return count, first, err
}

// pathTo returns the steps from the initial state to node i, with the
// steps forward passed through replayed.
func (x *explorer) pathTo(w *worker, st *stateStore, i int32) (*path, error) {
	if x.sym != nil {
		return x.symPathTo(w, st, i)
	}
	var rev []stepRef // the steps, newest first
	for j := i; st.at(j).parent >= 0; j = st.at(j).parent {
		r := st.at(j)
		via := stepRef{x.nodeAt(st.at(r.parent).c), r.via}
		chain := []stepRef{}
		if x.por != nil {
			var err error
			if chain, err = x.replay(w, st, j); err != nil {
				return nil, err
			}
		}
		for j := len(chain) - 1; j >= 0; j-- {
			rev = append(rev, chain[j])
		}
		rev = append(rev, via)
	}
	p := &path{}
	for j := len(rev) - 1; j >= 0; j-- {
		s := x.stepAt(rev[j])
		p.steps = append(p.steps, s.Step)
		p.ts = append(p.ts, s.T)
	}
	return p, nil
}

// replay returns the steps forward passed through between the step that
// reached the stored state i and i.
func (x *explorer) replay(w *worker, st *stateStore, i int32) ([]stepRef, error) {
	x.replayStage(i)
	r := st.at(i)
	from := &w.ctl.top
	via, err := x.resolveOne(w, x.nodeAt(st.at(r.parent).c), r.via)
	if err != nil {
		return nil, err
	}
	pv := make([]int64, x.lay.Len())
	x.values(st, r.parent, pv)
	var chain []stepRef
	var ferr error
	found := false
	iv := make([]int64, len(pv))
	x.values(st, i, iv)
	err = via.cm.x.ApplyZeros(pv, x.prof(via.next).zrun, make([]int64, len(pv)), func(vals []int64) bool {
		chain = chain[:0]
		c, v, _, err := x.forward(w, from, r.via, vals, &chain, nil)
		if err != nil {
			ferr = err
			return false
		}
		found = c.id == r.c && slices.Equal(v, iv)
		return !found
	})
	if err == nil {
		err = ferr
	}
	if err == nil && !found {
		err = fmt.Errorf("internal error: the partial-order reduction cannot replay a step of the counterexample")
	}
	return chain, err
}
