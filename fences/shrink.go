package fences

import (
	"slices"
	"strconv"
	"strings"

	"fencer/cs"
	"fencer/kabs"
	"fencer/memmodel"
)

// DefaultShrinkLimit is the number of states Shrink may visit in all when
// its caller gives no limit: a few milliseconds to tens of milliseconds of
// work, against explorations of thousands to millions of states.
const DefaultShrinkLimit = 20000

// One search of Shrink visits at most a quarter of its limit, so that a
// search that finds nothing leaves room for the others.
const searchShare = 4

// Shrunk is what Shrink found.
type Shrunk struct {
	// Set is the smallest candidate set found: that of Run, or that of the
	// trace given when OK is false.
	Set []Element
	OK  bool
	// Run is a run of the system to a bad state whose candidate set is
	// Set, and States its states (memmodel.Concrete.Replay); nil when OK is
	// false.
	Run    *memmodel.Trace
	States []*memmodel.State
	// Searched is the number of states the searches visited.
	Searched int
}

// Shrink looks for a real counterexample whose candidate set (Blocking) is
// a proper subset of that of tr: a run of sys (without fences) to a bad
// state that fewer elements block. tr is a run of sys to a bad state and
// states its states (memmodel.Concrete.Replay); store is Blocking's.
//
// It goes through the elements s of the candidate set C of tr, in order:
// with S the smallest candidate set found so far, it searches for a run
// that no full fence outside S\{s} blocks, made of the same steps as tr
// (each process takes the edges it took in tr, in order, with the same
// havoc values, or a prefix of them; only the interleaving and the flushes
// are chosen), by a depth-first search over the concrete semantics that
// tries tr's own order first and takes a step of a process that touches
// only its own locals and buffers, and enters or leaves no location of a
// bad state, as soon as it is enabled (such a step commutes with every
// other: a partial-order reduction). A run found is replayed from scratch by c
// (memmodel.Concrete.Replay) and kept only when it ends in a bad state and
// its candidate set, computed by Blocking, is non-empty and contained in
// S\{s}; S becomes that set. Store fences are not modelled in the search,
// only in that check.
//
// So whatever it returns is the candidate set of a real run of sys, which
// every fence set disjoint from it keeps (Candidates): every correct fence
// set hits it, and since it is inside C, hitting it implies hitting C. The
// search visits at most limit states in all (≤ 0: DefaultShrinkLimit);
// when it runs out, the smallest set found so far stands. The result
// depends on nothing but the arguments.
//
// Shrunk says what it found.
func Shrink(sys *cs.System, c *memmodel.Concrete, tr *memmodel.Trace, states []*memmodel.State, store bool, limit int) Shrunk {
	if limit <= 0 {
		limit = DefaultShrinkLimit
	}
	full := Blocking(sys, c, tr, states, store)
	res := Shrunk{Set: full}
	sh := newShrinker(sys, c, tr, limit)
	for _, s := range full {
		if !slices.Contains(res.Set, s) {
			continue
		}
		target := without(res.Set, s)
		if !sh.mayBlock(target) {
			continue // every run found would have an empty candidate set
		}
		cand, found := sh.search(target)
		if sh.left <= 0 && !found {
			break
		}
		if !found {
			continue
		}
		st, err := c.Replay(cand)
		if err != nil || !c.IsBadState(st[len(st)-1]) {
			continue
		}
		b := Blocking(sys, c, cand, st, store)
		if len(b) == 0 || !Subset(b, target) {
			continue
		}
		res = Shrunk{Set: b, OK: true, Run: cand, States: st}
	}
	res.Searched = limit - sh.left
	return res
}

// without returns set with e left out.
func without(set []Element, e Element) []Element {
	out := make([]Element, 0, len(set))
	for _, x := range set {
		if x != e {
			out = append(out, x)
		}
	}
	return out
}

// Subset reports whether every element of a is in b.
func Subset(a, b []Element) bool {
	for _, x := range a {
		if !slices.Contains(b, x) {
			return false
		}
	}
	return true
}

// shrinker holds what the searches of one Shrink share: tr cut into the
// steps of each process, and the budget of states.
type shrinker struct {
	sys    *cs.System
	c      *memmodel.Concrete
	ns     int
	perVar bool // PSO: one buffer per process and variable
	// ops[p] are the operation steps of process p in tr, in order; at[p]
	// their indices in tr.
	ops [][]memmodel.Step
	at  [][]int
	// flushAt[p*ns+x] are the indices in tr of p's flushes of x, in order.
	flushAt [][]int
	init    []int64
	visible [][]bool // kabs.Visibility
	left    int      // states the searches may still visit
	share   int      // states one search may visit
	// for one search:
	fenced  map[int]bool // sites where a full fence is assumed
	visited map[string]bool
	steps   []memmodel.Step
	here    int // states this search may still visit
}

