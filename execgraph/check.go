package execgraph

import (
	"slices"
	"sort"

	"fencer/cs"
	"fencer/memmodel"
)

// Changes are what fencer insert adds to a program: fences of a kind at
// sites, and accesses raised to an annotation. They change no run (a
// fence or an annotation changes no value and no branch), only which
// executions of the runs the model allows.
type Changes struct {
	Fences map[int]cs.FenceKind // site id -> kind
	Raise  map[Access]cs.Ann    // an access -> the annotation it gets
}

// Access names an access of the program: process and edge.
type Access struct{ Proc, Edge int }

// Size is the number of changes.
func (c Changes) Size() int { return len(c.Fences) + len(c.Raise) }

// node is one event of an execution.
type node struct {
	proc, idx int // process and index in its run
	ev        Event
	ann       cs.Ann // with raises applied
}

// combo is a choice of one run per process (nil: the process has not
// started) and the events of their union, numbered.
type combo struct {
	runs   []*Run
	nodes  []node
	byProc [][]int            // per process, its nodes in program order
	byVar  map[string][]int   // per variable, its nodes
	inits  map[string][]int64 // the initial values each variable may have
	vars   []string           // the variables accessed, sorted
	pos    []int              // scratch: an int per node
}

func newCombo(runs []*Run, inits map[string][]int64) *combo {
	c := &combo{runs: runs, byProc: make([][]int, len(runs)), byVar: map[string][]int{}, inits: inits}
	for p, r := range runs {
		if r == nil {
			continue
		}
		for i, ev := range r.Events {
			id := len(c.nodes)
			c.nodes = append(c.nodes, node{proc: p, idx: i, ev: ev, ann: ev.Ann})
			c.byProc[p] = append(c.byProc[p], id)
			if _, ok := c.byVar[ev.Var]; !ok {
				c.vars = append(c.vars, ev.Var)
			}
			c.byVar[ev.Var] = append(c.byVar[ev.Var], id)
		}
	}
	sort.Strings(c.vars)
	return c
}

// Execution is a candidate execution: a combo with reads-from and
// coherence. RF[n] is the write node a read node n reads from (-1: the
// initial value); CO[x] lists the write nodes of x in coherence order
// after the initial write.
type Execution struct {
	c  *combo
	RF []int
	CO map[string][]int
	// target is the bad state it reaches: an index of Explorer.targets.
	target int
}

// varChoice is one coherent choice of rf and co for the nodes of one
// variable.
type varChoice struct {
	co []int
	rf map[int]int
}

