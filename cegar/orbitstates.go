package cegar

import (
	"bytes"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"

	"fencer/domains"
	"fencer/kabs"
	"fencer/memmodel"
)

// Symmetry reduction of the states of an exploration (doc.go, "Symmetry
// of states"): with the automorphisms of the system explored (its fences
// installed, so only those that map the fence set onto itself), a state
// is stored as the least of its images, ordered by the key of the control
// state and then by the value vector. An automorphism maps the control
// state position by position (the pc, buffer and tail set of process p
// become those of π(p), the variables in them renamed by σ) and the value
// vector position by position (domains.Layout: a shared variable x goes
// to σ(x), a local of p, a slot or last-write value of p to those of
// π(p)).
//
// Only for explorations with every variable explicit (no cube), no
// store-fence epochs, and every process moving (not reachParts'
// explorations with fewer); an automorphism is used only when it maps
// each dynamic variable onto one with the same candidate domain
// (sameDomains) and, with the order view, each class onto one alike
// (domains.Layout.OrderClassesAlike), every position of a class onto the
// same class: the view's canonical form, its Exact checks and its
// widening depend on the values of a class as a set, so they commute
// with such a permutation (doc.go, "Symmetry of states"). The positions of
// the view's tail value sets (domains.OrdTailName) are sorted sets per
// process and variable, renamed as the variable's.

// stateSym is the reduction of one exploration. The workers canonicalise
// the successors they compute (canon), each with buffers of its own; the
// images of a control node are computed once, by the first worker that
// needs them, and read without a lock from then on.
type stateSym struct {
	g    *group
	pos  [][]int // pos[a][i]: the position of the image of position i under element a
	ipos [][]int // ipos[a][j]: the position whose image under element a is j (pos[a] inverted)
	inv  [][]int // the inverse permutations of the processes
	// imgs holds per control node (by id) the decision and the slot of
	// its images: in chunks of 1<<imgChunkBits that never move (smaller
	// than the nodes' chunks: an exploration often has few nodes), the
	// list of chunks replaced under the explorer's lock when one is added
	// (as explorer.nodes).
	imgs atomic.Pointer[[]*imgChunk]
	// sorted is set under PSO, whose exact writes are kept sorted by
	// variable (kabs.Ctl.B): an image is sorted again.
	sorted bool
}

// imgChunkBits is the log2 of the number of entries in an imgChunk.
const imgChunkBits = 8

// imgChunk holds the entries of 1<<imgChunkBits control nodes in
// stateSym.imgs. canon reads a node's code first, in a dense array by
// node id: most of the time it decides there.
type imgChunk struct {
	// code is 0 until the node's images are computed, then (set once,
	// under the explorer's lock, after the slot) 3 + only: 1 when the
	// value vector decides, 2 when each state is its own least image,
	// 3+a when element a gives the least image of every state.
	code [1 << imgChunkBits]atomic.Int32
	slot [1 << imgChunkBits]imgSlot
}

// imgSlot is what canon needs of a control node beyond its code. The
// least control key among the node's own and its images' decides first,
// the same for every value vector; the images with that key are one
// control node, node (the node itself when that key is its own). When
// the value vector decides, tie says which images compete.
type imgSlot struct {
	node *ctlNode
	tie  *imgTie
}

// imgTie lists in order the elements whose image has the least key, and
// self says whether it is the node's own key: only the value vectors of
// those compete (choose).
type imgTie struct {
	least []int32
	self  bool
}

// symScratch is a worker's buffers for stateSym.canon and images.
type symScratch struct {
	out  []int64  // the least image's values
	ctl  kabs.Ctl // an image of a control state
	own  []byte   // the contents key of the control state (appendCtlKey)
	kb   []byte   // the images' contents keys, one after the other
	keys [][]byte // each image's contents key, in kb
	lst  []int32
}