func newShrinker(sys *cs.System, c *memmodel.Concrete, tr *memmodel.Trace, limit int) *shrinker {
	n, ns := len(sys.Procs), c.NumShared()
	sh := &shrinker{sys: sys, c: c, ns: ns, perVar: c.Model.Layout() == memmodel.PerVariable,
		ops: make([][]memmodel.Step, n), at: make([][]int, n),
		flushAt: make([][]int, n*ns), init: tr.Init, visible: kabs.Visibility(sys), left: limit,
		share: max(1, limit/searchShare)}
	for i, st := range tr.Steps {
		if st.IsFlush() {
			if k := st.Proc*ns + st.Var; st.Var >= 0 && st.Var < ns {
				sh.flushAt[k] = append(sh.flushAt[k], i)
			}
			continue
		}
		sh.ops[st.Proc] = append(sh.ops[st.Proc], st)
		sh.at[st.Proc] = append(sh.at[st.Proc], i)
	}
	return sh
}

// node is a state of the search: the concrete state, how many of its
// operations each process has taken, whether each must find its buffers
// empty at its next operation (it passed a fenced site), and how many
// writes of each (process, variable) have reached memory.
type node struct {
	s       *memmodel.State
	pos     []int
	pending []bool
	flushed []int
}

// search looks for a run of the steps of tr that passes no full fence
// outside target with a non-empty buffer and ends in a bad state.
func (sh *shrinker) search(target []Element) (*memmodel.Trace, bool) {
	sh.fenced = map[int]bool{}
	for id := range sh.sys.Sites {
		if sh.fullCandidate(id) && !slices.Contains(target, Element{Site: id, Kind: cs.FullFence}) {
			sh.fenced[id] = true
		}
	}
	s0, err := sh.c.InitialFrom(sh.init)
	if err != nil {
		return nil, false
	}
	n := len(sh.sys.Procs)
	root := &node{s: s0, pos: make([]int, n), pending: make([]bool, n), flushed: make([]int, n*sh.ns)}
	sh.visited = map[string]bool{}
	sh.steps = sh.steps[:0]
	sh.here = min(sh.share, sh.left)
	if !sh.dfs(root) {
		return nil, false
	}
	return &memmodel.Trace{Init: sh.init, Steps: slices.Clone(sh.steps)}, true
}

// fullCandidate reports whether Blocking can return a full fence at site
// id (a foreign reader writes fences only at some points).
func (sh *shrinker) fullCandidate(id int) bool {
	s := sh.sys.Sites[id]
	return sh.sys.Reader == nil || s.AfterAWrite() || s.Fence
}

// move is a step the search may take from a node, with the index in tr of
// the step it stands for (past every index when none: a flush tr does not
// make), to try tr's order first.
type move struct {
	st   memmodel.Step
	rank int
}

// dfs searches from v for a bad state, appending the steps taken to
// sh.steps; it reports whether it found one (sh.steps then leads there).
func (sh *shrinker) dfs(v *node) bool {
	if sh.c.IsBadState(v.s) {
		return true
	}
	if sh.here <= 0 {
		return false
	}
	k := sh.key(v)
	if sh.visited[k] {
		return false
	}
	sh.visited[k] = true
	sh.left--
	sh.here--
	if m, w, ok := sh.localStep(v); ok {
		sh.steps = append(sh.steps, m)
		if sh.dfs(w) {
			return true
		}
		sh.steps = sh.steps[:len(sh.steps)-1]
		return false
	}
	for _, m := range sh.moves(v) {
		w := sh.apply(v, m.st)
		if w == nil {
			continue
		}
		sh.steps = append(sh.steps, m.st)
		if sh.dfs(w) {
			return true
		}
		sh.steps = sh.steps[:len(sh.steps)-1]
		if sh.here <= 0 {
			return false
		}
	}
	return false
}

// localStep returns the next operation of the first process whose next
// operation is enabled, touches only its locals and its own buffers (an
// assignment, an assume, a havoc, a write, a full fence: under TSO and PSO
// their guards read only locals, kabs.Abs.Local) and neither leaves nor
// enters a location of a bad state, with the node it leads to. Such a step
// commutes with every step of another process and with the flushes (a
// flush only empties a buffer, which keeps the step enabled), stays
// enabled until it is taken and does not change whether a state is bad,
// so taking it at once loses no run to a bad state: the search has no
// cycle (every step takes an operation or flushes a write), so that is the
// whole of the partial-order argument.
func (sh *shrinker) localStep(v *node) (memmodel.Step, *node, bool) {
	for p, ops := range sh.ops {
		i := v.pos[p]
		if i >= len(ops) {
			continue
		}
		st := ops[i]
		e := sh.sys.Procs[p].Edges[st.Edge]
		switch e.Op.Kind {
		case cs.OpAssign, cs.OpAssume, cs.OpHavoc, cs.OpWrite:
		case cs.OpFence:
			if e.Op.Fence != cs.FullFence {
				continue
			}
		default:
			continue
		}
		if sh.visible[p][e.From] || sh.visible[p][e.To] {
			continue
		}
		if w := sh.apply(v, st); w != nil {
			return st, w, true
		}
	}
	return memmodel.Step{}, nil, false
}

