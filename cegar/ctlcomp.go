package cegar

import (
	"encoding/binary"
	"fmt"
	"sync/atomic"

	"fencer/cs"
	"fencer/domains"
	"fencer/kabs"
)

// The process components of the control states (ctlexpand.go): each
// process's parts of the control states interned, with the steps of the
// process out of them, made once; the compiled explicit steps of those
// steps by explicitness before and after; the candidate ample sets of a
// control state from those of its components; the keys of the control
// states, vectors of component ids, and their decoding.

// ctlComp is a process's component of the control states: its part of a
// contents key (appendProcKey) and, once ready, its steps and candidate
// ample set. There are few per process; they are made and published under
// the explorer's lock, and read without it once ready.
type ctlComp struct {
	id    uint32 // dense per process, in order of discovery
	key   string
	ready atomic.Bool
	steps []compStep
	// cand lists the indices in steps of the process's candidate ample
	// set here (por.go: procCandidate), nil when it is none; cond says
	// that the values of a state decide whether it may be taken
	// (porInfo.blocked).
	cand []int32
	cond bool
	// cand1 and cond1 are cand and cond in the first stage of a staged
	// exploration (stage.go), with locality decided under its bound;
	// held counts the steps it holds back (compStep.held).
	cand1 []int32
	cond1 bool
	held  int32
	// flushAt is, by flush slot, the index in steps of the flush of
	// the oldest exact write named so (sleep.go: flushesOf).
	flushAt []int32
	// left is the number of writes to a tail left out of steps
	// (exactOnly).
	left int32
	// pc is the process's location; part the id of its profile part
	// (profparts.go).
	pc   cs.Loc
	part uint32
	// zrun are the runs of the positions of the process that do not
	// matter here (domains.Layout.Zero, OwnZeros): 0 after a step into
	// this component, which clears those of them that may not be 0
	// before it (compStep.clear, Step.ApplyClipped).
	zrun domains.Zeros
}

// compTab is a process's components: by key (under the explorer's lock)
// and by id, in chunks that never move, the list of chunks replaced when
// one is added (read without the lock).
type compTab struct {
	byKey map[string]*ctlComp
	dir   atomic.Pointer[[]*[1 << compChunkBits]*ctlComp]
}

const compChunkBits = 8

// compByID returns component id of process p.
func (x *explorer) compByID(p int, id uint32) *ctlComp {
	return (*x.comps[p].dir.Load())[id>>compChunkBits][id&(1<<compChunkBits-1)]
}

// compStep is a step of a process out of a component: its transition and
// the component after it. (Its kabs step is not kept: a counterexample's
// steps are found again, stepAt.)
type compStep struct {
	t    *kabs.Trans
	step kabs.AStep
	to   *ctlComp
	// clear are the runs of to.zrun the step clears: less those of the
	// component before that it assigns nothing (domains.Layout.ClearedZeros).
	clear domains.Zeros
	// held says that the first stage of a staged exploration holds the
	// step back: it leaves more exact writes in a buffer than the
	// stage's bound (stage.go).
	held bool
	// rd and wr are the shared variables the step reads and writes, for
	// sleep sets (sleep.go: accessMasks).
	rd, wr uint64
	// name is the step's bit in a sleep set, 0 for none; own are the
	// bits of its process's steps still asleep after it (sleep.go:
	// sleepNames).
	name, own uint32
	// compiled holds the compiled steps of the step between the
	// explicitness (ctlProfile.xid) before and after it was taken with,
	// the first ncompiled of them (the others in explorer.compiledBy,
	// under the explorer's lock). An entry is written under the lock
	// before ncompiled counts it, and read without the lock.
	compiled  [stepCompiledMax]profCompiled
	ncompiled atomic.Int32
}

// profCompiled is a compiled step between two explicitness ids.
type profCompiled struct {
	pre, post uint32
	cm        *compiled
}

// stepCompiledMax is the length of compStep.compiled.
const stepCompiledMax = 8