// stateSymmetry returns the reduction for exploration x, or nil when it
// does not apply or the system has no automorphism.
func (e *engine) stateSymmetry(x *explorer) *stateSym {
	if e.opt.NoSymmetry || x.active != 0 || e.info == nil || !e.info.AllFinite() || x.hasE {
		return nil
	}
	g := findGroup(x.abs.Sys)
	if g == nil {
		return nil
	}
	names := layoutNames(x)
	if names == nil {
		return nil
	}
	s := &stateSym{g: &group{sys: g.sys}, sorted: x.abs.Layout() == memmodel.PerVariable}
	for _, a := range g.elems {
		if !sameDomains(e.info, g, a) {
			continue
		}
		pos := make([]int, len(names))
		used := make([]bool, len(names))
		classImg := map[int]int{}
		ok := true
		for i, n := range names {
			j, found := x.lay.Index(renamePosition(g, n, a))
			if !found || used[j] {
				ok = false
				break
			}
			// The order view: each class onto one alike, the same one
			// for all its positions.
			c, d := x.lay.OrderClass(i), x.lay.OrderClass(j)
			if img, seen := classImg[c]; seen && img != d || !seen && !x.lay.OrderClassesAlike(c, d) {
				ok = false
				break
			}
			classImg[c] = d
			pos[i], used[j] = j, true
		}
		if !ok {
			continue
		}
		inv := make([]int, len(a.proc))
		for p, q := range a.proc {
			inv[q] = p
		}
		s.g.elems = append(s.g.elems, a)
		ipos := make([]int, len(pos))
		for i, j := range pos {
			ipos[j] = i
		}
		s.pos = append(s.pos, pos)
		s.ipos = append(s.ipos, ipos)
		s.inv = append(s.inv, inv)
	}
	if len(s.g.elems) == 0 {
		return nil
	}
	e.logf("symmetry: %d automorphisms of the system explored", len(s.g.elems))
	return s
}

// sameDomains reports whether a maps each dynamic variable onto one with
// the same candidate domain (domains/dynamic.go), and the others onto
// others: a value of a representative is then outside its variable's
// domain exactly when it is outside the image's, so that observing the
// representatives observes the orbit, and a tail set (a bit set over the
// domain) means the same at its image's position.
func sameDomains(info *domains.Info, g *group, a *auto) bool {
	check := func(v string) bool {
		w := g.rename(v, a)
		if info.Dynamic(v) != info.Dynamic(w) {
			return false
		}
		return !info.Dynamic(v) || slices.Equal(info.Values(v), info.Values(w))
	}
	for _, v := range g.sys.Shared {
		if !check(v.Name) {
			return false
		}
	}
	for _, p := range g.sys.Procs {
		for _, v := range p.Locals {
			if !check(v.Name) {
				return false
			}
		}
	}
	return true
}

// renamePosition renames the variable of a layout position: a variable of
// X (group.rename) or a tail set "tail P x".
func renamePosition(g *group, name string, a *auto) string {
	if proc, v, j, ok := ordTailProcVar(name); ok {
		p := g.procIndex(proc)
		if p < 0 {
			return name
		}
		return domains.OrdTailName(g.sys.Procs[a.proc[p]].Name, g.renameShared(v, a), j)
	}
	if proc, v, ok := tailProcVar(name); ok {
		p := g.procIndex(proc)
		if p < 0 {
			return name
		}
		return "tail " + g.sys.Procs[a.proc[p]].Name + " " + g.renameShared(v, a)
	}
	return g.rename(name, a)
}

// ordTailProcVar parses the name of a position of a tail value set of
// the order view (domains.OrdTailName): its process, variable and index
// (-1 for the number of values).
func ordTailProcVar(name string) (proc, x string, j int, ok bool) {
	rest, ok := strings.CutPrefix(name, "ordtail ")
	if !ok {
		return "", "", 0, false
	}
	f := strings.Fields(rest)
	if len(f) != 3 {
		return "", "", 0, false
	}
	if f[2] == "n" {
		return f[0], f[1], -1, true
	}
	j, err := strconv.Atoi(f[2])
	if err != nil {
		return "", "", 0, false
	}
	return f[0], f[1], j, true
}

// layoutNames returns the variable of each position of x's layout, or nil
// when a position is not one of the names it knows.
func layoutNames(x *explorer) []string {
	sys, lay := x.abs.Sys, x.lay
	names := make([]string, lay.Len())
	seen := 0
	add := func(n string) {
		if i, ok := lay.Index(n); ok && names[i] == "" {
			names[i] = n
			seen++
		}
	}
	for _, v := range sys.Shared {
		add(v.Name)
	}
	for _, p := range sys.Procs {
		for _, v := range p.Locals {
			add(v.Name)
		}
		for _, v := range sys.Shared {
			add(kabs.LWVar(p.Name, v.Name))
			add("tail " + p.Name + " " + v.Name)
			for i := 1; i <= x.abs.K; i++ {
				add(kabs.SlotVarX(p.Name, v.Name, i))
			}
		}
		for i := 1; i <= x.abs.K; i++ {
			add(kabs.SlotVar(p.Name, i))
		}
		for _, v := range sys.Shared {
			add(domains.OrdTailName(p.Name, v.Name, -1))
			for j := 0; ; j++ {
				n := domains.OrdTailName(p.Name, v.Name, j)
				if _, ok := lay.Index(n); !ok {
					break
				}
				add(n)
			}
		}
	}
	if seen != lay.Len() {
		return nil
	}
	return names
}