// mayBlock reports whether a run of tr's steps that passes no fenced site
// (outside target) with a non-empty buffer could pass an element of
// target so: whether some process passes a point of target after an
// operation that has a next one, with a write of its own before it that
// nothing forces to memory in between (a fenced point passed before a next
// operation, an atomic block, a full fence). When none can, every such run
// has an empty candidate set and Shrink would not keep it.
func (sh *shrinker) mayBlock(target []Element) bool {
	inTarget := map[int]bool{}
	for _, e := range target {
		inTarget[e.Site] = true
	}
	fenced := func(id int) bool {
		return sh.fullCandidate(id) && !slices.Contains(target, Element{Site: id, Kind: cs.FullFence})
	}
	for p, ops := range sh.ops {
		live := false // a write of p may be buffered
		for i, st := range ops {
			op := sh.sys.Procs[p].Edges[st.Edge].Op
			switch {
			case op.Kind == cs.OpAtomic, op.Kind == cs.OpFence && op.Fence == cs.FullFence:
				live = false
			case op.Kind == cs.OpWrite:
				live = true
			}
			if i+1 >= len(ops) {
				break
			}
			points := sh.sys.Procs[p].Edges[st.Edge].Points
			if slices.ContainsFunc(points, fenced) {
				live = false
				continue
			}
			if live && slices.ContainsFunc(points, func(id int) bool { return inTarget[id] }) {
				return true
			}
		}
	}
	return false
}

// key identifies a node: the state and the progress of each process.
func (sh *shrinker) key(v *node) string {
	var b strings.Builder
	b.WriteString(v.s.Key())
	for p, i := range v.pos {
		b.WriteByte('|')
		b.WriteString(strconv.Itoa(i))
		if v.pending[p] {
			b.WriteByte('!')
		}
	}
	return b.String()
}

// moves lists the next operation of each process that has one left and
// the flushes of the oldest buffered writes, in the order of the steps of
// tr they stand for.
func (sh *shrinker) moves(v *node) []move {
	never := 1 << 30
	var out []move
	for p := range sh.ops {
		if i := v.pos[p]; i < len(sh.ops[p]) {
			out = append(out, move{st: sh.ops[p][i], rank: sh.at[p][i]})
		}
		for x := 0; x < sh.ns; x++ {
			if !sh.canFlush(v.s, p, x) {
				continue
			}
			r, k := never, p*sh.ns+x
			if f := v.flushed[k]; f < len(sh.flushAt[k]) {
				r = sh.flushAt[k][f]
			}
			out = append(out, move{st: memmodel.Step{Proc: p, Edge: -1, Var: x}, rank: r})
		}
	}
	slices.SortStableFunc(out, func(a, b move) int { return a.rank - b.rank })
	return out
}

// canFlush reports whether p has a buffered write of x at the head of a
// buffer (Concrete.Apply decides whether the flush is enabled).
func (sh *shrinker) canFlush(s *memmodel.State, p, x int) bool {
	if sh.perVar {
		return len(s.Buf[p*sh.ns+x]) > 0
	}
	b := s.Buf[p]
	return len(b) > 0 && b[0].Var == x
}

// apply takes step st from v, or returns nil when it is not enabled, in
// the semantics or because its process passed a fenced site with writes
// still buffered.
func (sh *shrinker) apply(v *node, st memmodel.Step) *node {
	p := st.Proc
	if !st.IsFlush() && v.pending[p] && !sh.c.BufEmpty(v.s, p) {
		return nil
	}
	t, err := sh.c.Apply(v.s, st)
	if err != nil {
		return nil
	}
	w := &node{s: t, pos: v.pos, pending: v.pending, flushed: v.flushed}
	if st.IsFlush() {
		w.flushed = slices.Clone(v.flushed)
		w.flushed[p*sh.ns+st.Var]++
		return w
	}
	w.pos = slices.Clone(v.pos)
	w.pos[p]++
	w.pending = slices.Clone(v.pending)
	w.pending[p] = false
	for _, id := range sh.sys.Procs[p].Edges[st.Edge].Points {
		if sh.fenced[id] {
			w.pending[p] = true
		}
	}
	return w
}
