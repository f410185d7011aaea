package cegar

import (
	"encoding/binary"
	"errors"
	"fmt"
	"slices"

	"fencer/cs"
	"fencer/domains"
	"fencer/kabs"
)

// The control part of an expansion, shared by the workers (parallel.go).
// Every kabs step of process p reads and changes only p's part of the
// control state (kabs.Abs.ProcSuccessors), so the steps are memoised per
// process component (ctlComp: p's part of a control state, interned per
// process), not per control state: its steps, their transitions, the
// components after them and its candidate ample set, made the first time
// a control state with that component is expanded. A control state's key
// is the vector of its components' ids (ctlKey); its steps are those of
// its components, in the order of the processes; the target of a step is
// found, when the step is taken, by editing the key (p's id replaced) and
// looking it up among the control nodes, made if missing, or, where the
// state there may be passed through (forward), made transient: its
// profile and badness only, kept with the step (resolve; promote makes
// a transient target a node when its state is to be stored). Nothing per
// control state records its steps: a node is its key, its profile and its
// badness. A worker's cache of resolved steps (stepCache) saves most of
// the lookups of those made in full (resolveByParts makes most without
// one), and a state passed through (forward) takes its key and
// components from the step that reached it (expandChild).
//
// What costs is done by a worker without the explorer's lock: copying and
// decoding a control state, the kabs steps of a new component (kabs.Abs is
// safe for concurrent use), the targets' keys and hashes, their lookup
// (nodeSet) and that of their compiled steps (compiledFast), and the
// profile parts keys and badness of the targets not yet made
// (appendPartsKey). Under the lock it looks up again what was missing,
// makes it (addNode, comp; a node's profile found by its parts key, a
// control state drafted only for a parts key not seen before:
// profparts.go) and compiles new steps. Two workers may compute one new
// component's steps at once; the first to take the lock publishes them
// (ctlComp.ready), the other's are dropped.
//
// Control nodes and components are numbered in the order they are made,
// which with several workers depends on their timing: nothing the
// exploration reports or stores depends on those numbers (the states are
// numbered by the store, in sequential order; the symmetry reduction
// orders control states by their contents keys, appendCtlKey).

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

// draftBuf holds the slices of the drafts a worker makes, so that
// drafting a control state whose profile exists allocates little: a draft
// made from it is valid until the buffer is reset, and profileOf copies
// what a new profile keeps.
type draftBuf struct {
	xv   []bool
	zero []int
	pk   []byte
	dyn  []domains.DynPos
	rel  []bool
	kk   []byte
}