// permCtl returns the image of c under element a.
func (s *stateSym) permCtl(c *kabs.Ctl, a int) *kabs.Ctl {
	return s.permCtlInto(&kabs.Ctl{}, c, a)
}

// permCtlInto writes the image of c under element a into out, reusing
// its slices, and returns out.
func (s *stateSym) permCtlInto(out *kabs.Ctl, c *kabs.Ctl, a int) *kabs.Ctl {
	g := s.g.elems[a]
	n := len(c.PC)
	out.PC = resize(out.PC, n)
	for p := range c.PC {
		out.PC[g.proc[p]] = c.PC[p]
	}
	if c.B == nil {
		out.B, out.S = nil, nil
		return out
	}
	out.B, out.S = resize(out.B, n), resize(out.S, n)
	for p := range c.B {
		q := g.proc[p]
		out.B[q] = resize(out.B[q], len(c.B[p]))
		for i, v := range c.B[p] {
			out.B[q][i] = g.shared[v]
		}
		if s.sorted {
			slices.Sort(out.B[q])
		}
		out.S[q] = resize(out.S[q], len(c.S[p]))
		for i, v := range c.S[p] {
			out.S[q][i] = g.shared[v]
		}
		slices.Sort(out.S[q])
	}
	return out
}

// resize returns b with length n, its elements kept up to n when it has
// the capacity (they are all overwritten by permCtlInto).
func resize[T any](b []T, n int) []T {
	if cap(b) < n {
		return make([]T, n)
	}
	return b[:n]
}

// codeOf returns the chunk and code of node n (imgChunk.code), a nil
// chunk and 0 when the chunk is not yet made.
func (s *stateSym) codeOf(n *ctlNode) (*imgChunk, int32) {
	dir := s.imgs.Load()
	if dir == nil || int(n.id)>>imgChunkBits >= len(*dir) {
		return nil, 0
	}
	ch := (*dir)[n.id>>imgChunkBits]
	return ch, ch.code[n.id&(1<<imgChunkBits-1)].Load()
}

// images returns the slot and code of node n, computed once: without
// the lock, then entered under it unless another worker was first. It
// fails only when the image's node cannot be made (addNode).
func (s *stateSym) images(x *explorer, w *worker, n *ctlNode) (*imgSlot, int32, error) {
	if ch, code := s.codeOf(n); code != 0 {
		return &ch.slot[n.id&(1<<imgChunkBits-1)], code, nil
	}
	c := x.ctl(n)
	sc := &w.sym
	// The images are ordered by their contents keys (appendCtlKey): the
	// order does not depend on the order in which the components were
	// found.
	sc.own = appendCtlKey(sc.own[:0], c)
	sc.kb, sc.keys = sc.kb[:0], sc.keys[:0]
	for a := range s.g.elems {
		start := len(sc.kb)
		sc.kb = appendCtlKey(sc.kb, s.permCtlInto(&sc.ctl, c, a))
		sc.keys = append(sc.keys, sc.kb[start:len(sc.kb):len(sc.kb)])
	}
	var self bool
	sc.lst, self = leastKeys(sc.lst[:0], sc.own, sc.keys)
	code := 3 + only(sc.lst, self)
	var sl imgSlot
	switch {
	case code == 2:
	case self:
		sl.node = n
	default:
		a := int(sc.lst[0])
		var err error
		if sl.node, err = s.imageNode(x, c, a); err != nil {
			return nil, 0, err
		}
	}
	if code == 1 {
		sl.tie = &imgTie{least: slices.Clone(sc.lst), self: self}
	}
	x.mu.Lock()
	defer x.mu.Unlock()
	dir := s.imgs.Load()
	for dir == nil || int(n.id)>>imgChunkBits >= len(*dir) {
		var grown []*imgChunk
		if dir != nil {
			grown = append(grown, *dir...)
		}
		grown = append(grown, new(imgChunk))
		s.imgs.Store(&grown)
		dir = &grown
	}
	ch, i := (*dir)[n.id>>imgChunkBits], n.id&(1<<imgChunkBits-1)
	if old := ch.code[i].Load(); old != 0 {
		return &ch.slot[i], old, nil
	}
	ch.slot[i] = sl
	ch.code[i].Store(code)
	return &ch.slot[i], code, nil
}