// coherentChoices lists every (co, rf) of variable x that satisfies
// coherence (po-loc ∪ rf ∪ co ∪ fr acyclic on x), the values (a read
// returns its write's value) and atomicity (the write of a
// read-modify-write comes right after the write its read reads from).
func (c *combo) coherentChoices(x string, limit int) ([]varChoice, bool) {
	ids := c.byVar[x]
	var ws, rs []int
	for _, id := range ids {
		if c.nodes[id].ev.Kind == Write {
			ws = append(ws, id)
		} else {
			rs = append(rs, id)
		}
	}
	// A read needs a write of its value.
	for _, r := range rs {
		v := c.nodes[r].ev.Val
		ok := contains(c.inits[x], v)
		for _, w := range ws {
			ok = ok || c.nodes[w].ev.Val == v
		}
		if !ok {
			return nil, true
		}
	}
	var out []varChoice
	over := false
	// Coherence keeps the writes of one process to x in program order, so
	// co is an interleaving of the processes' sequences of writes.
	var seqs [][]int
	for p := range c.byProc {
		var seq []int
		for _, w := range ws {
			if c.nodes[w].proc == p {
				seq = append(seq, w)
			}
		}
		if len(seq) > 0 {
			seqs = append(seqs, seq)
		}
	}
	pos := c.scratch() // coherence position of each write of x (1-based)
	rf := make([]int, len(ids))
	initSet, initVal := false, int64(0)
	interleave(seqs, func(co []int) bool {
		for i, w := range co {
			pos[w] = i + 1
		}
		// The accesses of x in node order (by process, then program
		// order): a read takes each write of its value in turn, and the
		// ranks along each process must not go down (coherent).
		var assign func(k, proc, last int) bool
		assign = func(k, proc, last int) bool {
			if k == len(ids) {
				vc := varChoice{co: append([]int(nil), co...), rf: map[int]int{}}
				for i, id := range ids {
					if c.nodes[id].ev.Kind == Read {
						vc.rf[id] = rf[i]
					}
				}
				out = append(out, vc)
				if len(out) > limit {
					over = true
					return false
				}
				return true
			}
			id := ids[k]
			n := c.nodes[id]
			if n.proc != proc {
				proc, last = n.proc, -1
			}
			if n.ev.Kind == Write {
				if pos[id] <= last {
					return true
				}
				return assign(k+1, proc, pos[id])
			}
			try := func(w, rank int) bool {
				if rank < last {
					return true
				}
				if n.ev.RMW >= 0 && pos[c.byProc[n.proc][n.ev.RMW]] != rank+1 {
					return true
				}
				rf[k] = w
				return assign(k+1, proc, rank)
			}
			// reads of the initial value agree on it (one value for a
			// nondeterministic initial value, chosen by the first)
			if contains(c.inits[x], n.ev.Val) && (!initSet || initVal == n.ev.Val) {
				set := !initSet
				initSet, initVal = true, n.ev.Val
				ok := try(-1, 0)
				if set {
					initSet = false
				}
				if !ok {
					return false
				}
			}
			for i, w := range co {
				if c.nodes[w].ev.Val == n.ev.Val && !try(w, i+1) {
					return false
				}
			}
			return true
		}
		return assign(0, -1, -1)
	})
	return out, !over
}

// scratch is a slice of an int per node, reused.
func (c *combo) scratch() []int {
	if len(c.pos) < len(c.nodes) {
		c.pos = make([]int, len(c.nodes))
	}
	return c.pos
}

// interleave calls f with every interleaving of seqs (each kept in its
// order) until f returns false.
func interleave(seqs [][]int, f func([]int) bool) {
	n := 0
	for _, s := range seqs {
		n += len(s)
	}
	next := make([]int, len(seqs))
	out := make([]int, 0, n)
	var rec func() bool
	rec = func() bool {
		if len(out) == n {
			return f(out)
		}
		for i, s := range seqs {
			if next[i] == len(s) {
				continue
			}
			out = append(out, s[next[i]])
			next[i]++
			ok := rec()
			next[i]--
			out = out[:len(out)-1]
			if !ok {
				return false
			}
		}
		return true
	}
	rec()
}

