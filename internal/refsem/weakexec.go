package refsem

import (
	"fmt"
	"sort"
	"strings"

	"fencer/cs"
	"fencer/memmodel"
)

// The executions of the axiomatic models: candidate values, the choice of
// nodes, rf and co, and the axioms.

// maxCandidates bounds the candidate values of one variable.
const maxCandidates = 64

// RunWeak looks for a consistent execution of p under m (arm, riscv or
// rmo, or sc, tso and pso by their axioms) that reaches a bad state.
func (p *Program) RunWeak(m memmodel.Model, o WeakOptions) (*WeakResult, error) {
	wm, err := weakModel(m)
	if err != nil {
		return nil, err
	}
	if o.Unroll <= 0 {
		o.Unroll = DefaultUnroll
	}
	if o.MaxExecutions <= 0 {
		o.MaxExecutions = DefaultMaxExecutions
	}
	if wm == wPSO {
		for _, q := range p.procs {
			for _, in := range q.code {
				if in.ann&cs.Release != 0 && in.kind != iCall && in.kind != iAtomic {
					return nil, fmt.Errorf("%s: a release write is not supported under pso", p.file.Position(in.pos))
				}
			}
		}
	}
	trees, exact, err := p.candidates(wm, o)
	if err != nil {
		return nil, err
	}
	res := &WeakResult{Bounded: !exact || p.anyVal}
	for _, t := range trees {
		res.Bounded = res.Bounded || t.cut
	}
	c := &wcheck{p: p, m: wm, trees: trees, max: o.MaxExecutions, ppo: map[*pnode][][2]int{}}
	for _, init := range p.initValues() {
		c.init = init
		bad, err := c.search()
		res.Executions = c.n
		if err != nil {
			return res, err
		}
		if bad {
			res.Bad, res.Witness = true, c.witness
			return res, nil
		}
	}
	return res, nil
}

// initValues gives every choice of the "*" initial values of the shared
// variables.
func (p *Program) initValues() [][]int64 {
	out := [][]int64{append([]int64(nil), p.init...)}
	for v, a := range p.initAny {
		if !a {
			continue
		}
		var next [][]int64
		for _, m := range out {
			for _, val := range p.values {
				t := append([]int64(nil), m...)
				t[v] = val
				next = append(next, t)
			}
		}
		out = next
	}
	return out
}

// candidates walks every process with the candidate values of each
// variable grown to a fixpoint: first the initial values, then every value
// a walk writes. A value that a consistent execution reads comes from a
// chain of writes (each computed from the value the one before wrote) of
// at most as many writes as the execution has, so the fixpoint is reached
// or, after as many rounds as the processes have writes on their longest
// paths, the values still missing are ones no execution reads (reads of
// values from thin air are never candidates). exact is false when a
// variable had more than maxCandidates values.
func (p *Program) candidates(m wmodel, o WeakOptions) (trees []*ptree, exact bool, err error) {
	cand := make([][]int64, len(p.shared))
	in := make([]map[int64]bool, len(p.shared))
	for v := range cand {
		in[v] = map[int64]bool{}
		vals := []int64{p.init[v]}
		if p.initAny[v] {
			vals = p.values
		}
		for _, val := range vals {
			if !in[v][val] {
				in[v][val] = true
				cand[v] = append(cand[v], val)
			}
		}
	}
	exact = true
	for round := 0; ; round++ {
		trees = trees[:0]
		writes := 0
		for pi := range p.procs {
			t, err := p.walk(pi, m, cand, o)
			if err != nil {
				return nil, false, err
			}
			trees = append(trees, t)
			writes += t.maxWrites
		}
		grown := false
		for _, t := range trees {
			for v, vals := range t.written {
				for val := range vals {
					if !in[v][val] {
						if len(cand[v]) >= maxCandidates {
							exact = false
							continue
						}
						in[v][val] = true
						cand[v] = append(cand[v], val)
						grown = true
					}
				}
			}
		}
		if !grown || round >= writes {
			for v := range cand {
				sort.Slice(cand[v], func(i, j int) bool { return cand[v][i] < cand[v][j] })
			}
			return trees, exact, nil
		}
		for v := range cand {
			sort.Slice(cand[v], func(i, j int) bool { return cand[v][i] < cand[v][j] })
		}
	}
}

// wcheck searches the executions of one program under one model.
type wcheck struct {
	p       *Program
	m       wmodel
	trees   []*ptree
	init    []int64
	max, n  int
	ppo     map[*pnode][][2]int // the static order of each node's events
	witness string
}

