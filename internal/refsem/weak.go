package refsem

import (
	"errors"
	"fmt"
	"sort"
	"strings"

	"fencer/cs"
	"fencer/memmodel"
)

// This file and weakexec.go are the reference semantics of the axiomatic
// models arm (Arm's aarch64.cat), riscv (RVWMO, herd's riscv.cat) and rmo
// (SPARC RMO as fencer defines it), written from the cat files and sharing
// nothing with the engine (package execgraph, memmodel's Axioms): brute
// force, clarity over speed.
//
// An execution is built in three steps.
//
//  1. Each process is run alone (walk): every path through its compiled
//     instructions, loops unrolled (a path that jumps back to one
//     instruction more than Unroll times is cut, and the result says it is
//     bounded), each read of a shared variable taking every value of a
//     finite candidate set: the initial values and every value some path
//     writes, iterated to a fixpoint (candidates). A path is a list of
//     events: reads, writes, fences (with their ordering) and atomic steps
//     (cas, fetch_add, swap, atomic blocks: one event that reads and
//     writes), with the dependencies computed by taint: addr (the locals of
//     AssignStmt.AddrDeps), data (a written value computed from a read),
//     ctrl (a branch, assume or assert on a read value before a later
//     event). Every instruction boundary a path reaches is a node: the
//     process stopped there, with the events of the prefix executed.
//  2. A candidate execution picks one node per process, a write for every
//     read (rf: same variable, same value, or the initial write) and a
//     total order of the writes of each variable (co, the initial write
//     first).
//  3. It is consistent when coherence (po-loc ∪ rf ∪ co ∪ fr acyclic),
//     atomicity (nothing in co between the write an atomic step reads and
//     its own write) and the model's order axiom hold (weakexec.go).
//
// The order axiom of each model (wmodel.keeps and wexec.consistent):
//
//   - arm: ob = obs ∪ lob acyclic, obs = rfe ∪ coe ∪ fre, lob = lws
//     ([M];po-loc;[W]) ∪ dob (addr, data, ctrl;[W], addr;po;[W],
//     (addr|data);lrs) ∪ aob (rmw;lrs;[A|Q]) ∪ bob (a fence orders the
//     kind pairs its ordering holds: DMB SY all four, DMB LD
//     LoadLoad|LoadStore, DMB ST StoreStore, and the read of an atomic
//     step marked cs.NoRet only a full barrier: [R \ NoRet];po;[dmb.ld];
//     [A|Q];po, po;[L], [L];po;[A]). Dependencies also run through
//     memory by lrs (dtrm of aarch64deps.cat): a read's value depends on
//     what the po-latest local write to its variable depends on.
//   - riscv: co ∪ rfe ∪ fr ∪ ppo acyclic, ppo = r1..r13 of riscv.cat, a
//     fence's pred and succ from its ordering. Rule 7 (RCsc) keeps a
//     release before a later acquire only between atomic steps: herd's
//     riscv.cat makes only AMOs and LR/SC RCsc (an sw.rl then an lw.aq
//     may be reordered).
//   - rmo: ppo ∪ rfe ∪ co ∪ fr acyclic, ppo = [M];po-loc;[W] ∪ addr ∪
//     data ∪ ctrl;[W] ∪ the fences' pairs ∪ [A|Q];po ∪ po;[L] (no RCsc).
//
// An atomic step whose tree has no annotation (every one written in .cs)
// is acquire and release, as Arm's SWPAL and CASAL, RISC-V's amo.aqrl: it
// is kept after everything before it and before everything after it, even
// a cas that fails and so only reads; a relaxed one (cs.Relaxed) orders
// nothing by itself. An atomic block is one event over every variable it
// reads (before writing it) and writes.
//
// A read takes only values that a chain of writes computes from the
// initial values: values out of thin air (which RMO's axiom alone would
// not forbid) are never candidates.
//
// A bad execution is a consistent one in which a process has failed an
// assert, or the processes of a forbidden (or mutex) line are all at their
// labels; every other process is at any node (any prefix of its paths).
//
// The store-buffer models sc, tso and pso are here too, as axioms (SC:
// po ∪ rf ∪ co ∪ fr acyclic; TSO: the same without write→read pairs that
// no fence or atomic step orders and without rfi; PSO: also without
// write→write pairs to different variables that no store fence orders), so
// that this enumeration can be checked against the operational Run.