// ordered lists the static preserved program order of a combo under m
// with changes ch: for each node, the later nodes of its process it is
// kept before (the rules of memmodel.Axioms that do not look at rf).
func (c *combo) ordered(m memmodel.Model, ch Changes, noDeps bool) [][]int {
	ax := *m.Axioms()
	if noDeps {
		ax.Addr, ax.Data, ax.CtrlWrite, ax.AddrPoWrite, ax.DepLrs, ax.DepRfi = false, false, false, false, false, false
	}
	out := make([][]int, len(c.nodes))
	for p, ids := range c.byProc {
		run := c.runs[p]
		if run == nil {
			continue
		}
		anns := make([]cs.Ann, len(ids))
		for i, id := range ids {
			a := c.nodes[id].ev.Ann
			if r, ok := ch.Raise[Access{p, c.nodes[id].ev.Edge}]; ok {
				if c.nodes[id].ev.Kind == Read {
					a |= r & (cs.Acquire | cs.AcquirePC)
				} else {
					a |= r & cs.Release
				}
			}
			anns[i] = a
		}
		if ax.AmoOne {
			// one event: the read and the write of an AMO share its orders
			evs := run.Events
			for i, ev := range evs {
				if ev.RMW >= 0 && ev.Ann&cs.Pair == 0 {
					anns[i] |= anns[ev.RMW] & (cs.Acquire | cs.AcquirePC | cs.Release)
				}
			}
		}
		for i, id := range ids {
			c.nodes[id].ann = anns[i]
		}
		// gapOrd[i]: what the fences before event i order; gapFull[i]:
		// whether one of them is a full barrier (the one that orders a
		// NoRet read)
		gapOrd := make([]cs.Ordering, len(run.Gaps))
		gapFull := make([]bool, len(run.Gaps))
		for i, g := range run.Gaps {
			for _, k := range g.fences {
				gapOrd[i] |= k.Orders()
				gapFull[i] = gapFull[i] || k == cs.FullFence
			}
			for _, s := range g.sites {
				if k, ok := ch.Fences[s]; ok {
					gapOrd[i] |= k.Orders()
					gapFull[i] = gapFull[i] || k == cs.FullFence
				}
			}
		}
		evs := run.Events
		for i := range evs {
			between, full := cs.Ordering(0), false
			noret := evs[i].Ann&cs.NoRet != 0
			for j := i + 1; j < len(evs); j++ {
				between |= gapOrd[j]
				full = full || gapFull[j]
				a, b := evs[i], evs[j]
				keep := a.Var == b.Var && b.Kind == Write ||
					between.Has(a.Kind.op(), b.Kind.op()) && (!noret || full) ||
					m.Keeps(memmodel.Access{Kind: a.Kind.op(), Ann: anns[i], Atomic: a.RMW >= 0},
						memmodel.Access{Kind: b.Kind.op(), Ann: anns[j], Atomic: b.RMW >= 0}) ||
					a.RMW == j ||
					ax.AmoRelease && a.Kind == Write && a.RMW >= 0 && a.Ann&cs.Pair == 0 && anns[i]&cs.Release != 0 && anns[a.RMW]&cs.Acquire != 0 ||
					ax.Addr && a.Kind == Read && b.Addr.has(i) ||
					ax.Data && b.Kind == Write && b.Data.has(i) ||
					ax.CtrlWrite && b.Kind == Write && b.Ctrl.has(i) ||
					amoBetween(evs, anns, i, j)
				if !keep && b.Kind == Read && (ax.DepLrs || ax.AtomicLrs) {
					// the local write predecessor of b: the po-latest write to
					// b's variable before it (b is its local read successor)
					for k := j - 1; k > i; k-- {
						w := evs[k]
						if w.Kind != Write || w.Var != b.Var {
							continue
						}
						keep = ax.DepLrs && a.Kind == Read && (w.Addr.has(i) || w.Data.has(i)) ||
							ax.AtomicLrs && w.RMW == i && anns[j]&(cs.Acquire|cs.AcquirePC) != 0
						break
					}
				}
				if !keep && ax.AddrPoWrite && b.Kind == Write {
					for k := i + 1; k < j; k++ {
						if evs[k].Addr.has(i) {
							keep = true
							break
						}
					}
				}
				if keep {
					out[ids[i]] = append(out[ids[i]], ids[j])
				}
			}
		}
	}
	return out
}

// amoBetween: a read-modify-write with an acquire read and a release write
// lies strictly between events i and j (Arm's po; [A]; amo; [L]; po).
func amoBetween(evs []Event, anns []cs.Ann, i, j int) bool {
	for k := i + 1; k < j; k++ {
		if evs[k].Kind == Read && evs[k].RMW > k && evs[k].RMW < j &&
			anns[k]&cs.Acquire != 0 && anns[evs[k].RMW]&cs.Release != 0 {
			return true
		}
	}
	return false
}

// allows reports whether m allows execution x: the order axiom over the
// static order st, the rf-dependent rules, and rfe ∪ coe ∪ fre.
func (x *Execution) allows(m memmodel.Model, st [][]int, noDeps bool) bool {
	return acyclic(len(x.c.nodes), func(n int, visit func(int) bool) bool {
		for _, s := range st[n] {
			if !visit(s) {
				return false
			}
		}
		return x.dynamic(m, n, noDeps, visit) && x.communication(n, true, visit)
	})
}

// sc reports whether x is sequentially consistent: po ∪ rf ∪ co ∪ fr
// acyclic.
func (x *Execution) sc() bool {
	return acyclic(len(x.c.nodes), func(n int, visit func(int) bool) bool {
		if !x.po(n, visit) {
			return false
		}
		return x.communication(n, false, visit)
	})
}