// search tries every bad combination of nodes: a process after a failed
// assert, or the processes of a forbidden line at their labels, the others
// anywhere.
func (c *wcheck) search() (bool, error) {
	any := make([][]*pnode, len(c.trees))
	for pi, t := range c.trees {
		// One node per prefix: the last one reached (the deepest point
		// with those events, which the witness then names).
		at := map[string]int{}
		for _, n := range t.nodes {
			if k, ok := at[n.key]; ok {
				any[pi][k] = n
				continue
			}
			at[n.key] = len(any[pi])
			any[pi] = append(any[pi], n)
		}
	}
	for pi, t := range c.trees {
		for _, n := range t.nodes {
			if !n.bad {
				continue
			}
			choice := append([][]*pnode(nil), any...)
			choice[pi] = []*pnode{n}
			if bad, err := c.choices(choice, fmt.Sprintf("%s fails an assert", c.p.procs[pi].name)); bad || err != nil {
				return bad, err
			}
		}
	}
combos:
	for _, combo := range c.p.bad {
		choice := append([][]*pnode(nil), any...)
		at := map[int]int{}
		var names []string
		for _, pt := range combo {
			if pc, ok := at[pt.proc]; ok && pc != pt.pc {
				continue combos // one process at two places at once
			}
			at[pt.proc] = pt.pc
			names = append(names, c.p.procs[pt.proc].name+"@"+c.labelAt(pt))
		}
		for pi, pc := range at {
			choice[pi] = nil
			for _, n := range c.trees[pi].nodes {
				if !n.bad && n.pc == pc {
					choice[pi] = append(choice[pi], n)
				}
			}
		}
		if bad, err := c.choices(choice, "forbidden "+strings.Join(names, ", ")); bad || err != nil {
			return bad, err
		}
	}
	return false, nil
}

func (c *wcheck) labelAt(pt point) string {
	var ls []string
	for l, pc := range c.p.procs[pt.proc].labels {
		if pc == pt.pc {
			ls = append(ls, l)
		}
	}
	sort.Strings(ls)
	return strings.Join(ls, "/")
}

// choices tries every pick of one node per process from choice.
func (c *wcheck) choices(choice [][]*pnode, what string) (bool, error) {
	pick := make([]*pnode, len(choice))
	var rec func(pi int) (bool, error)
	rec = func(pi int) (bool, error) {
		if pi == len(choice) {
			x := c.build(pick)
			if x.check() {
				c.witness = what + "\n" + x.describe()
				return true, nil
			}
			if c.n > c.max {
				return false, ErrTooManyExecutions
			}
			return false, nil
		}
		for _, n := range choice[pi] {
			pick[pi] = n
			if bad, err := rec(pi + 1); bad || err != nil {
				return bad, err
			}
		}
		return false, nil
	}
	return rec(0)
}

// wexec is a choice of nodes: its events (the initial writes first), and
// the rf and co being tried.
type wexec struct {
	c     *wcheck
	evs   []*wevent
	proc  []int // -1 for an initial write
	idx   []int // the index in its process
	base  []int // per process, the global index of its first event
	nodes []*pnode
	// reads: every read access (event g reads variable v, value val);
	// rf[k] the event the k-th reads from.
	rg, rv []int
	rval   []int64
	rf     []int
	// per variable the writes, the initial one first; co[v] is the order
	// being tried.
	ws, co map[int][]int
}

func (c *wcheck) build(pick []*pnode) *wexec {
	x := &wexec{c: c, nodes: pick, ws: map[int][]int{}, co: map[int][]int{}}
	used := map[int]bool{}
	for _, n := range pick {
		for k := range n.evs {
			for _, a := range append(append([]acc(nil), n.evs[k].reads...), n.evs[k].writes...) {
				used[a.v] = true
			}
		}
	}
	var vars []int
	for v := range used {
		vars = append(vars, v)
	}
	sort.Ints(vars)
	for _, v := range vars {
		x.ws[v] = []int{len(x.evs)}
		x.evs = append(x.evs, &wevent{writes: []acc{{v, c.init[v]}}, lrsSrc: -1})
		x.proc = append(x.proc, -1)
		x.idx = append(x.idx, -1)
	}
	for pi, n := range pick {
		x.base = append(x.base, len(x.evs))
		for k := range n.evs {
			e := &n.evs[k]
			g := len(x.evs)
			x.evs = append(x.evs, e)
			x.proc = append(x.proc, pi)
			x.idx = append(x.idx, k)
			for _, a := range e.reads {
				x.rg, x.rv, x.rval = append(x.rg, g), append(x.rv, a.v), append(x.rval, a.val)
			}
			for _, a := range e.writes {
				x.ws[a.v] = append(x.ws[a.v], g)
			}
		}
	}
	return x
}