// compiledKey identifies the compiled explicit step of a component's step
// between two explicitness ids (ctlProfile.xid).
type compiledKey struct {
	s         *compStep
	pre, post uint32
}

// makeComps makes the steps of b's components that have none: computed
// without the lock from b's control state, published under it.
func (x *explorer) makeComps(b *nodeSteps) error {
	c := x.ctlOfSteps(b)
	type made struct {
		p           int
		succ        []kabs.Succ
		cand, cand1 []int32
		cond, cond1 bool
		left        int
	}
	var todo []made
	for p, comp := range b.comps {
		if comp != nil && !comp.ready.Load() {
			succ, left := x.procSuccessors(c, p)
			m := made{p: p, succ: succ, left: left}
			if x.por != nil {
				m.cand, m.cond = x.por.procCandidate(x.abs, c, p, succ, x.abs.K)
				if x.stage1K > 0 {
					m.cand1, m.cond1 = x.por.procCandidate(x.abs, c, p, succ, x.stage1K)
				}
			}
			todo = append(todo, m)
		}
	}
	var kb []byte
	x.mu.Lock()
	defer x.mu.Unlock()
	for _, m := range todo {
		comp := b.comps[m.p]
		if comp.ready.Load() {
			continue
		}
		if len(m.succ) >= 1<<20 {
			return fmt.Errorf("internal error: a process with %d steps", len(m.succ))
		}
		steps := make([]compStep, len(m.succ))
		held := int32(0)
		for i, s := range m.succ {
			kb = appendProcKey(kb[:0], s.Ctl, m.p)
			steps[i].t, steps[i].step, steps[i].to = s.T, s.Step, x.comp(m.p, kb)
			steps[i].clear = x.lay.ClearedZeros(steps[i].to.zrun, comp.zrun, s.T)
			if x.sleepW > 0 {
				x.accessMasks(&steps[i])
			}
			if x.stage1K > 0 && x.abs.ExceedsK(s, x.stage1K) {
				steps[i].held = true
				held++
			}
		}
		comp.flushAt = x.flushesOf(m.p, steps)
		if x.sleepW > 0 {
			x.sleepNames(comp, m.p, steps)
		}
		comp.steps, comp.cand, comp.cond, comp.left = steps, m.cand, m.cond, int32(m.left)
		comp.cand1, comp.cond1, comp.held = m.cand1, m.cond1, held
		comp.ready.Store(true)
	}
	return nil
}

// procSuccessors returns the steps of process p out of c that the
// exploration takes (kabs.Abs.ProcSuccessors; with exactOnly, no write
// to a tail) and the number of writes to a tail left out.
func (x *explorer) procSuccessors(c *kabs.Ctl, p int) ([]kabs.Succ, int) {
	succ := x.abs.ProcSuccessors(c, p)
	if !x.exactOnly {
		return succ, 0
	}
	out, left := succ[:0:0], 0
	for _, s := range succ {
		if s.Step.Rule == kabs.RuleWriteG {
			left++
			continue
		}
		out = append(out, s)
	}
	return out, left
}

// comp returns the component of process p with key k, made (without
// steps) if new. The caller holds the lock or is alone.
func (x *explorer) comp(p int, k []byte) *ctlComp {
	t := &x.comps[p]
	if c, ok := t.byKey[string(k)]; ok {
		return c
	}
	c := &ctlComp{id: uint32(len(t.byKey)), key: string(k)}
	c.pc, c.part, c.zrun = x.compPart(p, k)
	t.byKey[c.key] = c
	dir := t.dir.Load()
	if dir == nil || int(c.id)>>compChunkBits == len(*dir) {
		var grown []*[1 << compChunkBits]*ctlComp
		if dir != nil {
			grown = append(grown, *dir...)
		}
		grown = append(grown, new([1 << compChunkBits]*ctlComp))
		t.dir.Store(&grown)
		dir = &grown
	}
	(*dir)[c.id>>compChunkBits][c.id&(1<<compChunkBits-1)] = c
	return c
}

