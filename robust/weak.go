package robust

import (
	"math/bits"

	"fencer/cs"
	"fencer/memmodel"
)

// This file is the analysis under the models with Axioms (memmodel.ARM,
// RISCV, RMO): which paths between the two accesses of a relaxed pair leave
// them unordered (doc.go, "Models with axioms").

// ModelAccess is the access as the model's preserved program order sees it
// (memmodel.Model.Keeps): its kind, its annotation, and whether it belongs
// to an atomic step (whose accesses carry the step's annotation: a relaxed
// atomic step orders nothing by itself).
func (a *Access) ModelAccess() memmodel.Access {
	k := cs.OpRead
	if a.Write {
		k = cs.OpWrite
	}
	return memmodel.Access{Kind: k, Ann: a.Ann, Atomic: a.Atomic}
}

// An access class is what Keeps and the fences look at in an access: read
// or write (bit 0), in an atomic step (bit 1), its annotation (bits 2–4),
// and for the read of an atomic step whether it returns no value (bit 5,
// cs.NoRet: only a full barrier orders it).
const numClasses = 64

const noRetClass = 1 << 5

func classOf(write, atomic bool, ann cs.Ann) int {
	c := int(ann&(cs.Acquire|cs.AcquirePC|cs.Release)) << 2
	if atomic && !write && ann&cs.NoRet != 0 {
		c |= noRetClass
	}
	if write {
		c |= 1
	}
	if atomic {
		c |= 2
	}
	return c
}

func classKind(c int) cs.OpKind {
	if c&1 != 0 {
		return cs.OpWrite
	}
	return cs.OpRead
}

func classAccess(c int) memmodel.Access {
	return memmodel.Access{Kind: classKind(c), Atomic: c&2 != 0, Ann: cs.Ann(c>>2) & (cs.Acquire | cs.AcquirePC | cs.Release)}
}

func (a *Access) class() int { return classOf(a.Write, a.Atomic, a.Ann) }

// weak reports whether the graph is analysed under a model with Axioms.
func (g *Graph) weak() bool { return g.model != nil && g.model.Axioms() != nil }

// setModel makes m the model of g's path questions.
func (g *Graph) setModel(m memmodel.Model) {
	g.model = m
	if m == nil || m.Axioms() == nil {
		return
	}
	// An atomic step's read and write order what m says each orders.
	for _, a := range g.Acc {
		if a.Atomic {
			a.Ann = memmodel.RMWAnn(m, a.StepAnn, a.Write) | a.StepAnn&cs.NoRet
		}
	}
	var t [numClasses][numClasses]bool
	for c := range t {
		for d := range t[c] {
			t[c][d] = m.Keeps(classAccess(c), classAccess(d))
		}
	}
	g.keeps = &t
}

// chain summarises the prefix of a path that starts right after the first
// access a of a pair: for each access class, whether some access of the
// prefix of that class (a itself included) is ordered after a by the
// model, and then which pairs the fences passed since the first such
// access keep. Entry c is 0 when no such access is known, else
// chainHas|the cs.Ordering of those fences. (Of two ordered accesses of
// one class the earlier has passed every fence the later has, so it is the
// one to keep.)
//
// An access e is ordered after a when a is kept before e by a chain
// a = e0, e1, …, en = e of accesses of the path each kept before the next,
// by Keeps or by a fence between them of a kind that keeps their kinds;
// every link is an edge of ppo ∪ fences, so a cycle through the pair is a
// cycle of the model's order relation, which it forbids.
type chain [numClasses]uint8

const chainHas = 0x10

// ordered reports whether an access of class d after the prefix is
// ordered after a.
func (g *Graph) ordered(ch *chain, d int) bool {
	for c, v := range ch {
		if v == 0 {
			continue
		}
		if g.keeps[c][d] || cs.Ordering(v&0xf).Has(classKind(c), classKind(d)) {
			return true
		}
	}
	return false
}

// visit extends the prefix by an access of class d.
func (g *Graph) visit(ch *chain, d int) {
	if ch[d] == 0 && g.ordered(ch, d) {
		ch[d] = chainHas
	}
}

// fence extends the prefix by a fence that keeps the pairs o (full: one
// of the fences is a full barrier, which alone orders a NoRet read).
func (ch *chain) fence(o cs.Ordering, full bool) {
	for c, v := range ch {
		if v != 0 && (c&noRetClass == 0 || full) {
			ch[c] = v | uint8(o)
		}
	}
}