// WeakOptions are the options of RunWeak.
type WeakOptions struct {
	// Unroll is how many times a path may jump back to one instruction
	// (0: DefaultUnroll).
	Unroll int
	// Fences holds the sites (Site.Key) that get a fence, with its kind.
	Fences map[SiteKey]cs.FenceKind
	// MaxExecutions bounds the candidate executions (choices of nodes, rf
	// and co) checked; beyond it RunWeak returns ErrTooManyExecutions
	// (0: DefaultMaxExecutions).
	MaxExecutions int
}

// DefaultUnroll and DefaultMaxExecutions are the bounds when WeakOptions
// leaves them 0.
const (
	DefaultUnroll        = 2
	DefaultMaxExecutions = 2_000_000
)

// ErrTooManyExecutions is returned when WeakOptions.MaxExecutions is
// exceeded before a bad execution was found.
var ErrTooManyExecutions = errors.New("refsem: too many candidate executions")

// WeakResult is the outcome of RunWeak.
type WeakResult struct {
	// Bad reports a consistent execution that reaches a bad state;
	// Witness then shows it: the events of each process with the write
	// each read reads from, and the coherence order of every variable
	// written more than once.
	Bad     bool
	Witness string
	// Bounded reports that an answer "not bad" is not exact: some path was
	// cut by the unroll bound, the candidate values did not reach a
	// fixpoint, or "*" stood for a finite set of values.
	Bounded bool
	// Executions is the number of candidate executions checked.
	Executions int
}

// wmodel is a model of this file.
type wmodel uint8

const (
	wSC wmodel = iota
	wTSO
	wPSO
	wArm
	wRISCV
	wRMO
)

func (m wmodel) String() string { return [...]string{"sc", "tso", "pso", "arm", "riscv", "rmo"}[m] }

// weak reports whether m is one of the axiomatic models of the cat files
// (annotations and dependencies count).
func (m wmodel) weak() bool { return m >= wArm }

// weakModel names a model of the registry by its name only.
func weakModel(m memmodel.Model) (wmodel, error) {
	if m == nil {
		return 0, errors.New("refsem: no model")
	}
	for k := wSC; k <= wRMO; k++ {
		if k.String() == m.Name() {
			return k, nil
		}
	}
	return 0, fmt.Errorf("refsem: no axiomatic semantics for model %q", m.Name())
}

// acc is one access of an event: a shared variable and its value.
type acc struct {
	v   int
	val int64
}

// wevent is one event of a process's path.
type wevent struct {
	pc     int // the instruction
	reads  []acc
	writes []acc
	atomic bool // an atomic step: one event that reads and writes
	fence  bool
	orders cs.Ordering // a fence: the pairs it keeps in order
	full   bool        // a fence of kind cs.FullFence (Arm's DMB SY, ISH, ...)
	// ann is the annotation of a plain access (cs.Acquire or AcquirePC on
	// a read, cs.Release on a write) or the tree's annotation of an atomic
	// step (rmwAnn).
	ann cs.Ann
	// Dependencies: the events of the process (reads and atomic steps)
	// that the address, the written value, and the branches before the
	// event depend on.
	addr, data, ctrl bset
	// A read's local write (Arm's lrs): the po-latest earlier event of
	// the process that writes the read's variable, or -1; lrsDep is the
	// addr and data sources of that write (Arm's (addr|data);lrs).
	lrsSrc int
	lrsDep bset
}

func (e *wevent) isRead() bool  { return len(e.reads) > 0 }
func (e *wevent) isWrite() bool { return len(e.writes) > 0 }

// node reports whether the event takes part in the order relations: an
// access or an atomic step (which orders as a node even without access).
func (e *wevent) node() bool { return e.atomic || e.isRead() || e.isWrite() }

func (e *wevent) readsVar(v int) bool  { return hasVar(e.reads, v) }
func (e *wevent) writesVar(v int) bool { return hasVar(e.writes, v) }

func hasVar(as []acc, v int) bool {
	for _, a := range as {
		if a.v == v {
			return true
		}
	}
	return false
}

// sharesVar reports whether a and b access a common variable.
func sharesVar(a, b *wevent) bool {
	for _, x := range [][]acc{a.reads, a.writes} {
		for _, ac := range x {
			if b.readsVar(ac.v) || b.writesVar(ac.v) {
				return true
			}
		}
	}
	return false
}