// imageNode returns the node of the image of c under element a, made if
// new (its draft without the lock, as the targets of an expansion:
// ctlexpand.go).
func (s *stateSym) imageNode(x *explorer, c *kabs.Ctl, a int) (*ctlNode, error) {
	img := s.permCtl(c, a)
	x.mu.Lock()
	kb := x.appendIDKey(nil, img)
	h := x.ctls.hash(kb)
	id, ok := x.ctls.lookup(kb, h)
	x.mu.Unlock()
	if ok {
		return x.nodeAt(id), nil
	}
	d := x.draft(img, nil)
	x.mu.Lock()
	defer x.mu.Unlock()
	if id, ok := x.ctls.lookup(kb, h); ok {
		return x.nodeAt(id), nil
	}
	return x.addNode(kb, h, x.profileOf(&d), d.bad)
}

// leastKeys appends to dst the elements whose key is the least of self and
// keys, in order, and reports whether self is that key.
func leastKeys(dst []int32, self []byte, keys [][]byte) ([]int32, bool) {
	lo := self
	for _, k := range keys {
		if bytes.Compare(k, lo) < 0 {
			lo = k
		}
	}
	for a, k := range keys {
		if bytes.Equal(k, lo) {
			dst = append(dst, int32(a))
		}
	}
	return dst, bytes.Equal(self, lo)
}

// only returns, from the result of leastKeys, the element that gives the
// least image of every state of the node (-1: each state is its own), or
// -2 when that depends on the value vector.
func only(least []int32, self bool) int32 {
	switch {
	case self && len(least) == 0:
		return -1
	case !self && len(least) == 1:
		return least[0]
	}
	return -2
}

// canon returns the least image of the state (n, vals) and the element
// that gives it (-1: the state itself). The values returned live in w's
// buffers until the next call with w. It fails only when the image's
// control node cannot be made (addNode: errCtlsFull).
func (s *stateSym) canon(x *explorer, w *worker, n *ctlNode, vals []int64) (*ctlNode, []int64, int, error) {
	sl, code, err := s.images(x, w, n)
	if err != nil {
		return nil, nil, 0, err
	}
	best := int(code) - 3
	if code == 1 {
		best = s.choose(sl.tie.least, sl.tie.self, vals)
	}
	if best < 0 {
		return n, vals, -1, nil
	}
	sc := &w.sym
	if len(sc.out) != len(vals) {
		sc.out = make([]int64, len(vals))
	}
	pos := s.pos[best]
	for i, v := range vals {
		sc.out[pos[i]] = v
	}
	return sl.node, sc.out, best, nil
}

// choose returns the element that gives the least image of a state with
// values vals among those of the elements least (and the state itself
// when self), whose images have the same control state: the one with the
// least value vector, the first in the order (the state itself, then
// least's) on a tie; -1 for the state itself. The value vectors are
// compared position by position through ipos, up to the first
// difference, without building them.
func (s *stateSym) choose(least []int32, self bool, vals []int64) int {
	best, rest := -1, least
	if !self {
		best, rest = int(rest[0]), rest[1:]
	}
	for _, a := range rest {
		ia := s.ipos[a]
		if best < 0 {
			for j, i := range ia {
				if u, v := vals[i], vals[j]; u != v {
					if u < v {
						best = int(a)
					}
					break
				}
			}
			continue
		}
		ib := s.ipos[best]
		for j, i := range ia {
			if u, v := vals[i], vals[ib[j]]; u != v {
				if u < v {
					best = int(a)
				}
				break
			}
		}
	}
	return best
}

// symmetrize records, for each value of a dynamic variable observed
// outside its domain, the same value for the variable's images under the
// automorphisms (domains.Layout.ObserveValue): the exploration observes
// the representatives it stores and the states it passes through, and
// the other states of their orbits hold the same values at the images'
// positions. The domains then grow alike for a variable and its images
// (they started alike, sameDomains), and the next exploration keeps the
// automorphisms. Nothing changes for the exploration itself: an image's
// value is outside the image's domain exactly when the value is outside
// the variable's.
func (s *stateSym) symmetrize(x *explorer) {
	for v, vals := range x.lay.Observed() {
		for _, a := range s.g.elems {
			w := s.g.rename(v, a)
			for _, val := range vals {
				x.lay.ObserveValue(w, val)
			}
		}
	}
}