// check tries every rf and co; true when one is consistent.
func (x *wexec) check() bool {
	cands := make([][]int, len(x.rg))
	for k := range x.rg {
		for _, w := range x.ws[x.rv[k]] {
			if w != x.rg[k] && x.evs[w].writeVal(x.rv[k]) == x.rval[k] {
				cands[k] = append(cands[k], w)
			}
		}
		if len(cands[k]) == 0 {
			return false
		}
	}
	x.rf = make([]int, len(x.rg))
	var vars []int
	for v := range x.ws {
		vars = append(vars, v)
	}
	sort.Ints(vars)
	var rfRec func(k int) bool
	rfRec = func(k int) bool {
		if k == len(x.rg) {
			return x.coRec(vars, 0)
		}
		for _, w := range cands[k] {
			x.rf[k] = w
			if rfRec(k + 1) {
				return true
			}
			if x.c.n > x.c.max {
				return false
			}
		}
		return false
	}
	return rfRec(0)
}

func (e *wevent) writeVal(v int) int64 {
	for _, a := range e.writes {
		if a.v == v {
			return a.val
		}
	}
	panic("refsem: no write")
}

// coRec tries every coherence order of the variables from the i-th on.
func (x *wexec) coRec(vars []int, i int) bool {
	if i == len(vars) {
		x.c.n++
		return x.consistent()
	}
	v := vars[i]
	ws := x.ws[v]
	order := append([]int(nil), ws...)
	var perm func(k int) bool
	perm = func(k int) bool { // order[1:k] fixed
		if k >= len(order) {
			x.co[v] = order
			return x.coRec(vars, i+1)
		}
		for j := k; j < len(order); j++ {
			order[k], order[j] = order[j], order[k]
			if perm(k + 1) {
				return true
			}
			order[k], order[j] = order[j], order[k]
			if x.c.n > x.c.max {
				return false
			}
		}
		return false
	}
	return perm(1)
}

// The relations of one candidate execution, as edge lists.

func (x *wexec) ext(a, b int) bool { return x.proc[a] != x.proc[b] || x.proc[a] < 0 }

// rfEdges, coEdges and frEdges call f on every pair of the relation.
func (x *wexec) rfEdges(f func(a, b int)) {
	for k, w := range x.rf {
		f(w, x.rg[k])
	}
}

func (x *wexec) coEdges(f func(a, b int)) {
	for _, order := range x.co {
		for i := range order {
			for j := i + 1; j < len(order); j++ {
				f(order[i], order[j])
			}
		}
	}
}

// frEdges: a read before every write after the one it reads from in co
// (an atomic step's own write excepted).
func (x *wexec) frEdges(f func(a, b int)) {
	for k, w := range x.rf {
		order := x.co[x.rv[k]]
		after := false
		for _, u := range order {
			if after && u != x.rg[k] {
				f(x.rg[k], u)
			}
			if u == w {
				after = true
			}
		}
	}
}