// rmwAnn is the order of an atomic step: a step whose tree has no
// annotation but cs.NoRet is acquire and release (Arm's SWPAL/CASAL, a
// seq_cst RMW), a relaxed one has none; cs.NoRet stays.
func rmwAnn(a cs.Ann) cs.Ann {
	switch {
	case a&^cs.NoRet == 0:
		return cs.Acquire | cs.Release | a
	case a&cs.Relaxed != 0:
		return a & cs.NoRet
	}
	return a
}

// noRet: an atomic step whose read returns no value to the program (Arm's
// ST<op>, a zero destination): aarch64.cat's [R \ NoRet]; po; [dmb.ld]
// leaves its read out, only a full barrier orders it.
func (e *wevent) noRet() bool { return e.atomic && e.ann&cs.NoRet != 0 }

// acquire: an acquire read (LDAR or LDAPR) or an acquire atomic step:
// every event after it stays after it. acquireSC: the RCsc kind (LDAR),
// kept after an earlier release. release: a release write or atomic step:
// every event before it stays before it.
func (e *wevent) annOf() cs.Ann {
	if e.atomic {
		return rmwAnn(e.ann)
	}
	return e.ann
}
func (e *wevent) acquire() bool   { return e.annOf()&(cs.Acquire|cs.AcquirePC) != 0 }
func (e *wevent) acquireSC() bool { return e.annOf()&cs.Acquire != 0 }
func (e *wevent) release() bool   { return e.annOf()&cs.Release != 0 }

// bset is a set of event indices of one process; values are never changed
// once built.
type bset []uint64

func (s bset) has(i int) bool { return i/64 < len(s) && s[i/64]&(1<<(i%64)) != 0 }

func (s bset) with(i int) bset {
	n := max(len(s), i/64+1)
	t := make(bset, n)
	copy(t, s)
	t[i/64] |= 1 << (i % 64)
	return t
}

func (s bset) union(o bset) bset {
	if len(o) == 0 {
		return s
	}
	if len(s) == 0 {
		return o
	}
	t := make(bset, max(len(s), len(o)))
	copy(t, s)
	for k, w := range o {
		t[k] |= w
	}
	return t
}

func (s bset) String() string {
	var parts []string
	for i := 0; i < 64*len(s); i++ {
		if s.has(i) {
			parts = append(parts, fmt.Sprint(i))
		}
	}
	return "{" + strings.Join(parts, ",") + "}"
}

// pnode is a process stopped at an instruction boundary (pc, before the
// instruction's first read), or just after a failed assert (bad).
type pnode struct {
	evs []wevent
	pc  int
	bad bool
	key string // the events, for telling prefixes apart
}

// ptree is everything one process can do alone.
type ptree struct {
	nodes     []*pnode
	cut       bool                   // a path was cut by the unroll bound
	written   map[int]map[int64]bool // values written, by variable
	maxWrites int                    // the most write events on one path
}

// wpath is the state of a walk along one path of a process.
type wpath struct {
	pc      int
	loc     []int64
	taint   []bset // per local: the events its value depends on
	ctrl    bset
	evs     []wevent
	backs   map[int]int // jumps back to each instruction so far
	lastW   map[int]int // per variable, the latest event that writes it
	pend    int64       // the result of the call just before (iWritePending)
	pendT   bset
	nwrites int
}

func (s *wpath) clone() *wpath {
	t := *s
	t.loc = append([]int64(nil), s.loc...)
	t.taint = append([]bset(nil), s.taint...)
	t.evs = s.evs[:len(s.evs):len(s.evs)] // appending copies
	t.backs = make(map[int]int, len(s.backs))
	for k, v := range s.backs {
		t.backs[k] = v
	}
	t.lastW = make(map[int]int, len(s.lastW))
	for k, v := range s.lastW {
		t.lastW[k] = v
	}
	return &t
}

// walker runs one process alone.
type walker struct {
	p      *Program
	m      wmodel
	q      *proc
	cand   [][]int64 // candidate values by variable
	unroll int
	fences map[SiteKey]cs.FenceKind
	tree   *ptree
	seen   map[string]bool // node keys with their pc
	r      *runner         // for eval
	err    error           // too many nodes
}

// maxNodes bounds the nodes of one process.
const maxNodes = 100_000