func (x *Execution) po(n int, visit func(int) bool) bool {
	nd := x.c.nodes[n]
	for _, s := range x.c.byProc[nd.proc][nd.idx+1:] {
		if !visit(s) {
			return false
		}
	}
	return true
}

// communication visits the rf, co and fr successors of n (only those to
// other processes when external).
func (x *Execution) communication(n int, external bool, visit func(int) bool) bool {
	proc := x.c.nodes[n].proc
	return x.com(n, false, func(s int, _ string) bool {
		return external && x.c.nodes[s].proc == proc || visit(s)
	})
}

// com visits the rf, co and fr successors of n with the relation's name:
// all of them, or (immediate) in co and fr only the next write.
func (x *Execution) com(n int, immediate bool, visit func(int, string) bool) bool {
	c := x.c
	nd := c.nodes[n]
	co := x.CO[nd.ev.Var]
	from, rel := 0, "fr" // a read is fr-before the writes co-after its source
	if nd.ev.Kind == Write {
		for _, r := range c.byVar[nd.ev.Var] {
			if c.nodes[r].ev.Kind == Read && x.RF[r] == n && !visit(r, "rf") {
				return false
			}
		}
		rel = "co"
		from = slices.Index(co, n) + 1
	} else if src := x.RF[n]; src >= 0 {
		from = slices.Index(co, src) + 1
	}
	for _, w := range co[from:] {
		if rel == "fr" && w == partner(c, n) {
			continue
		}
		if !visit(w, rel) {
			return false
		}
		if immediate {
			break
		}
	}
	return true
}

// partner is the write of n's read-modify-write, or -1: a read is not
// fr-before its own RMW's write (that pair is one instruction).
func partner(c *combo, n int) int {
	nd := c.nodes[n]
	if nd.ev.RMW < 0 {
		return -1
	}
	return c.byProc[nd.proc][nd.ev.RMW]
}

// dynamic visits the order successors of n that depend on rf: RVWMO's
// rules 2, 3 and 12.
func (x *Execution) dynamic(m memmodel.Model, n int, noDeps bool, visit func(int) bool) bool {
	ax := *m.Axioms()
	if noDeps {
		ax.DepRfi = false
	}
	c := x.c
	nd := c.nodes[n]
	ids := c.byProc[nd.proc]
	evs := c.runs[nd.proc].Events
	i := nd.idx
	for j := i + 1; j < len(ids); j++ {
		b := c.nodes[ids[j]]
		if b.ev.Kind != Read {
			continue
		}
		src := x.RF[ids[j]]
		internal := src >= 0 && c.nodes[src].proc == nd.proc
		keep := false
		if internal {
			w := c.nodes[src]
			if ax.DepRfi && nd.ev.Kind == Read && (w.ev.Addr.has(i) || w.ev.Data.has(i)) {
				keep = true
			}
			if src == n && w.ev.RMW >= 0 && ax.AtomicRfiAny {
				keep = true
			}
		}
		if !keep && ax.SameLocReads && nd.ev.Kind == Read && nd.ev.Var == b.ev.Var && x.RF[n] != src {
			keep = true
			for k := i + 1; k < j; k++ {
				if evs[k].Kind == Write && evs[k].Var == nd.ev.Var {
					keep = false
					break
				}
			}
		}
		if keep && !visit(ids[j]) {
			return false
		}
	}
	return true
}

// acyclic reports whether the graph on n nodes whose successors succ
// visits has no cycle (succ returns false when visit did).
func acyclic(n int, succ func(int, func(int) bool) bool) bool {
	color := make([]uint8, n)
	var dfs func(u int) bool
	dfs = func(u int) bool {
		color[u] = 1
		ok := succ(u, func(v int) bool {
			switch color[v] {
			case 1:
				return false
			case 0:
				return dfs(v)
			}
			return true
		})
		color[u] = 2
		return ok
	}
	for u := 0; u < n; u++ {
		if color[u] == 0 && !dfs(u) {
			return false
		}
	}
	return true
}