// consistent checks the three axioms on the current rf and co.
func (x *wexec) consistent() bool {
	// Atomicity: an atomic step's write comes right after the write it
	// reads, in the coherence order of that variable. (With the step one
	// event, coherence implies it: a write between would make the cycle
	// step -fr-> write -co-> step. It is checked anyway, as the cat
	// files state it.)
	for k, w := range x.rf {
		g := x.rg[k]
		if !x.evs[g].atomic || !x.evs[g].writesVar(x.rv[k]) {
			continue
		}
		order := x.co[x.rv[k]]
		for i, u := range order {
			if u == w && (i+1 >= len(order) || order[i+1] != g) {
				return false
			}
		}
	}
	n := len(x.evs)
	// Coherence: po-loc ∪ rf ∪ co ∪ fr acyclic.
	g := newGraph(n)
	for pi, nd := range x.nodes {
		for a := range nd.evs {
			for b := a + 1; b < len(nd.evs); b++ {
				if sharesVar(&nd.evs[a], &nd.evs[b]) {
					g.add(x.base[pi]+a, x.base[pi]+b)
				}
			}
		}
	}
	x.rfEdges(g.add)
	x.coEdges(g.add)
	x.frEdges(g.add)
	if !g.acyclic() {
		return false
	}
	// The model's order.
	g = newGraph(n)
	for pi, nd := range x.nodes {
		for _, e := range x.c.ppoOf(nd) {
			g.add(x.base[pi]+e[0], x.base[pi]+e[1])
		}
	}
	switch x.c.m {
	case wSC:
		x.rfEdges(g.add)
		x.coEdges(g.add)
		x.frEdges(g.add)
	case wArm:
		// ob = obs | lob: obs = rfe | coe | fre.
		external := func(a, b int) {
			if x.ext(a, b) {
				g.add(a, b)
			}
		}
		x.rfEdges(external)
		x.coEdges(external)
		x.frEdges(external)
	default:
		// riscv: co | rfe | fr | ppo; rmo, tso, pso: ppo | rfe | co | fr.
		x.rfEdges(func(a, b int) {
			if x.ext(a, b) {
				g.add(a, b)
			}
		})
		x.coEdges(g.add)
		x.frEdges(g.add)
	}
	if x.c.m == wRISCV {
		x.riscvDynamic(g.add)
	}
	return g.acyclic()
}

// riscvDynamic adds the rules of riscv.cat's ppo that look at rf:
// r2 ([R];po-loc-no-w;[R] \ rsw), r3 ([AMO|X];rfi;[R]) and r12
// ([M];(addr|data);[W];rfi;[R]).
func (x *wexec) riscvDynamic(f func(a, b int)) {
	src := map[[2]int]int{} // (event, variable) -> the write it reads
	for k, w := range x.rf {
		src[[2]int{x.rg[k], x.rv[k]}] = w
	}
	for k, w := range x.rf {
		r := x.rg[k]
		if x.proc[w] != x.proc[r] || x.proc[r] < 0 {
			continue
		}
		// rfi
		if x.evs[w].atomic {
			f(w, r) // r3
		}
		b := x.base[x.proc[r]]
		ew := x.evs[w]
		for a := 0; a < x.idx[w]; a++ {
			if ew.addr.has(a) || ew.data.has(a) {
				f(b+a, r) // r12
			}
		}
	}
	for pi, nd := range x.nodes {
		for a := range nd.evs {
			ea := &nd.evs[a]
			for _, ra := range ea.reads {
				v := ra.v
				if ea.writesVar(v) {
					continue // [W] at the start: not po-loc-no-w
				}
				for b := a + 1; b < len(nd.evs); b++ {
					eb := &nd.evs[b]
					ga, gb := x.base[pi]+a, x.base[pi]+b
					if eb.readsVar(v) && src[[2]int{ga, v}] != src[[2]int{gb, v}] {
						f(ga, gb) // r2: not reading from the same write (rsw)
					}
					if eb.writesVar(v) {
						break // a write between: no longer po-loc-no-w
					}
				}
			}
		}
	}
}

// ppoOf is the static order of a node's events under the model: the pairs
// (a, b), a before b in program order, that the model keeps without
// looking at rf or co.
func (c *wcheck) ppoOf(n *pnode) [][2]int {
	if e, ok := c.ppo[n]; ok {
		return e
	}
	var out [][2]int
	for a := range n.evs {
		if !n.evs[a].node() {
			continue
		}
		for b := a + 1; b < len(n.evs); b++ {
			if n.evs[b].node() && c.m.keeps(n.evs, a, b) {
				out = append(out, [2]int{a, b})
			}
		}
	}
	c.ppo[n] = out
	return out
}