// walk runs process pi from every initial choice of its "*" locals.
func (p *Program) walk(pi int, m wmodel, cand [][]int64, o WeakOptions) (*ptree, error) {
	q := p.procs[pi]
	w := &walker{p: p, m: m, q: q, cand: cand, unroll: o.Unroll, fences: o.Fences,
		tree: &ptree{written: map[int]map[int64]bool{}}, seen: map[string]bool{}, r: &runner{p: p}}
	inits := [][]int64{append([]int64(nil), q.linit...)}
	for k, a := range q.linitAny {
		if !a {
			continue
		}
		var next [][]int64
		for _, l := range inits {
			for _, v := range p.values {
				t := append([]int64(nil), l...)
				t[k] = v
				next = append(next, t)
			}
		}
		inits = next
	}
	for _, l := range inits {
		w.run(&wpath{loc: l, taint: make([]bset, len(l)), backs: map[int]int{}, lastW: map[int]int{}})
		if w.r.err != nil {
			return nil, w.r.err
		}
		if w.err != nil {
			return nil, w.err
		}
	}
	return w.tree, nil
}

// record adds the node s is at (once per pc and events).
func (w *walker) record(s *wpath, bad bool) {
	key := eventsKey(s.evs)
	pc := s.pc
	if bad {
		pc = -1
	}
	k := fmt.Sprintf("%d|%s", pc, key)
	if w.seen[k] {
		return
	}
	w.seen[k] = true
	if len(w.tree.nodes) >= maxNodes {
		if w.err == nil {
			w.err = fmt.Errorf("refsem: process %s has more than %d nodes: %w", w.q.name, maxNodes, ErrTooManyExecutions)
		}
		return
	}
	w.tree.nodes = append(w.tree.nodes, &pnode{evs: s.evs, pc: pc, bad: bad, key: key})
	w.tree.maxWrites = max(w.tree.maxWrites, s.nwrites)
}

func eventsKey(evs []wevent) string {
	var b strings.Builder
	for _, e := range evs {
		fmt.Fprintf(&b, "%d%v%v%v%v%d%d%v%v%v%d%v;", e.pc, e.reads, e.writes, e.atomic, e.fence, e.orders, e.ann,
			e.addr, e.data, e.ctrl, e.lrsSrc, e.lrsDep)
	}
	return b.String()
}

// goTo moves s to pc, counting jumps back; false when the unroll bound
// cuts the path.
func (w *walker) goTo(s *wpath, pc int) bool {
	if pc <= s.pc {
		s.backs[pc]++
		if s.backs[pc] > w.unroll {
			w.tree.cut = true
			return false
		}
	}
	s.pc = pc
	return true
}

// taintOf is the set of events the value of e depends on, given the
// taints of the instruction's reads.
func (w *walker) taintOf(e *expr, s *wpath, rt []bset) bset {
	if e == nil {
		return nil
	}
	switch e.kind {
	case eLocal:
		return s.taint[e.idx]
	case eRead:
		return rt[e.idx]
	case eUnary:
		return w.taintOf(e.x, s, rt)
	case eBinary:
		return w.taintOf(e.x, s, rt).union(w.taintOf(e.y, s, rt))
	}
	return nil
}

func (s *wpath) localsTaint(slots []int) bset {
	var t bset
	for _, l := range slots {
		t = t.union(s.taint[l])
	}
	return t
}

// add appends event e to s's path and returns its index.
func (w *walker) add(s *wpath, e wevent) int {
	k := len(s.evs)
	s.evs = append(s.evs, e)
	for _, a := range e.writes {
		s.lastW[a.v] = k
		w.note(a.v, a.val)
	}
	if len(e.writes) > 0 {
		s.nwrites++
	}
	return k
}

func (w *walker) note(v int, val int64) {
	if w.tree.written[v] == nil {
		w.tree.written[v] = map[int64]bool{}
	}
	w.tree.written[v][val] = true
}

// readEvent appends the read of variable v with value val by the
// instruction in; it returns the taint of the value read.
func (w *walker) readEvent(s *wpath, in *instr, v int, val int64, own bool) bset {
	e := wevent{pc: s.pc, reads: []acc{{v, val}}, ctrl: s.ctrl, lrsSrc: -1}
	if own { // the instruction's access is this read (acquire r = x;)
		e.ann = in.ann & (cs.Acquire | cs.AcquirePC)
		e.addr = s.localsTaint(in.addr)
	}
	if k, ok := s.lastW[v]; ok {
		e.lrsSrc = k
		src := &s.evs[k]
		e.lrsDep = src.addr.union(src.data)
	}
	k := w.add(s, e)
	t := bset(nil).with(k)
	if w.m == wArm {
		// aarch64deps.cat: dependencies run through registers and
		// through memory by lrs (dtrm = rf-reg | lrs | iico_data).
		t = t.union(e.lrsDep)
	}
	return t
}

