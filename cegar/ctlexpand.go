package cegar

import (
	"encoding/binary"
	"fmt"
	"slices"
	"unsafe"

	"fencer/domains"
	"fencer/kabs"
)

// The control part of an expansion, shared by the workers (parallel.go):
// the steps out of a control node, its ample sets, and the target nodes
// and compiled steps of the steps taken, made on first need. What costs is
// done by the worker without the explorer's lock: decoding the control
// state, its kabs successors (kabs.Abs.Successors is safe for concurrent
// use), the ample sets, the targets' keys and hashes, and the profiles of
// the targets not yet known (draft). Under the lock the worker only looks
// the targets up, makes those still missing (addNode), compiles the steps
// not yet compiled and publishes the result (ctlNode.ready, ctlSucc.next).
// Two workers may do the unlocked part of one node's expansion at once;
// the first to take the lock publishes, the other's work is dropped.
//
// Control nodes are numbered in the order they are made, which with
// several workers depends on their timing: nothing the exploration
// reports or stores depends on those numbers (the states are numbered by
// the store, in sequential order; the symmetry reduction orders control
// states by key).

// nodeDraft is what a control node needs of its control state (its
// profile, badness), computed without the explorer's lock.
type nodeDraft struct {
	bad     bool
	pk      []byte // the profile's key: explicitness, zero, relevance, dynamic positions
	nx      int    // the length of its explicitness part (ctlProfile.xsig)
	xv      []bool
	zero    []int
	keep    []bool
	kk      []byte // keep as a bit set (ctlProfile.keepKey)
	anyKeep bool
	dyn     []domains.DynPos
}

// draftBuf holds the slices of the drafts a worker makes for one
// expansion, so that drafting a control state whose profile exists
// allocates little: a draft made from it is valid until the buffer is
// reset (at the worker's next targets), and addNode copies what a new
// profile keeps.
type draftBuf struct {
	xv   []bool
	zero []int
	pk   []byte
	dyn  []domains.DynPos
}

func (b *draftBuf) reset() {
	b.xv, b.zero, b.pk, b.dyn = b.xv[:0], b.zero[:0], b.pk[:0], b.dyn[:0]
}

// draft computes the profile of c, its slices in b (a fresh buffer when
// nil). It reads only what does not change during an exploration (the
// layout, the relevance, the predicates).
func (x *explorer) draft(c *kabs.Ctl, b *draftBuf) nodeDraft {
	if b == nil {
		b = &draftBuf{}
	}
	d := nodeDraft{bad: x.abs.Sys.IsBad(c.PC)}
	start := len(b.xv)
	b.xv = x.lay.AppendExplicit(b.xv, c)
	d.xv = b.xv[start:len(b.xv):len(b.xv)]
	pk := b.pk
	pkStart := len(pk)
	for _, v := range d.xv {
		if v {
			pk = append(pk, '1')
		} else {
			pk = append(pk, '0')
		}
	}
	d.nx = len(pk) - pkStart
	start = len(b.zero)
	b.zero = x.lay.AppendZero(b.zero, c)
	d.zero = b.zero[start:len(b.zero):len(b.zero)]
	pk = binary.AppendUvarint(pk, uint64(len(d.zero)))
	for _, i := range d.zero {
		pk = binary.AppendUvarint(pk, uint64(i))
	}
	rel, relKey := x.rel.Mask(c)
	kk := []byte(relKey)
	for i, pos := range x.ppos {
		if !rel[i] {
			continue
		}
		explicit := true
		for _, j := range pos {
			if j < 0 || !d.xv[j] {
				explicit = false
				break
			}
		}
		if explicit {
			rel[i] = false
			kk[i/8] &^= 1 << (i % 8)
		} else {
			d.anyKeep = true
		}
	}
	d.keep, d.kk = rel, kk
	pk = binary.AppendUvarint(pk, uint64(len(kk)))
	pk = append(pk, kk...)
	start = len(b.dyn)
	b.dyn = x.lay.AppendDynPositions(b.dyn, c)
	if len(b.dyn) > start {
		d.dyn = b.dyn[start:len(b.dyn):len(b.dyn)]
	}
	for _, p := range d.dyn {
		pk = binary.AppendUvarint(pk, uint64(p.Pos))
		pk = binary.AppendUvarint(pk, uint64(p.Var))
	}
	b.pk = pk
	d.pk = pk[pkStart:len(pk):len(pk)]
	return d
}