// keeps reports whether the model keeps event a before event b (a before
// b in program order, both accesses or atomic steps) by program order
// alone: the ppo, lob or bob of the cat files, without rf.
func (m wmodel) keeps(evs []wevent, a, b int) bool {
	ea, eb := &evs[a], &evs[b]
	switch m {
	case wSC:
		return true
	case wTSO, wPSO:
		// An atomic step waits for the buffers: nothing passes it. A
		// buffered write is passed by later reads (TSO and PSO) and by
		// later writes to other variables (PSO), unless a fence between
		// them keeps that pair.
		switch {
		case ea.atomic || eb.atomic || !ea.isWrite():
			return true
		case eb.isRead():
			return fenceBetween(evs, a, b, cs.StoreLoad)
		case m == wTSO || sharesVar(ea, eb):
			return true
		}
		return fenceBetween(evs, a, b, cs.StoreStore)
	}
	// arm, riscv, rmo.
	switch {
	case writesShared(eb, ea): // [M];po-loc;[W]: Arm's lws, RVWMO's r1
		return true
	case fenceBetween(evs, a, b, pairs(ea, eb)) && !(m == wArm && ea.noRet()): // bob's dmb, r4, membar
		return true
	case m == wArm && ea.noRet() && noRetFenceBetween(evs, a, b): // [R \ NoRet]; po; [dmb.ld]
		return true
	case ea.acquire() || eb.release(): // [A|Q];po, po;[L]; r5, r6
		return true
	case m == wArm && ea.release() && eb.acquireSC(): // [L];po;[A]
		return true
	case m == wRISCV && ea.atomic && eb.atomic && ea.release() && eb.acquireSC(): // r7: AMOs and LR/SC are RCsc
		return true
	case eb.addr.has(a): // addr; r9
		return true
	case eb.isWrite() && (eb.data.has(a) || eb.ctrl.has(a)): // data, ctrl;[W]; r10, r11
		return true
	}
	if m == wRMO {
		return false
	}
	if eb.isWrite() { // addr;[Exp];po;[W]; r13
		for k := a + 1; k < b; k++ {
			if evs[k].addr.has(a) {
				return true
			}
		}
	}
	if m == wArm && eb.isRead() && !eb.atomic {
		// dob's (addr|data);[Exp];lrs, and aob's rmw;lrs;[A|Q].
		if eb.lrsDep.has(a) || eb.acquire() && eb.lrsSrc == a && ea.atomic {
			return true
		}
	}
	return false
}

// writesShared reports whether b writes a variable that a accesses.
func writesShared(b, a *wevent) bool {
	for _, w := range b.writes {
		if a.readsVar(w.v) || a.writesVar(w.v) {
			return true
		}
	}
	return false
}

// pairs is the set of kind pairs (read or write before, read or write
// after) that a and b make.
func pairs(a, b *wevent) cs.Ordering {
	var o cs.Ordering
	if a.isRead() && b.isRead() {
		o |= cs.LoadLoad
	}
	if a.isRead() && b.isWrite() {
		o |= cs.LoadStore
	}
	if a.isWrite() && b.isRead() {
		o |= cs.StoreLoad
	}
	if a.isWrite() && b.isWrite() {
		o |= cs.StoreStore
	}
	return o
}

// fenceBetween reports whether a fence between events a and b orders one
// of the pairs in o.
func fenceBetween(evs []wevent, a, b int, o cs.Ordering) bool {
	for k := a + 1; k < b; k++ {
		if evs[k].fence && evs[k].orders&o != 0 {
			return true
		}
	}
	return false
}

// noRetFenceBetween reports whether a fence between the NoRet atomic step
// a and event b orders them under Arm: a full barrier orders the step
// with b, any other one only through the step's write (a DMB ST before a
// write), never its read (aarch64.cat's [R \ NoRet]; po; [dmb.ld]).
func noRetFenceBetween(evs []wevent, a, b int) bool {
	ea, eb := &evs[a], &evs[b]
	var o cs.Ordering
	if ea.isWrite() && eb.isRead() {
		o |= cs.StoreLoad
	}
	if ea.isWrite() && eb.isWrite() {
		o |= cs.StoreStore
	}
	for k := a + 1; k < b; k++ {
		if evs[k].fence && (evs[k].full && evs[k].orders&pairs(ea, eb) != 0 || evs[k].orders&o != 0) {
			return true
		}
	}
	return false
}

// graph is a directed graph for the acyclicity checks.
type graph struct{ adj [][]int }

func newGraph(n int) *graph { return &graph{adj: make([][]int, n)} }

func (g *graph) add(a, b int) { g.adj[a] = append(g.adj[a], b) }

func (g *graph) acyclic() bool {
	state := make([]uint8, len(g.adj)) // 0 new, 1 on the stack, 2 done
	var visit func(v int) bool
	visit = func(v int) bool {
		state[v] = 1
		for _, w := range g.adj[v] {
			if state[w] == 1 || state[w] == 0 && !visit(w) {
				return false
			}
		}
		state[v] = 2
		return true
	}
	for v := range g.adj {
		if state[v] == 0 && !visit(v) {
			return false
		}
	}
	return true
}