// run explores every path from s (which it owns).
func (w *walker) run(s *wpath) {
	if w.err != nil {
		return
	}
	w.record(s, false)
	in := &w.q.code[s.pc]
	if in.kind == iEnd {
		return
	}
	own := in.kind == iAssign && len(in.reads) == 1
	w.reads(s, in, 0, nil, nil, own)
}

// reads performs the reads of in from the k-th on, every value a
// candidate, then its effect.
func (w *walker) reads(s *wpath, in *instr, k int, rv []int64, rt []bset, own bool) {
	if k == len(in.reads) {
		w.effect(s, in, rv, rt)
		return
	}
	v := in.reads[k]
	vals := w.cand[v]
	for i, val := range vals {
		t := s
		if i < len(vals)-1 {
			t = s.clone()
		}
		taint := w.readEvent(t, in, v, val, own)
		w.reads(t, in, k+1, append(rv[:k:k], val), append(rt[:k:k], taint), own)
	}
}

// next moves s to pc and goes on, unless the unroll bound cuts it.
func (w *walker) next(s *wpath, pc int) {
	if w.goTo(s, pc) {
		w.run(s)
	}
}

// effect is the instruction's own step, after its reads.
func (w *walker) effect(s *wpath, in *instr, rv []int64, rt []bset) {
	r := w.r
	switch in.kind {
	case iNop, iGoto:
		w.next(s, in.next)
	case iAssign:
		s.loc[in.dst] = r.eval(in.e, rv, s.loc, nil)
		s.taint[in.dst] = w.taintOf(in.e, s, rt)
		w.next(s, in.next)
	case iHavoc:
		for i, v := range w.p.values {
			t := s
			if i < len(w.p.values)-1 {
				t = s.clone()
			}
			t.loc[in.dst] = v
			t.taint[in.dst] = nil
			w.next(t, in.next)
		}
	case iWrite, iHavocWrite, iWritePending:
		vals := w.p.values
		data := bset(nil)
		switch in.kind {
		case iWrite:
			vals = []int64{r.eval(in.e, rv, s.loc, nil)}
			data = w.taintOf(in.e, s, rt)
		case iWritePending:
			vals = []int64{s.pend}
			data = s.pendT
		}
		for i, v := range vals {
			t := s
			if i < len(vals)-1 {
				t = s.clone()
			}
			w.add(t, wevent{pc: t.pc, writes: []acc{{in.dst, v}}, ann: in.ann & cs.Release,
				addr: t.localsTaint(in.addr), data: data, ctrl: t.ctrl, lrsSrc: -1})
			w.next(t, in.next)
		}
	case iAssume:
		s.ctrl = s.ctrl.union(w.taintOf(in.e, s, rt))
		if r.eval(in.e, rv, s.loc, nil) != 0 {
			w.next(s, in.next)
		}
	case iAssert:
		s.ctrl = s.ctrl.union(w.taintOf(in.e, s, rt))
		if r.eval(in.e, rv, s.loc, nil) == 0 {
			w.record(s, true)
			return
		}
		w.next(s, in.next)
	case iBranch:
		s.ctrl = s.ctrl.union(w.taintOf(in.e, s, rt))
		if r.eval(in.e, rv, s.loc, nil) != 0 {
			w.next(s, in.next)
		} else {
			w.next(s, in.alt)
		}
	case iBranchAny:
		w.next(s.clone(), in.next)
		w.next(s, in.alt)
	case iFence:
		w.fence(s, in.fkind.Orders(), in.fkind == cs.FullFence)
		w.next(s, in.next)
	case iSiteFence:
		if k, ok := w.fences[in.key]; ok {
			w.fence(s, k.Orders(), k == cs.FullFence)
		}
		w.next(s, in.next)
	case iStoreFence:
		w.fence(s, cs.StoreStore, false)
		w.next(s, in.next)
	case iCall:
		w.call(s, in, rv, rt)
	case iAtomic:
		w.atomicBlock(s, in)
	default:
		panic(fmt.Sprintf("refsem: instruction kind %d", in.kind))
	}
}