// installed is what the fences installed at the sites of points keep
// together (two fences in a row keep what either keeps), and whether one
// is a full barrier.
func installed(points []int, kinds map[int]cs.FenceKind) (o cs.Ordering, full bool) {
	for _, id := range points {
		if k, ok := kinds[id]; ok {
			o |= k.Orders()
			full = full || k == cs.FullFence
		}
	}
	return o, full
}

// step extends the prefix by edge e, followed by the fences installed at
// its points.
func (g *Graph) step(ch chain, e *cs.Edge, kinds map[int]cs.FenceKind) chain {
	switch e.Op.Kind {
	case cs.OpFence:
		ch.fence(e.Op.Fence.Orders(), e.Op.Fence == cs.FullFence)
	case cs.OpRead, cs.OpWrite:
		g.visit(&ch, classOf(e.Op.Kind == cs.OpWrite, false, e.Op.Ann))
	case cs.OpAtomic:
		for _, b := range e.Op.Body {
			if b.Kind == cs.OpRead || b.Kind == cs.OpWrite {
				g.visit(&ch, classOf(b.Kind == cs.OpWrite, true, memmodel.RMWAnn(g.model, AtomicAnn(e.Op), b.Kind == cs.OpWrite)|AtomicAnn(e.Op)&cs.NoRet))
			}
		}
	}
	if o, full := installed(e.Points, kinds); o != 0 {
		ch.fence(o, full)
	}
	return ch
}

// start is the prefix of no edge after a: a itself, then the fences
// installed at the points of a's edge (passed right after it). Accesses of
// a's atomic step after a count for nothing (they could only order more).
func (g *Graph) start(a int, kinds map[int]cs.FenceKind) chain {
	x := g.Acc[a]
	var ch chain
	ch[x.class()] = chainHas
	o, full := installed(g.Sys.Procs[x.Proc].Edges[x.Edge].Points, kinds)
	ch.fence(o, full)
	return ch
}

// wnode is a node of the product of a process's automaton and the chains.
type wnode struct {
	loc cs.Loc
	ch  chain
}

// weakFreePath is FreePath under a model with Axioms, with fences of
// kinds[id] at the sites id of kinds: a shortest path of a's process from
// the end of a's edge to the start of b's edge along which b is not
// ordered after a (no chain of Keeps and fences that keep their pair of
// kinds, program fences and installed ones alike, leads from a to b). The
// accesses of b's atomic step before b count for nothing.
func (g *Graph) weakFreePath(a, b int, kinds map[int]cs.FenceKind) (Path, bool) {
	x, y := g.Acc[a], g.Acc[b]
	if x.Proc != y.Proc {
		return nil, false
	}
	proc := g.Sys.Procs[x.Proc]
	src, dst := proc.Edges[x.Edge].To, proc.Edges[y.Edge].From
	cb := y.class()
	s := wnode{src, g.start(a, kinds)}
	if g.ordered(&s.ch, cb) {
		return nil, false
	}
	if src == dst {
		return nil, true
	}
	type link struct {
		prev wnode
		edge int
	}
	parent := map[wnode]link{s: {edge: -1}}
	queue := []wnode{s}
	for len(queue) > 0 {
		n := queue[0]
		queue = queue[1:]
		for _, ei := range proc.Out[n.loc] {
			e := &proc.Edges[ei]
			// Chains only grow along a path: once b is ordered, it stays so.
			m := wnode{e.To, g.step(n.ch, e, kinds)}
			if _, seen := parent[m]; seen || g.ordered(&m.ch, cb) {
				continue
			}
			parent[m] = link{n, ei}
			if m.loc == dst {
				var path Path
				for l := parent[m]; l.edge >= 0; l = parent[l.prev] {
					path = append(path, l.edge)
				}
				for i, j := 0, len(path)-1; i < j; i, j = i+1, j-1 {
					path[i], path[j] = path[j], path[i]
				}
				return path, true
			}
			queue = append(queue, m)
		}
	}
	return nil, false
}