// candidate returns c's candidate ample set and whether it is
// conditional: in the first stage of a staged exploration (first) those
// with locality under its bound (stage.go). None for a nil c (a process
// that does not move).
func (c *ctlComp) candidate(first bool) ([]int32, bool) {
	switch {
	case c == nil:
		return nil, false
	case first:
		return c.cand1, c.cond1
	}
	return c.cand, c.cond
}

// flatAmple sets b.ample: the candidate ample sets of b's processes, fewest
// steps first (the processes in order among equals), each its length
// (negated for a conditional one: nextAmple) and then its indices in b's
// steps.
func (x *explorer) flatAmple(w *worker, b *nodeSteps) {
	order := w.ctl.candOrder[:0]
	first := x.stage == 1
	for p, c := range b.comps {
		if cand, _ := c.candidate(first); len(cand) > 0 {
			order = append(order, p)
		}
	}
	// A stable insertion sort by length: there are few processes.
	for i := 1; i < len(order); i++ {
		for j := i; j > 0; j-- {
			a, _ := b.comps[order[j]].candidate(first)
			z, _ := b.comps[order[j-1]].candidate(first)
			if len(a) >= len(z) {
				break
			}
			order[j], order[j-1] = order[j-1], order[j]
		}
	}
	for _, p := range order {
		cand, cond := b.comps[p].candidate(first)
		if cond {
			b.ample = append(b.ample, -int32(len(cand)))
		} else {
			b.ample = append(b.ample, int32(len(cand)))
		}
		for _, j := range cand {
			b.ample = append(b.ample, b.off[p]+j)
		}
	}
	w.ctl.candOrder = order
}

// compiledOf returns the compiled step of cs from n to next, compiled on
// first need (it depends on the explicitness before and after: xid). The
// caller holds the lock.
func (x *explorer) compiledOf(cs *compStep, n, next *ctlNode) (*compiled, error) {
	pre, post := x.prof(n), x.prof(next)
	if cm := cs.compiledFast(pre.xid, post.xid); cm != nil {
		return cm, nil
	}
	k := cs.ncompiled.Load()
	ck := compiledKey{cs, pre.xid, post.xid}
	if k == stepCompiledMax {
		if cm := x.compiledBy[ck]; cm != nil {
			return cm, nil
		}
	}
	sk := stepKey{cs.t, pre.xsig, post.xsig}
	cm, ok := x.steps[sk]
	if !ok {
		st, err := x.lay.Compile(pre.x, post.x, cs.t, cs.step)
		if err != nil {
			return nil, err
		}
		cm = &compiled{cs.t, st}
		x.steps[sk] = cm
	}
	if k < stepCompiledMax {
		cs.compiled[k] = profCompiled{pre.xid, post.xid, cm}
		cs.ncompiled.Store(k + 1)
	} else {
		x.compiledBy[ck] = cm
	}
	return cm, nil
}

// compiledFast returns the compiled step of cs between the explicitness
// ids pre and post when it is among cs.compiled, else nil. It needs no
// lock.
func (cs *compStep) compiledFast(pre, post uint32) *compiled {
	for _, e := range cs.compiled[:cs.ncompiled.Load()] {
		if e.pre == pre && e.post == post {
			return e.cm
		}
	}
	return nil
}

// The key of a control state in the explorer's nodeSet (ctlKey) is the
// vector of its processes' components (ctlexpand.go: ctlComp, interned per
// process), each id a varint: a few bytes. The component's own key is
// its process's part of the contents (appendProcKey); appendCtlKey
// concatenates those, the contents key that the symmetry reduction
// compares.

// ctlKey returns the key of c (its components' ids, interned on first
// sight) in x.kbuf. The caller holds the explorer's lock or is alone.
func (x *explorer) ctlKey(c *kabs.Ctl) []byte {
	x.kbuf = x.appendIDKey(x.kbuf[:0], c)
	return x.kbuf
}