// addNode makes the node of the control state with key kb (hash h, not in
// the set) from its draft. The caller holds the explorer's lock or is
// alone.
func (x *explorer) addNode(kb []byte, h uint64, d *nodeDraft) *ctlNode {
	id := x.ctls.push(kb)
	x.ctls.put(h, id)
	if dir := x.nodes.Load(); dir == nil || int(id)>>chunkBits == len(*dir) {
		var grown []*[1 << chunkBits]ctlNode
		if dir != nil {
			grown = append(grown, *dir...)
		}
		grown = append(grown, new([1 << chunkBits]ctlNode))
		x.nodes.Store(&grown)
	}
	n := x.nodeAt(id)
	n.id = id
	if d.bad {
		n.state.Store(nodeBad)
	}
	pr, ok := x.profs[string(d.pk)]
	if !ok {
		// d's slices may live in a worker's draftBuf: copy them.
		var run []*ctlProfile
		pr, run = x.profTab.alloc(1)
		run[0] = &ctlProfile{x: slices.Clone(d.xv), xsig: string(d.pk[:d.nx]), zero: slices.Clone(d.zero), zrun: domains.ZerosOf(d.zero), keep: d.keep, keepKey: string(d.kk), anyKeep: d.anyKeep, dyn: slices.Clone(d.dyn)}
		x.profs[string(d.pk)] = pr
	}
	n.prof = pr
	return n
}

// ctlScratch is a worker's buffers for the control part of expansions.
type ctlScratch struct {
	kb     []byte   // the key of the node expanded
	keys   []byte   // the targets' keys, one after the other
	tgt    []target // the steps whose targets are made
	drafts draftBuf // the slices of tgt's drafts
}

// target is a step to resolve: its index in the node's steps, its target's
// key (in ctlScratch.keys) and hash, the target's id once found (-1
// before), and its draft when it was missing.
type target struct {
	i        int32
	off, end int
	h        uint64
	id       int32
	d        *nodeDraft
}

// ctlOfNode decodes the control state of n; only the copy of its key
// takes the lock (the key set grows under it).
func (x *explorer) ctlOfNode(w *worker, n *ctlNode) *kabs.Ctl {
	x.mu.Lock()
	w.ctl.kb = append(w.ctl.kb[:0], x.ctls.key(n.id)...)
	x.mu.Unlock()
	return x.ctlOf(w.ctl.kb)
}

// targets fills w's targets for the steps idx of succ (all when nil),
// skipping those of done (the node's steps; nil before the first
// expansion) already resolved.
func (x *explorer) targets(w *worker, succ []kabs.Succ, idx []int32, done []ctlSucc) {
	s := &w.ctl
	s.keys, s.tgt = s.keys[:0], s.tgt[:0]
	s.drafts.reset()
	add := func(i int32) {
		if done != nil && done[i].next.Load() != 0 {
			return
		}
		off := len(s.keys)
		s.keys = appendCtlKey(s.keys, succ[i].Ctl)
		s.tgt = append(s.tgt, target{i: i, off: off, end: len(s.keys), h: x.ctls.hash(s.keys[off:]), id: -1})
	}
	if idx == nil {
		for i := range int32(len(succ)) {
			add(i)
		}
		return
	}
	for _, i := range idx {
		add(i)
	}
}

// lookupTargets finds the targets' nodes among those made and returns how
// many are missing. The caller holds the lock.
func (x *explorer) lookupTargets(w *worker) int {
	s := &w.ctl
	missing := 0
	for j := range s.tgt {
		t := &s.tgt[j]
		if t.id >= 0 {
			continue
		}
		if id, ok := x.ctls.lookup(s.keys[t.off:t.end], t.h); ok {
			t.id = id
		} else {
			missing++
		}
	}
	return missing
}

// draftTargets drafts the missing targets, without the lock.
func (x *explorer) draftTargets(w *worker, succ []kabs.Succ) {
	for j := range w.ctl.tgt {
		t := &w.ctl.tgt[j]
		if t.id < 0 && t.d == nil {
			d := x.draft(succ[t.i].Ctl, &w.ctl.drafts)
			t.d = &d
		}
	}
}

// lockResolving takes the lock for resolving w's targets: with targets
// missing, it drafts them without the lock first. It returns with the
// lock held.
func (x *explorer) lockResolving(w *worker, succ []kabs.Succ) {
	x.mu.Lock()
	if x.lookupTargets(w) == 0 {
		return
	}
	x.mu.Unlock()
	x.draftTargets(w, succ)
	x.mu.Lock()
	x.lookupTargets(w)
}