// fence appends a fence event (full: of kind cs.FullFence); under the
// store-buffer models its ordering is what they know of it (a full fence
// with store→load order, else a store fence, else nothing).
func (w *walker) fence(s *wpath, o cs.Ordering, full bool) {
	if !w.m.weak() {
		switch {
		case o&cs.StoreLoad != 0:
			o = cs.AllOrders
		case o&cs.StoreStore != 0:
			o = cs.StoreStore
		default:
			return
		}
	}
	w.add(s, wevent{pc: s.pc, fence: true, orders: o, full: full, ctrl: s.ctrl, lrsSrc: -1})
}

// call is cas, fetch_add or swap: one atomic event that reads the target
// (every candidate value) and writes it (a failing cas only reads).
func (w *walker) call(s *wpath, in *instr, rv []int64, rt []bset) {
	r := w.r
	a := r.eval(in.e, rv, s.loc, nil)
	data := w.taintOf(in.e, s, rt)
	if in.e2 != nil {
		data = data.union(w.taintOf(in.e2, s, rt))
	}
	vals := w.cand[in.target]
	for i, old := range vals {
		t := s
		if i < len(vals)-1 {
			t = s.clone()
		}
		e := wevent{pc: t.pc, atomic: true, ann: in.ann, reads: []acc{{in.target, old}},
			addr: t.localsTaint(in.addr), data: data, ctrl: t.ctrl, lrsSrc: -1}
		var res int64
		switch in.call {
		case "cas":
			if old == a {
				e.writes = []acc{{in.target, r.eval(in.e2, rv, t.loc, nil)}}
				res = 1
			}
		case "fetch_add":
			v, ok := binop(cs.ADD, old, a)
			if !ok && r.err == nil {
				r.err = ErrOverflow
			}
			e.writes = []acc{{in.target, v}}
			res = old
		case "swap":
			e.writes = []acc{{in.target, a}}
			res = old
		}
		k := w.add(t, e)
		if in.resShared {
			t.pend, t.pendT = res, bset(nil).with(k)
		} else {
			t.loc[in.dst] = res
			t.taint[in.dst] = bset(nil).with(k)
		}
		w.next(t, in.next)
	}
}

// atomicBlock runs an atomic block as one event: its reads are the
// variables it reads before writing them (every candidate value), its
// writes the last value it writes to each variable.
func (w *walker) atomicBlock(s *wpath, in *instr) {
	var vars []int
	seen := map[int]bool{}
	var collect func(list []astmt)
	collect = func(list []astmt) {
		for _, a := range list {
			for _, v := range sharedOf(a.e, nil) {
				if !seen[v] {
					seen[v] = true
					vars = append(vars, v)
				}
			}
			collect(a.then)
			collect(a.els)
		}
	}
	collect(in.body)
	sort.Ints(vars)
	// Every choice of the values of the variables the block reads.
	views := [][]int64{make([]int64, len(w.p.shared))}
	for _, v := range vars {
		var next [][]int64
		for _, m := range views {
			for _, val := range w.cand[v] {
				t := append([]int64(nil), m...)
				t[v] = val
				next = append(next, t)
			}
		}
		views = next
	}
	var used []int
	for _, a := range in.body {
		used = append(used, localsOf(a)...)
	}
	data := s.localsTaint(used)
	done := map[string]bool{}
	var outs []aoutcome
	for _, view := range views {
		for _, o := range w.atomicRun(in.body, aoutcome{mem: view, loc: s.loc, written: map[int]bool{}, read: map[int]bool{}}) {
			// the locals assigned too: a path that assigns a local its
			// own value gives it the block's taint, one that leaves it
			// keeps its taint (a CAS whose compare register may keep
			// its value or take the value read)
			k := fmt.Sprint(o.reads, o.writes(), o.loc, o.bad, o.assignedList())
			if !done[k] {
				done[k] = true
				outs = append(outs, o)
			}
		}
	}
	for i, o := range outs {
		t := s
		if i < len(outs)-1 {
			t = s.clone()
		}
		k := w.add(t, wevent{pc: t.pc, atomic: true, ann: in.ann, reads: o.reads, writes: o.writes(),
			data: data, ctrl: t.ctrl, lrsSrc: -1})
		for l := range o.loc {
			if o.loc[l] != t.loc[l] || o.assigned[l] {
				t.taint[l] = bset(nil).with(k)
			}
		}
		t.loc = o.loc
		if o.bad {
			w.record(t, true)
			continue
		}
		w.next(t, in.next)
	}
}