// appendIDKey appends the key of c (ctlKey) to b, interning its
// components. The caller holds the lock or is alone.
func (x *explorer) appendIDKey(b []byte, c *kabs.Ctl) []byte {
	for p := range c.PC {
		x.pbuf = appendProcKey(x.pbuf[:0], c, p)
		b = binary.AppendUvarint(b, uint64(x.comp(p, x.pbuf).id))
	}
	return b
}

// appendCtlKey appends the contents key of c to b: its processes' parts
// (appendProcKey), in order.
func appendCtlKey(b []byte, c *kabs.Ctl) []byte {
	for p := range c.PC {
		b = appendProcKey(b, c, p)
	}
	return b
}

// appendProcKey appends process p's part of the key of c (appendCtlKey):
// its location, buffer, tail and epochs.
func appendProcKey(b []byte, c *kabs.Ctl, p int) []byte {
	b = binary.AppendUvarint(b, uint64(c.PC[p]))
	if c.B == nil {
		return b
	}
	b = binary.AppendUvarint(b, uint64(len(c.B[p])))
	for _, v := range c.B[p] {
		b = binary.AppendUvarint(b, uint64(v))
	}
	b = binary.AppendUvarint(b, uint64(len(c.S[p])))
	for _, v := range c.S[p] {
		b = binary.AppendUvarint(b, uint64(v))
	}
	if c.E != nil {
		b = binary.AppendUvarint(b, uint64(len(c.E[p])))
		for _, v := range c.E[p] {
			b = binary.AppendVarint(b, int64(v))
		}
	}
	return b
}

// ctlOf decodes a control state from its key (ctlKey): its components'
// parts, read without the lock.
func (x *explorer) ctlOf(kb []byte) *kabs.Ctl {
	return x.ctlOfInto(&ctlDecoder{}, kb)
}

// ctlDecoder holds what decoding a control state reuses: the contents key
// and the control state decoded last.
type ctlDecoder struct {
	content []byte
	c       kabs.Ctl
}

// ctlOfInto decodes a control state from its key (ctlKey) into d's, which
// it returns: valid until d's next use.
func (x *explorer) ctlOfInto(d *ctlDecoder, kb []byte) *kabs.Ctl {
	d.content = d.content[:0]
	for p := range x.abs.Sys.Procs {
		id, k := binary.Uvarint(kb)
		kb = kb[k:]
		d.content = append(d.content, x.compByID(p, uint32(id)).key...)
	}
	x.ctlOfContentInto(&d.c, d.content)
	return &d.c
}

// ctlOfContentInto decodes a control state from its contents key into c,
// reusing c's slices.
func (x *explorer) ctlOfContentInto(c *kabs.Ctl, b []byte) {
	x.shapeCtl(c)
	for p := range c.PC {
		b = x.decodeProc(c, p, b)
	}
}

// shapeCtl gives c a part for every process, reusing its slices.
func (x *explorer) shapeCtl(c *kabs.Ctl) {
	np := len(x.abs.Sys.Procs)
	c.PC = resize(c.PC, np)
	if x.hasB {
		c.B, c.S = resize(c.B, np), resize(c.S, np)
	} else {
		c.B, c.S = nil, nil
	}
	if x.hasE {
		c.E = resize(c.E, np)
	} else {
		c.E = nil
	}
}

// decodeProc decodes process p's part of c (appendProcKey) from the start
// of b into c (shaped: shapeCtl), and returns the rest of b.
func (x *explorer) decodeProc(c *kabs.Ctl, p int, b []byte) []byte {
	next := func() int {
		v, k := binary.Uvarint(b)
		b = b[k:]
		return int(v)
	}
	list := func(dst []int) []int {
		dst = dst[:0]
		for n := next(); n > 0; n-- {
			dst = append(dst, next())
		}
		return dst
	}
	c.PC[p] = cs.Loc(next())
	if !x.hasB {
		return b
	}
	c.B[p] = list(c.B[p])
	c.S[p] = list(c.S[p])
	if x.hasE {
		e := c.E[p][:0]
		for n := next(); n > 0; n-- {
			v, k := binary.Varint(b)
			b = b[k:]
			e = append(e, int(v))
		}
		c.E[p] = e
	}
	return b
}