// needs adds to need, for every fence site on a free path of the pair
// (a, b) with no fence installed (the points of a's edge, and of every
// edge of such a path), the pair of kinds of a and b: a fence there that
// keeps it cuts every free path through the site.
func (g *Graph) needs(a, b int, need map[int]cs.Ordering) {
	x, y := g.Acc[a], g.Acc[b]
	if x.Proc != y.Proc {
		return
	}
	proc := g.Sys.Procs[x.Proc]
	src, dst := proc.Edges[x.Edge].To, proc.Edges[y.Edge].From
	cb := y.class()
	pair := pairOrdering(x.ModelAccess().Kind, y.ModelAccess().Kind)
	s := wnode{src, g.start(a, nil)}
	if g.ordered(&s.ch, cb) {
		return
	}
	// The product graph reachable from s (nodes where b is ordered are
	// dead ends and left out), then the nodes that reach dst.
	index := map[wnode]int{s: 0}
	nodes := []wnode{s}
	type arc struct{ from, edge int }
	var into [][]arc
	into = append(into, nil)
	for i := 0; i < len(nodes); i++ {
		n := nodes[i]
		for _, ei := range proc.Out[n.loc] {
			e := &proc.Edges[ei]
			m := wnode{e.To, g.step(n.ch, e, nil)}
			if g.ordered(&m.ch, cb) {
				continue
			}
			j, ok := index[m]
			if !ok {
				j = len(nodes)
				index[m] = j
				nodes = append(nodes, m)
				into = append(into, nil)
			}
			into[j] = append(into[j], arc{i, ei})
		}
	}
	live := make([]bool, len(nodes))
	var stack []int
	for i, n := range nodes {
		if n.loc == dst {
			live[i] = true
			stack = append(stack, i)
		}
	}
	for len(stack) > 0 {
		j := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, r := range into[j] {
			for _, id := range proc.Edges[r.edge].Points {
				need[id] |= pair
			}
			if !live[r.from] {
				live[r.from] = true
				stack = append(stack, r.from)
			}
		}
	}
	if live[0] {
		for _, id := range proc.Edges[x.Edge].Points {
			need[id] |= pair
		}
	}
}

// pairOrdering is the one pair of kinds (before, after) as an Ordering.
func pairOrdering(before, after cs.OpKind) cs.Ordering {
	for _, o := range []cs.Ordering{cs.LoadLoad, cs.LoadStore, cs.StoreLoad, cs.StoreStore} {
		if o.Has(before, after) {
			return o
		}
	}
	return 0
}

// fullStoreKinds is the kinds map of full fences at the sites of full and
// store fences at the other sites of store.
func fullStoreKinds(full, store map[int]bool) map[int]cs.FenceKind {
	kinds := make(map[int]cs.FenceKind, len(full)+len(store))
	for id, ok := range store {
		if ok {
			kinds[id] = cs.StoreFence
		}
	}
	for id, ok := range full {
		if ok {
			kinds[id] = cs.FullFence
		}
	}
	return kinds
}

// bufferSites is the reading of fence kinds by a store-buffer model
// (memmodel.ForBuffers): a kind with store→load order is a full fence,
// else one with store→store order a store fence, else nothing.
func bufferSites(kinds map[int]cs.FenceKind) (full, store map[int]bool) {
	full, store = map[int]bool{}, map[int]bool{}
	for id, k := range kinds {
		switch b, ok := memmodel.BufferFence(k); {
		case ok && b == cs.FullFence:
			full[id] = true
		case ok:
			store[id] = true
		}
	}
	return full, store
}

// FreePathFences is FreePath with a fence of kind kinds[id] installed at
// every site id of kinds. Under a store-buffer model the kinds are read as
// memmodel.ForBuffers reads them (bufferSites).
func (g *Graph) FreePathFences(a, b int, kinds map[int]cs.FenceKind) (Path, bool) {
	if g.weak() {
		return g.weakFreePath(a, b, kinds)
	}
	full, store := bufferSites(kinds)
	return g.FreePathKinds(a, b, full, store)
}

// RobustFences is Robust with a fence of kind kinds[id] installed at every
// site id of kinds: a fence cuts the pairs whose kinds it keeps (under a
// store-buffer model, read as memmodel.ForBuffers reads it).
func (an *Analysis) RobustFences(kinds map[int]cs.FenceKind) (bool, *Pair) {
	if !an.Graph.weak() {
		full, store := bufferSites(kinds)
		return an.RobustKinds(full, store)
	}
	for i := range an.Critical {
		p := &an.Critical[i]
		if _, ok := an.Graph.weakFreePath(p.A, p.B, kinds); ok {
			return false, p
		}
	}
	return true, nil
}

// cheapest is the cheapest barrier of m that keeps every pair of o
// (FullFence when m offers none): the least Cost, then the fewest pairs
// kept (RISC-V's fence w,w rather than fence rw,w for write→write), then
// the first in m.Barriers.
func cheapest(m memmodel.Model, o cs.Ordering) cs.FenceKind {
	best, cost, pairs := cs.FullFence, -1, 0
	for _, b := range m.Barriers() {
		bo := b.Kind.Orders()
		if bo&o != o {
			continue
		}
		n := bits.OnesCount8(uint8(bo))
		if cost < 0 || b.Cost < cost || b.Cost == cost && n < pairs {
			best, cost, pairs = b.Kind, b.Cost, n
		}
	}
	return best
}