// aoutcome is one way an atomic block can run.
type aoutcome struct {
	mem      []int64
	loc      []int64
	written  map[int]bool // variables written (in order in worder)
	worder   []int
	read     map[int]bool // variables read before written
	reads    []acc
	assigned map[int]bool
	bad      bool
}

// assignedList is the sorted list of the locals o assigned.
func (o aoutcome) assignedList() []int {
	var out []int
	for l, ok := range o.assigned {
		if ok {
			out = append(out, l)
		}
	}
	sort.Ints(out)
	return out
}

func (o aoutcome) writes() []acc {
	var out []acc
	for _, v := range o.worder {
		out = append(out, acc{v, o.mem[v]})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].v < out[j].v })
	return out
}

func (o aoutcome) clone() aoutcome {
	t := o
	t.mem = append([]int64(nil), o.mem...)
	t.loc = append([]int64(nil), o.loc...)
	t.written, t.read, t.assigned = map[int]bool{}, map[int]bool{}, map[int]bool{}
	for k := range o.written {
		t.written[k] = true
	}
	for k := range o.read {
		t.read[k] = true
	}
	for k := range o.assigned {
		t.assigned[k] = true
	}
	t.worder = append([]int(nil), o.worder...)
	t.reads = append([]acc(nil), o.reads...)
	return t
}

// eval evaluates e in the block, noting the variables read before being
// written.
func (w *walker) aeval(e *expr, o *aoutcome) int64 {
	for _, v := range sharedOf(e, nil) {
		if !o.written[v] && !o.read[v] {
			o.read[v] = true
			o.reads = append(o.reads, acc{v, o.mem[v]})
		}
	}
	return w.r.eval(e, nil, o.loc, o.mem)
}

func (w *walker) atomicRun(list []astmt, o aoutcome) []aoutcome {
	o = o.clone()
	for i, a := range list {
		switch a.kind {
		case aAssign, aWrite:
			v := w.aeval(a.e, &o)
			w.aset(&o, a.kind == aWrite, a.dst, v)
		case aHavoc, aHavocWrite:
			var outs []aoutcome
			for _, v := range w.p.values {
				t := o.clone()
				w.aset(&t, a.kind == aHavocWrite, a.dst, v)
				outs = append(outs, w.atomicRun(list[i+1:], t)...)
			}
			return outs
		case aAssume:
			if w.aeval(a.e, &o) == 0 {
				return nil
			}
		case aAssert:
			if w.aeval(a.e, &o) == 0 {
				o.bad = true
				return []aoutcome{o}
			}
		case aIf, aIfAny:
			rest := list[i+1:]
			branch := func(body []astmt) []aoutcome {
				return w.atomicRun(append(append([]astmt(nil), body...), rest...), o)
			}
			if a.kind == aIfAny {
				return append(branch(a.then), branch(a.els)...)
			}
			if w.aeval(a.e, &o) != 0 {
				return branch(a.then)
			}
			return branch(a.els)
		}
	}
	return []aoutcome{o}
}

func (w *walker) aset(o *aoutcome, shared bool, slot int, v int64) {
	if shared {
		o.mem[slot] = v
		if !o.written[slot] {
			o.written[slot] = true
			o.worder = append(o.worder, slot)
		}
		w.note(slot, v)
		return
	}
	o.loc[slot] = v
	o.assigned[slot] = true
}

// sharedOf appends the shared variables e reads inside an atomic block.
func sharedOf(e *expr, out []int) []int {
	if e == nil {
		return out
	}
	switch e.kind {
	case eShared:
		out = append(out, e.idx)
	case eUnary:
		out = sharedOf(e.x, out)
	case eBinary:
		out = sharedOf(e.y, sharedOf(e.x, out))
	}
	return out
}

// localsOf lists the locals a statement of an atomic block uses.
func localsOf(a astmt) []int {
	var out []int
	var rec func(e *expr)
	rec = func(e *expr) {
		if e == nil {
			return
		}
		if e.kind == eLocal {
			out = append(out, e.idx)
		}
		rec(e.x)
		rec(e.y)
	}
	rec(a.e)
	for _, b := range a.then {
		out = append(out, localsOf(b)...)
	}
	for _, b := range a.els {
		out = append(out, localsOf(b)...)
	}
	return out
}