// describe prints the execution: each process's events, with the write
// each read reads from, then the coherence order of each variable written
// more than once besides its initial write.
func (x *wexec) describe() string {
	src := map[[2]int]int{}
	for k, w := range x.rf {
		src[[2]int{x.rg[k], x.rv[k]}] = w
	}
	var b strings.Builder
	for pi, nd := range x.nodes {
		q := x.c.p.procs[pi]
		where := "finished"
		switch {
		case nd.bad:
			where = "failed an assert"
		case q.code[nd.pc].kind != iEnd:
			where = fmt.Sprintf("stopped before line %d", x.c.p.file.Position(q.code[nd.pc].pos).Line)
		}
		fmt.Fprintf(&b, "%s (%s):\n", q.name, where)
		for k := range nd.evs {
			g := x.base[pi] + k
			fmt.Fprintf(&b, "  %s", x.name(g))
			for _, a := range x.evs[g].reads {
				fmt.Fprintf(&b, " [reads %s from %s]", x.c.p.shared[a.v], x.name(src[[2]int{g, a.v}]))
			}
			b.WriteString("\n")
		}
	}
	var vars []int
	for v := range x.co {
		if len(x.co[v]) > 2 {
			vars = append(vars, v)
		}
	}
	sort.Ints(vars)
	for _, v := range vars {
		var names []string
		for _, w := range x.co[v] {
			names = append(names, x.name(w))
		}
		fmt.Fprintf(&b, "co %s: %s\n", x.c.p.shared[v], strings.Join(names, " < "))
	}
	return b.String()
}

// name is one event as the witness shows it.
func (x *wexec) name(g int) string {
	e := x.evs[g]
	if x.proc[g] < 0 {
		return fmt.Sprintf("init %s=%d", x.c.p.shared[e.writes[0].v], e.writes[0].val)
	}
	q := x.c.p.procs[x.proc[g]]
	in := q.code[e.pc]
	var what []string
	switch {
	case e.fence:
		what = append(what, "fence "+cs.MaskFence(e.orders).String())
	case e.atomic:
		what = append(what, "atomic")
	}
	for _, a := range e.reads {
		what = append(what, fmt.Sprintf("R %s=%d", x.c.p.shared[a.v], a.val))
	}
	for _, a := range e.writes {
		what = append(what, fmt.Sprintf("W %s=%d", x.c.p.shared[a.v], a.val))
	}
	if a := e.annOf(); a != 0 && (e.atomic || x.c.m.weak()) {
		what = append(what, a.String())
	}
	return fmt.Sprintf("%s#%d %s (line %d: %s)", q.name, x.idx[g], strings.Join(what, " "),
		x.c.p.file.Position(in.pos).Line, statementText(x.c.p.file.Src, in.pos.Offset()))
}

// MinFullFencesWeak is the fewest full fences, at the program's fence
// sites (on top of o.Fences), that leave no bad execution under m, found
// by trying every set of sites by increasing size: the reference for "no
// more changes than the fewest DMB SY". It is -1 when even a fence at
// every site leaves one (the program is wrong under SC). The answer is
// relative to the unroll bound.
func (p *Program) MinFullFencesWeak(m memmodel.Model, o WeakOptions) (n int, err error) {
	sites, err := p.MinFullFenceSitesWeak(m, o)
	if sites == nil {
		return -1, err
	}
	return len(sites), err
}

// MinFullFenceSitesWeak is MinFullFencesWeak with the sites of one
// smallest set (non-nil, maybe empty, when there is one).
func (p *Program) MinFullFenceSitesWeak(m memmodel.Model, o WeakOptions) ([]SiteKey, error) {
	cands := p.distinctSites()
	if len(cands) > 20 {
		return nil, fmt.Errorf("refsem: %d fence sites, too many to try every set", len(cands))
	}
	for size := 0; size <= len(cands); size++ {
		var found []SiteKey
		var runErr error
		subsets(len(cands), size, func(set []int) bool {
			f := map[SiteKey]cs.FenceKind{}
			for k, v := range o.Fences {
				f[k] = v
			}
			for _, k := range set {
				f[cands[k].Key] = cs.FullFence
			}
			oo := o
			oo.Fences = f
			res, err := p.RunWeak(m, oo)
			if err != nil {
				runErr = err
				return false
			}
			if !res.Bad {
				found = []SiteKey{}
				for _, k := range set {
					found = append(found, cands[k].Key)
				}
				return false
			}
			return true
		})
		if runErr != nil {
			return nil, runErr
		}
		if found != nil {
			return found, nil
		}
	}
	return nil, nil
}