// symPathTo is pathTo under the reduction: the stored states are
// representatives, so the path through them is rebuilt as a real path of
// the abstraction from the initial state. Between two stored states r and
// r' the exploration took a step of r (and the steps passed through), to a
// state s with r' = g(s); the path so far ends in h(r) for an automorphism
// h (the identity at the initial state), so it goes on by the image under
// h of those steps, to h(s) = h(g⁻¹(r')), and h becomes h∘g⁻¹. The
// transitions are taken again from the abstraction along the way (a step
// that is not found there is an internal error).
func (x *explorer) symPathTo(w *worker, st *stateStore, i int32) (*path, error) {
	s := x.sym
	var chainIdx []int32
	for j := i; j >= 0; j = st.at(j).parent {
		chainIdx = append(chainIdx, j)
	}
	slices.Reverse(chainIdx)
	np, ns := len(x.abs.Sys.Procs), len(x.abs.Sys.Shared)
	hp, hs := make([]int, np), make([]int, ns)
	for p := range hp {
		hp[p] = p
	}
	for v := range hs {
		hs[v] = v
	}
	var steps []kabs.AStep
	for _, j := range chainIdx[1:] {
		taken, a, err := x.symReplay(w, st, j)
		if err != nil {
			return nil, err
		}
		for _, t := range taken {
			t.Proc = hp[t.Proc]
			if t.Edge < 0 && t.Var >= 0 {
				t.Var = hs[t.Var]
			}
			steps = append(steps, t)
		}
		if a >= 0 {
			x.e.symMapped++
			g, inv := s.g.elems[a], s.inv[a]
			np2, ns2 := make([]int, np), make([]int, ns)
			for p := range np2 {
				np2[p] = hp[inv[p]]
			}
			sinv := make([]int, ns)
			for v, u := range g.shared {
				sinv[u] = v
			}
			for v := range ns2 {
				ns2[v] = hs[sinv[v]]
			}
			hp, hs = np2, ns2
		}
	}
	p := &path{steps: steps}
	c := x.abs.Init()
	for _, step := range steps {
		found := false
		for _, sc := range x.abs.Successors(c) {
			if sc.Step == step {
				p.ts = append(p.ts, sc.T)
				c, found = sc.Ctl, true
				break
			}
		}
		if !found {
			return nil, fmt.Errorf("internal error: a step of the counterexample rebuilt under the symmetry reduction is not a step of the abstraction")
		}
	}
	return p, nil
}

// symReplay returns the steps from the parent of the stored state i to
// the state whose least image is i (the step stored, then those passed
// through), and the element that maps that state to i (-1: none).
func (x *explorer) symReplay(w *worker, st *stateStore, i int32) ([]kabs.AStep, int, error) {
	x.replayStage(i)
	r := st.at(i)
	from := stepRef{x.nodeAt(st.at(r.parent).c), r.via}
	via, err := x.resolveOne(w, from.n, r.via)
	if err != nil {
		return nil, -1, err
	}
	pv := make([]int64, x.lay.Len())
	x.values(st, r.parent, pv)
	iv := make([]int64, len(pv))
	x.values(st, i, iv)
	var chain []stepRef
	var ferr error
	found, elem := false, -1
	err = via.cm.x.ApplyZeros(pv, x.prof(via.next).zrun, make([]int64, len(pv)), func(vals []int64) bool {
		chain = chain[:0]
		c, v := via.next, vals
		if x.por != nil {
			var err error
			if c, v, _, err = x.forward(w, &w.ctl.top, r.via, vals, &chain, nil); err != nil {
				ferr = err
				return false
			}
		}
		cn, cv, a, err := x.sym.canon(x, w, c, v)
		if err != nil {
			ferr = err
			return false
		}
		found = cn.id == r.c && slices.Equal(cv, iv)
		elem = a
		return !found
	})
	if err == nil {
		err = ferr
	}
	if err == nil && !found {
		err = fmt.Errorf("internal error: the symmetry reduction cannot replay a step of the counterexample")
	}
	out := []kabs.AStep{x.stepAt(from).Step}
	for _, c := range chain {
		out = append(out, x.stepAt(c).Step)
	}
	return out, elem, err
}