func (b *draftBuf) reset() {
	b.xv, b.zero, b.pk, b.dyn = b.xv[:0], b.zero[:0], b.pk[:0], b.dyn[:0]
	b.rel, b.kk = b.rel[:0], b.kk[:0]
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
	rs, ks := len(b.rel), len(b.kk)
	b.rel, b.kk = x.rel.AppendMask(b.rel, b.kk, c)
	rel, kk := b.rel[rs:len(b.rel):len(b.rel)], b.kk[ks:len(b.kk):len(b.kk)]
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
// the set), with profile pr and badness bad; it fails (errCtlsFull) when
// the nodes' arena is full. The caller holds the explorer's lock or is
// alone.
func (x *explorer) addNode(kb []byte, h uint64, pr uint32, bad bool) (*ctlNode, error) {
	n := x.ctls.add(kb)
	if n == nil {
		return nil, errCtlsFull
	}
	n.pb = pr
	if bad {
		n.pb |= nodeBad
	}
	// Entered last: a worker that finds the key without the lock reads
	// the node whole.
	x.ctls.put(h, n)
	return n, nil
}

// profileOf returns the reference of the profile of draft d, made if new.
// The caller holds the explorer's lock or is alone.
func (x *explorer) profileOf(d *nodeDraft) uint32 {
	if pr, ok := x.profs[string(d.pk)]; ok {
		return pr
	}
	// d's slices may live in a worker's draftBuf: copy them.
	pr, run := x.profTab.alloc(1)
	xsig := string(d.pk[:d.nx])
	xid, ok := x.xids[xsig]
	if !ok {
		xid = uint32(len(x.xids))
		x.xids[xsig] = xid
	}
	zrun := domains.ZerosOf(d.zero)
	kept := keptRuns(zrun, x.lay.Len())
	runs := append(slices.Clip(zrun), kept...) // one array: read together
	zrun, kept = runs[:len(zrun):len(zrun)], runs[len(zrun):]
	run[0] = &ctlProfile{x: slices.Clone(d.xv), xsig: xsig, xid: xid, zero: slices.Clone(d.zero), zrun: zrun, kept: kept, keep: slices.Clone(d.keep), keepKey: string(d.kk), anyKeep: d.anyKeep, dyn: slices.Clone(d.dyn)}
	x.profs[string(d.pk)] = pr
	return pr
}

// zeroAt reports whether v holds 0 at every position of zero: every
// vector stored or passed through does at the zero of its control state
// (Step.ApplyClipped relies on it; checked under checkProfiles).
func zeroAt(v []int64, zero []int) bool {
	for _, i := range zero {
		if v[i] != 0 {
			return false
		}
	}
	return true
}

var errNotZero = errors.New("internal error: a successor's value at a position that does not matter is not 0")

// nodeSteps is the steps of one control node as a worker expands it
// (expand): its key, the parts of its processes there, their components
// and, per step, its target and compiled step once resolved. A worker has
// three (ctlScratch): one for the state it expands and two for the states
// passed through (forward, which runs within the first's expansion): the
// node passed through and its successor (expandChild).
type nodeSteps struct {
	n     *ctlNode
	kb    []byte     // n's key
	seg   []int      // the part of process p is kb[seg[p]:seg[p+1]]
	comps []*ctlComp // by process, nil for one that does not move
	off   []int32    // the steps of process p are off[p] up to off[p+1]
	at    []stepAt   // by step: its process and component step (step)
	// named is, by bit of a sleep set, the step of b it names, when
	// namedOK (sleep.go: namedSteps; only the bits of b's steps are set).
	named   [32]*compStep
	namedOK bool
	ample   []int32 // the flat candidate ample sets (nextAmple)
	held    int32   // in stage 1 of a staged exploration, the steps held back (stage.go)
	left    int64   // the writes to a tail its components leave out (exactOnly)
	// others is, by process p, what startLean reads of the other
	// processes' components, when bit p of othersOK is set.
	others   []leanOthers
	othersOK uint64
	// made is the stage (plus one) for which expandState made b, 0 when
	// another expansion did: a state of the same node expanded next in
	// that stage reuses it (countSteps), its resolved steps too.
	made int8
	res  []resolved // by step
	tn   []ctlNode  // by step: the target made transient (resolve)
	// pk packs the profile parts of n's components (withPart), when
	// they fit (pkOK); pcs are their locations, by process.
	pk   uint64
	pkOK bool
	pcs  []cs.Loc
	ctl  *kabs.Ctl // n's control state, decoded when needed (ctlOfSteps)
}

// resolved is a step's target node and compiled step, nil until resolved.
// The target is transient (its id -1) when resolve made it so: then it is
// the step's slot of its nodeSteps' tn, valid until those are expanded
// again, and not a node of the nodeSet.
type resolved struct {
	next *ctlNode
	cm   *compiled
}

// len is the number of steps.
func (b *nodeSteps) len() int32 { return b.off[len(b.off)-1] }

// each calls f with each of the steps idx (all when nil).
func (b *nodeSteps) each(idx []int32, f func(i int32)) {
	if idx == nil {
		for i := range b.len() {
			f(i)
		}
		return
	}
	for _, i := range idx {
		f(i)
	}
}

// stepAt is a step of a nodeSteps: its process and component step.
type stepAt struct {
	p int
	s *compStep
}

// step returns the process and component step of step i.
func (b *nodeSteps) step(i int32) (int, *compStep) {
	a := b.at[i]
	return a.p, a.s
}

// ctlScratch is a worker's buffers for the control part of expansions.
type ctlScratch struct {
	top       nodeSteps
	fwd       [2]nodeSteps
	keys      []byte     // the targets' keys, one after the other
	tgt       []target   // the steps whose targets are resolved
	parts     []byte     // the profile parts keys of tgt's missing targets
	pcs       []cs.Loc   // a target's locations (appendPartsKey)
	drafts    draftBuf   // the slices of a draft
	dec       ctlDecoder // a control state decoded for a draft
	candOrder []int      // the processes with a candidate ample set
	cache     stepCache
	nodes     nodeCache // the nodes promote found
	lean      leanState // forward's state passed through (lean.go)
	leanTgts  leanCache // the targets resolveLean found (lean.go)
	leanNode  [2]ctlNode
	leanKey   []byte
	// profs holds the profiles of exploration profX by their parts
	// (profByParts) as this worker has met them, for the transient
	// targets it makes without the lock.
	profs u64map
	profX *explorer
}

// stepCache is a worker's cache of resolved steps, direct-mapped by
// control node and step: the states of a control node are expanded many
// times (and the same runs of states passed through are followed again
// with other values), and a hit saves the lookup of the target's key and
// the lock. It belongs to one exploration (x); entries are never wrong,
// only replaced. It starts with 1<<stepCacheBits entries and doubles, up
// to 1<<stepCacheMaxBits, each time it has missed four times as often as
// it has entries: a large exploration gets a large cache, a small one
// clears little.
type stepCache struct {
	x       *explorer
	entries []stepCacheEntry
	bits    int
	misses  int
}

type stepCacheEntry struct {
	id, i int32 // the node and its step, id+1 (0: empty)
	r     resolved
}

const (
	stepCacheBits    = 14
	stepCacheMaxBits = 18
)

// release drops what w's control buffers hold of exploration x (its
// nodes, components, compiled steps), so that x's tables are garbage once
// it ends, not when w's next exploration first uses them.
func (s *ctlScratch) release() {
	if s.cache.x != nil {
		if s.cache.bits > stepCacheBits {
			s.cache.entries = nil
		}
		clear(s.cache.entries)
		s.cache.x = nil
	}
	s.profs.reset()
	s.profX = nil
	s.nodes.x = nil
	s.lean = leanState{}
	s.leanTgts = leanCache{}
	for _, b := range []*nodeSteps{&s.top, &s.fwd[0], &s.fwd[1]} {
		clear(b.comps[:cap(b.comps)])
		clear(b.res[:cap(b.res)])
		clear(b.at[:cap(b.at)])
		b.named = [32]*compStep{}
		b.n, b.ctl = nil, nil
	}
	clear(s.tgt[:cap(s.tgt)])
}

// nodeCache is a worker's cache of the nodes promote finds by their keys,
// direct-mapped by the key's hash, with the key in the entry: the same
// few control states end the runs of states passed through again and
// again, and a hit reads neither the nodeSet's table nor the node (two
// cache misses when the nodes are many). It belongs to one exploration
// (x); entries are never wrong, only replaced. It grows as stepCache
// does, from 1<<nodeCacheBits up to 1<<nodeCacheMaxBits entries. Keys
// longer than a node holds are not cached.
type nodeCache struct {
	x       *explorer
	entries []nodeCacheEntry
	bits    int
	misses  int
}

type nodeCacheEntry struct {
	h   uint64 // the key's hash; an entry with kl 0 is empty
	id  int32
	kl  uint8
	key [nodeKeyMax]byte
}

const (
	nodeCacheBits    = 10
	nodeCacheMaxBits = 14
)

// slot returns the entry of the key with hash h.
func (c *nodeCache) slot(x *explorer, h uint64) *nodeCacheEntry {
	if c.x != x {
		if c.entries == nil || c.bits > nodeCacheBits {
			c.entries = make([]nodeCacheEntry, 1<<nodeCacheBits)
		} else {
			clear(c.entries)
		}
		c.x, c.bits, c.misses = x, nodeCacheBits, 0
	}
	return &c.entries[h>>(64-c.bits)]
}

// miss counts a miss, and doubles the cache (empty) when they are many.
func (c *nodeCache) miss() {
	c.misses++
	if c.misses > 4<<c.bits && c.bits < nodeCacheMaxBits {
		c.bits++
		c.entries, c.misses = make([]nodeCacheEntry, 1<<c.bits), 0
	}
}

// slot returns the entry of step i of node id.
func (c *stepCache) slot(x *explorer, id, i int32) *stepCacheEntry {
	if c.x != x {
		if c.entries == nil {
			c.entries = make([]stepCacheEntry, 1<<stepCacheBits)
		} else {
			clear(c.entries)
		}
		c.x, c.bits, c.misses = x, stepCacheBits, 0
	}
	h := (uint64(uint32(id))*0x9E3779B97F4A7C15 + uint64(uint32(i))*0xC2B2AE3D27D4EB4F) >> (64 - c.bits)
	return &c.entries[h]
}

// miss counts a miss, and doubles the cache (empty) when they are many.
func (c *stepCache) miss() {
	c.misses++
	if c.misses > 4<<c.bits && c.bits < stepCacheMaxBits {
		c.bits++
		c.entries, c.misses = make([]stepCacheEntry, 1<<c.bits), 0
	}
}

// target is a step to resolve: its index in the node's steps, its target's
// key (in ctlScratch.keys) and hash, the target's id once found (-1
// before), and its profile parts key and badness when it was missing.
type target struct {
	i        int32
	off, end int
	h        uint64
	id       int32
	// parts[poff:pend] is the target's profile parts key
	// (appendPartsKey) in ctlScratch.parts, and bad its badness.
	poff, pend int
	bad        bool
}

// ctlOfSteps returns the control state of b's node, decoded on first need.
func (x *explorer) ctlOfSteps(b *nodeSteps) *kabs.Ctl {
	if b.ctl == nil {
		b.ctl = x.ctlOf(b.kb)
	}
	return b.ctl
}

// expand fills b with the steps of n: its key and components (their steps
// made on the first expansion of a control state with them), the flat
// ample sets when the reduction is on, and no step resolved.
func (x *explorer) expand(w *worker, n *ctlNode, b *nodeSteps) error {
	b.n, b.ctl, b.made = n, nil, 0
	b.kb = append(b.kb[:0], x.ctls.key(n)...)
	b.seg, b.comps = append(b.seg[:0], 0), b.comps[:0]
	missing := false
	b.pk, b.pkOK, b.pcs = 0, true, b.pcs[:0]
	for p := range x.abs.Sys.Procs {
		id, k := binary.Uvarint(b.kb[b.seg[p]:])
		b.seg = append(b.seg, b.seg[p]+k)
		full := x.compByID(p, uint32(id))
		b.pk, b.pkOK = x.withPart(b.pk, b.pkOK, p, full.part)
		b.pcs = append(b.pcs, full.pc)
		var c *ctlComp
		if x.active == 0 || p < x.active {
			c = full
			missing = missing || !c.ready.Load()
		}
		b.comps = append(b.comps, c)
	}
	if missing {
		if err := x.makeComps(b); err != nil {
			return err
		}
	}
	x.stepsOfComps(w, b)
	return nil
}

// expandChild fills b as expand does with the steps of the target of step
// i of from (resolved): its key is from's with the part of the step's
// process replaced, its components from's with that one replaced, so
// that neither a key nor a component is looked up.
func (x *explorer) expandChild(w *worker, from *nodeSteps, i int32, b *nodeSteps) error {
	p, cs := from.step(i)
	return x.expandWith(w, from, p, cs.to, from.res[i].next, b)
}

// expandWith fills b as expand does with the steps of the control state
// of from with process p's component replaced by c; n is its node (a
// transient one is not copied: it must outlive b's use).
func (x *explorer) expandWith(w *worker, from *nodeSteps, p int, c *ctlComp, n *ctlNode, b *nodeSteps) error {
	b.n, b.ctl, b.made = n, nil, 0
	b.kb = appendKeyWith(b.kb[:0], from, p, c.id)
	d := len(b.kb) - len(from.kb) // the shift of the parts after p's
	b.seg = b.seg[:0]
	for q, v := range from.seg {
		if q > p {
			v += d
		}
		b.seg = append(b.seg, v)
	}
	b.comps = append(b.comps[:0], from.comps...)
	b.comps[p] = c
	b.pk, b.pkOK = x.withPart(from.pk, from.pkOK, p, c.part)
	b.pcs = append(b.pcs[:0], from.pcs...)
	b.pcs[p] = c.pc
	if !c.ready.Load() {
		if err := x.makeComps(b); err != nil {
			return err
		}
	}
	x.stepsOfComps(w, b)
	return nil
}

// stepsOfComps sets, from b's components, the places of its processes'
// steps, no step resolved, and the ample sets.
func (x *explorer) stepsOfComps(w *worker, b *nodeSteps) {
	np := len(b.comps)
	b.off, b.at, b.namedOK, b.othersOK = append(b.off[:0], 0), b.at[:0], false, 0
	left, held := int64(0), int32(0)
	for p := range np {
		k := b.off[p]
		if c := b.comps[p]; c != nil {
			k += int32(len(c.steps))
			left += int64(c.left)
			held += c.held
			for j := range c.steps {
				b.at = append(b.at, stepAt{p, &c.steps[j]})
			}
		}
		b.off = append(b.off, k)
	}
	b.held, b.left = 0, left
	if x.stage == 1 && held > 0 {
		b.held = held
	}
	x.countSteps(b)
	b.res = slices.Grow(b.res[:0], int(b.len()))[:b.len()]
	clear(b.res)
	b.tn = slices.Grow(b.tn[:0], int(b.len()))[:b.len()]
	b.ample = b.ample[:0]
	if x.por != nil {
		x.flatAmple(w, b)
	}
}

// countSteps counts the writes to a tail that the expansion of a state
// with b's steps leaves out and the steps it holds back.
func (x *explorer) countSteps(b *nodeSteps) {
	if b.left > 0 {
		x.dropped.Add(b.left)
	}
	if b.held > 0 {
		x.heldN.Add(int64(b.held))
	}
}

// resolve finds the targets and compiled steps of the steps idx of b (all
// when nil) not yet resolved. With trans, a target that is not a node of
// the nodeSet is not made one: it is made transient, in b.tn (its profile
// and badness only). The partial-order reduction passes most of the
// states it reaches through without storing them (forward), and only a
// state stored needs its control state's node (the store's key holds the
// node's id): forward makes the last target it reaches a node (promote).
func (x *explorer) resolve(w *worker, b *nodeSteps, idx []int32, trans bool) error {
	s := &w.ctl
	if trans && s.profX == x {
		if all, err := x.resolveByParts(w, b, idx); all || err != nil {
			return err
		}
	}
	s.keys, s.tgt = s.keys[:0], s.tgt[:0]
	s.drafts.reset()
	add := func(i int32) {
		if b.res[i].next != nil {
			return
		}
		if b.n.id >= 0 {
			if e := s.cache.slot(x, b.n.id, i); e.id == b.n.id+1 && e.i == i {
				b.res[i] = e.r
				return
			}
		}
		s.cache.miss()
		off := len(s.keys)
		s.keys = appendTargetKey(s.keys, b, i)
		s.tgt = append(s.tgt, target{i: i, off: off, end: len(s.keys), h: x.ctls.hash(s.keys[off:]), id: -1})
	}
	b.each(idx, add)
	if len(s.tgt) == 0 {
		return nil
	}
	// First without the lock: the targets and their compiled steps are
	// most often all made already.
	if x.lookupTargets(w) == 0 && x.installFound(w, b) {
		return nil
	}
	// The profile parts keys and badness of the targets missing, without
	// the lock too: one made meanwhile is found again by install.
	s.parts = s.parts[:0]
	for j := range s.tgt {
		if t := &s.tgt[j]; t.id < 0 {
			t.poff = len(s.parts)
			s.parts, t.bad = x.appendPartsKey(s.parts, &s.pcs, s.keys[t.off:t.end])
			t.pend = len(s.parts)
		}
	}
	x.mu.Lock()
	defer x.mu.Unlock()
	return x.install(w, b, trans)
}

// resolveByParts makes the targets of the steps idx of b (all when nil)
// not yet resolved transient, each found by its components' parts (b's
// with the step's process's replaced) among the profiles w has met, with
// its compiled step among those read without the lock; it reports whether
// it could do so for all (those it could are resolved). No key is made
// or looked up, and w's cache of resolved steps is not read either: the
// cache is larger than a core's L2 cache when control states are many,
// so that its probe missed more often than it saved, and where they are
// few the parts are found as fast. Under checkProfiles each target found
// by parts is checked against its draft.
func (x *explorer) resolveByParts(w *worker, b *nodeSteps, idx []int32) (bool, error) {
	s := &w.ctl
	xid := x.prof(b.n).xid
	var err error
	one := func(i int32) bool {
		if b.res[i].next != nil || err != nil {
			return err == nil
		}
		q, cs := b.step(i)
		v, ok := x.withPart(b.pk, b.pkOK, q, cs.to.part)
		if !ok {
			return false
		}
		pr, ok := s.profs.get(v)
		if !ok {
			return false
		}
		pc := b.pcs[q]
		b.pcs[q] = cs.to.pc
		bad := x.badMoves.bad(b.pcs, q) // b's state is not bad
		b.pcs[q] = pc
		n := b.transient(i, pr, bad)
		if checkProfiles {
			if err = x.checkDraft(w, appendTargetKey(s.keys[:0], b, i), n.pb); err != nil {
				return false
			}
		}
		cm := cs.compiledFast(xid, x.prof(n).xid)
		if cm == nil {
			return false
		}
		b.res[i] = resolved{n, cm}
		return true
	}
	all := true
	b.each(idx, func(i int32) { all = one(i) && all })
	return all, err
}

// checkDraft drafts the control state with key kb and fails unless its
// profile and badness are pb's (checkProfiles).
func (x *explorer) checkDraft(w *worker, kb []byte, pb uint32) error {
	x.mu.Lock()
	defer x.mu.Unlock()
	d := x.draft(x.ctlOfInto(&w.ctl.dec, kb), &w.ctl.drafts)
	w.ctl.drafts.reset()
	want := x.profileOf(&d)
	if d.bad {
		want |= nodeBad
	}
	if want != pb {
		return fmt.Errorf("internal error: a control state's profile from its components' parts differs from its draft")
	}
	return nil
}

// appendTargetKey appends to dst the key of the target of step i of b:
// b's key with the step's process's component replaced.
func appendTargetKey(dst []byte, b *nodeSteps, i int32) []byte {
	p, cs := b.step(i)
	return appendKeyWith(dst, b, p, cs.to.id)
}

// appendKeyWith appends to dst the key of b's control state with process
// p's component replaced by the one with id id.
func appendKeyWith(dst []byte, b *nodeSteps, p int, id uint32) []byte {
	dst = append(dst, b.kb[:b.seg[p]]...)
	dst = binary.AppendUvarint(dst, uint64(id))
	return append(dst, b.kb[b.seg[p+1]:]...)
}

// withPart returns the parts key k with process p's part set to part,
// and whether it fits (ok, and every part before it fitted). A parts key
// packs a control state's components' profile parts (profparts.go), by
// process, in 64 bits, partBits bits each (as many as 64 bits give each
// process, at most 32): a worker's key for the profiles it has met
// (ctlScratch.profs). A target whose parts do not fit is not made
// transient.
func (x *explorer) withPart(k uint64, ok bool, p int, part uint32) (uint64, bool) {
	w := x.partBits
	if !ok || w == 0 || uint64(part)>>w != 0 {
		return 0, false
	}
	sh := uint(p) * w
	return k&^((1<<w-1)<<sh) | uint64(part)<<sh, true
}

// targetParts returns the parts key of the target of step i of b.
func (x *explorer) targetParts(b *nodeSteps, i int32) (uint64, bool) {
	q, cs := b.step(i)
	return x.withPart(b.pk, b.pkOK, q, cs.to.part)
}

// installFound resolves w's targets of b, all found, when their compiled
// steps are all among those read without the lock (compiledFast), and
// reports whether they were.
func (x *explorer) installFound(w *worker, b *nodeSteps) bool {
	s := &w.ctl
	for j := range s.tgt {
		t := &s.tgt[j]
		next := x.nodeAt(t.id)
		_, cs := b.step(t.i)
		cm := cs.compiledFast(x.prof(b.n).xid, x.prof(next).xid)
		if cm == nil {
			return false
		}
		x.resolved(w, b, t.i, next, cm)
	}
	return true
}

// transient makes the target of step i of b transient, with profile pr
// and badness bad.
func (b *nodeSteps) transient(i int32, pr uint32, bad bool) *ctlNode {
	n := &b.tn[i]
	*n = ctlNode{id: -1, pb: pr}
	if bad {
		n.pb |= nodeBad
	}
	return n
}

// resolved records next and cm as step i of b's, in w's cache too when
// both b's node and next are nodes of the nodeSet.
func (x *explorer) resolved(w *worker, b *nodeSteps, i int32, next *ctlNode, cm *compiled) {
	b.res[i] = resolved{next, cm}
	if b.n.id >= 0 && next.id >= 0 {
		*w.ctl.cache.slot(x, b.n.id, i) = stepCacheEntry{b.n.id + 1, i, b.res[i]}
	}
}

// lookupTargets finds the targets' nodes among those made and returns how
// many are missing. It needs no lock (a node made meanwhile may be
// missed: nodeSet).
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

// install makes the missing targets of w's targets of b (transient ones
// with trans) and finds or compiles their steps. The caller holds the
// lock.
func (x *explorer) install(w *worker, b *nodeSteps, trans bool) error {
	s := &w.ctl
	for j := range s.tgt {
		t := &s.tgt[j]
		kb := s.keys[t.off:t.end]
		var next *ctlNode
		if t.id < 0 {
			// Missing at the lookup; another worker or an earlier
			// target may have made it since.
			if id, ok := x.ctls.lookup(kb, t.h); ok {
				t.id = id
			} else {
				pk := s.parts[t.poff:t.pend]
				pr, err := x.profileByParts(w, kb, pk, t.bad)
				if err != nil {
					return err
				}
				if v, ok := x.targetParts(b, t.i); trans && ok {
					if s.profX != x {
						s.profs.reset()
						s.profX = x
					}
					s.profs.put(v, pr)
					next = b.transient(t.i, pr, t.bad)
				} else {
					n, err := x.addNode(kb, t.h, pr, t.bad)
					if err != nil {
						return err
					}
					t.id = n.id
				}
			}
		}
		if next == nil {
			next = x.nodeAt(t.id)
		}
		_, cs := b.step(t.i)
		cm, err := x.compiledOf(cs, b.n, next)
		if err != nil {
			return err
		}
		x.resolved(w, b, t.i, next, cm)
	}
	return nil
}

// promote returns the node of the target of step i of b, made if it is
// transient: the state there is to be stored.
func (x *explorer) promote(w *worker, b *nodeSteps, i int32) (*ctlNode, error) {
	r := &b.res[i]
	if r.next.id >= 0 {
		return r.next, nil
	}
	s := &w.ctl
	s.keys = appendTargetKey(s.keys[:0], b, i)
	n, err := x.promoteKey(w, s.keys, r.next)
	if err == nil {
		x.resolved(w, b, i, n, r.cm)
	}
	return n, err
}

// promoteKey returns the node of the control state with key kb, whose
// node t is transient or a node: made a node of the nodeSet if it is not
// one yet.
func (x *explorer) promoteKey(w *worker, kb []byte, t *ctlNode) (*ctlNode, error) {
	if t.id >= 0 {
		return x.nodeAt(t.id), nil
	}
	s := &w.ctl
	h := x.ctls.hash(kb)
	e := s.nodes.slot(x, h)
	if e.h == h && int(e.kl) == len(kb) && string(e.key[:e.kl]) == string(kb) {
		return x.nodeAt(e.id), nil
	}
	id, ok := x.ctls.lookup(kb, h)
	if !ok {
		x.mu.Lock()
		if id, ok = x.ctls.lookup(kb, h); !ok {
			n, err := x.addNode(kb, h, t.pb&^nodeBad, t.bad())
			if err != nil {
				x.mu.Unlock()
				return nil, err
			}
			id = n.id
		}
		x.mu.Unlock()
	}
	s.nodes.miss()
	if len(kb) <= nodeKeyMax {
		f := s.nodes.slot(x, h)
		*f = nodeCacheEntry{h: h, id: id, kl: uint8(len(kb))}
		copy(f.key[:], kb)
	}
	return x.nodeAt(id), nil
}

// resolveOne returns the target and compiled step of step i of n (n
// expanded into w's first buffer): for rebuilding a counterexample.
func (x *explorer) resolveOne(w *worker, n *ctlNode, i int32) (resolved, error) {
	b := &w.ctl.top
	if err := x.expand(w, n, b); err != nil {
		return resolved{}, err
	}
	if i < 0 || i >= b.len() {
		return resolved{}, fmt.Errorf("internal error: a control state's step is not found again")
	}
	if err := x.resolve(w, b, []int32{i}, false); err != nil {
		return resolved{}, err
	}
	return b.res[i], nil
}