// install resolves w's targets of n (succ: n's kabs successors): makes the
// missing nodes and compiles the steps. The caller holds the lock.
func (x *explorer) install(w *worker, n *ctlNode, succ []kabs.Succ) error {
	succs := x.succsOfNode(n)
	s := &w.ctl
	for j := range s.tgt {
		t := &s.tgt[j]
		cs := &succs[t.i]
		if cs.next.Load() != 0 {
			if x.compiledOf(cs).t != succ[t.i].T {
				return fmt.Errorf("internal error: a control step is not found again")
			}
			continue
		}
		kb := s.keys[t.off:t.end]
		if t.id < 0 {
			// Missing at the lookup; an earlier target of this node may
			// have made it since.
			if id, ok := x.ctls.lookup(kb, t.h); ok {
				t.id = id
			} else {
				if t.d == nil {
					return fmt.Errorf("internal error: a control state missing without a draft")
				}
				t.id = x.addNode(kb, t.h, t.d).id
			}
		}
		next := x.nodeAt(t.id)
		tr := succ[t.i].T
		pre, post := x.prof(n), x.prof(next)
		sk := stepKey{tr, pre.xsig, post.xsig}
		k, ok := x.steps[sk]
		if !ok {
			st, err := x.lay.Compile(pre.x, post.x, tr, succ[t.i].Step)
			if err != nil {
				return err
			}
			var tab []*compiled
			if old := x.stepTab.Load(); old != nil {
				tab = append(tab, *old...)
			}
			tab = append(tab, &compiled{tr, st})
			x.stepTab.Store(&tab)
			k = int32(len(tab))
			x.steps[sk] = k
		}
		cs.step.Store(k)
		cs.next.Store(next.id + 1)
	}
	return nil
}

// expand returns the steps out of n, made on its first expansion with the
// targets of the steps taken first: those of the first candidate ample
// set, or all; the others are resolved when taken (resolve).
func (x *explorer) expand(w *worker, n *ctlNode) ([]ctlSucc, error) {
	if n.ready() {
		return x.succsOfNode(n), nil
	}
	c := x.ctlOfNode(w, n)
	succ := x.succsOf(c)
	if len(succ) > arenaLast {
		return nil, fmt.Errorf("internal error: a control state with %d steps", len(succ))
	}
	var flat, first []int32
	if x.por != nil {
		flat = x.por.candidates(x.abs, c, succ)
		if len(flat) > 0 {
			first, _ = nextAmple(flat)
		}
	}
	x.targets(w, succ, first, nil)
	x.lockResolving(w, succ)
	defer x.mu.Unlock()
	if n.ready() {
		return x.succsOfNode(n), nil
	}
	ref, out := x.succArena.alloc(len(succ))
	n.succRef = ref
	if len(flat) > 0 {
		n.ample = x.internAmple(flat)
	}
	// install reads the steps through succsOfNode: their number is set
	// first, ready after.
	n.state.Store(n.state.Load() | uint32(len(succ))<<nodeStepShift)
	if err := x.install(w, n, succ); err != nil {
		return nil, err
	}
	n.state.Store(n.state.Load() | nodeReady)
	return out, nil
}

// internAmple returns the reference of the entry of the flat ample sets
// flat in ampleTab, made on first sight. The caller holds the lock.
func (x *explorer) internAmple(flat []int32) uint32 {
	b := unsafe.Slice((*byte)(unsafe.Pointer(&flat[0])), 4*len(flat))
	if ref, ok := x.ampleIDs[string(b)]; ok {
		return ref
	}
	run, ample := x.ampleArena.alloc(len(flat))
	copy(ample, flat)
	ref, e := x.ampleTab.alloc(1)
	e[0] = ampleEntry{run, uint32(len(flat))}
	x.ampleIDs[string(b)] = ref
	return ref
}

// resolved reports whether the steps idx of n (all when nil) have their
// targets.
func (x *explorer) resolved(n *ctlNode, idx []int32) bool {
	succs := x.succsOfNode(n)
	if idx == nil {
		for i := range succs {
			if succs[i].next.Load() == 0 {
				return false
			}
		}
		return true
	}
	for _, i := range idx {
		if succs[i].next.Load() == 0 {
			return false
		}
	}
	return true
}

// resolve makes the target nodes and the compiled steps of the steps idx
// of the expanded n (all when idx is nil) when they are first taken. The
// control state's successors are computed again (kabs.Abs.Successors is
// deterministic): keeping those of the steps not yet taken cost more
// memory than the rest of the exploration.
func (x *explorer) resolve(w *worker, n *ctlNode, idx []int32) error {
	if x.resolved(n, idx) {
		return nil
	}
	succ := x.succsOf(x.ctlOfNode(w, n))
	succs := x.succsOfNode(n)
	if len(succ) != len(succs) {
		return fmt.Errorf("internal error: a control state's steps are not found again")
	}
	x.targets(w, succ, idx, succs)
	x.lockResolving(w, succ)
	defer x.mu.Unlock()
	return x.install(w, n, succ)
}
