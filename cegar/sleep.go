package cegar

import (
	"math/bits"

	"fencer/expr"
	"fencer/kabs"
	"fencer/memmodel"
)

// Sleep sets (doc.go, "Sleep sets"): the steps of a stored state that
// need not be taken because a state explored before took them already,
// and nothing since changed what they read or what reads what they write.
//
// A step is named across states by its process p and its index j among
// the steps of p's component (ctlComp.steps): a step of another process
// leaves p's component, so that name, unchanged. A sleep set is a uint32:
// process p has the sleepW bits from p*sleepW, bit j for its step j (a
// step whose j does not fit is never asleep); the top bit, sleepExpanded,
// marks a stored state issued for expansion (stateStore.sleep).

// sleepExpanded marks, in a stored state's sleep set, that the state was
// issued for expansion: a later arrival that wakes steps makes a
// re-expansion of those (reach.go).
const sleepExpanded = 1 << 31

// sleepInit sets x.sleepW: the bits per process of a sleep set, 0 when
// sleep sets are off (no partial-order reduction, a symmetry reduction,
// or too many processes to give each a bit).
func (x *explorer) sleepInit() {
	x.sleepW = 0
	np := len(x.abs.Sys.Procs)
	if x.por == nil || x.sym != nil || np < 2 || x.e.opt.NoSleep {
		return
	}
	x.sleepW = 31 / np
	// One buffer per process (TSO), with no epochs: at most one flush
	// out of a component, the oldest write's (kabs: UPDATE-NE).
	x.flushBit = x.abs.Layout() == memmodel.PerProcess && !x.hasE && x.sleepW >= 2
	x.woken = map[int32]uint32{}
	x.sharedBit = make(map[string]uint64, len(x.abs.Sys.Shared))
	for i, v := range x.abs.Sys.Shared {
		x.sharedBit[v.Name] = 1 << (i % 64)
	}
}

// accessMasks sets the shared variables s reads and writes (bit i%64 for
// shared variable i: two variables may share a bit, which only makes
// steps dependent).
func (x *explorer) accessMasks(s *compStep) {
	if s.t == nil {
		s.rd, s.wr = ^uint64(0), ^uint64(0)
		return
	}
	for _, v := range expr.Vars(s.t.Guard) {
		s.rd |= x.sharedBit[v]
	}
	for _, a := range s.t.Assign {
		s.wr |= x.sharedBit[a.Var]
		for _, v := range expr.Vars(a.Val) {
			s.rd |= x.sharedBit[v]
		}
	}
	for _, v := range s.t.Exists {
		s.wr |= x.sharedBit[v]
	}
}

// independent reports whether steps a and b of two different processes
// commute: neither writes a shared variable the other reads or writes.
// (Everything else a step touches is its own process's: its locals, its
// buffer, its component.)
func independent(a, b *compStep) bool {
	return a.wr&(b.rd|b.wr) == 0 && b.wr&a.rd == 0
}

// sleepBit is the bit of step i of b in a sleep set, 0 when it has none.
// With flushBit, the flush of a process's oldest buffered write has the
// last of its bits: the name it keeps across the process's own steps
// that commute with it (flushCommutes).
func (x *explorer) sleepBit(b *nodeSteps, i int32) uint32 {
	p, _ := b.step(i)
	j := i - b.off[p]
	last := int32(x.sleepW - 1)
	switch {
	case x.flushBit && j == b.comps[p].flush:
		j = last
	case j >= last && x.flushBit || j > last:
		return 0
	}
	return 1 << (uint(p*x.sleepW) + uint(j))
}

// stepOfBit is the step of b that bit names in a sleep set: its process
// and its index in the process's component.
func (x *explorer) stepOfBit(b *nodeSteps, bit int) (int, *compStep) {
	p, j := bit/x.sleepW, int32(bit%x.sleepW)
	if x.flushBit && j == int32(x.sleepW-1) {
		j = b.comps[p].flush
	}
	return p, &b.comps[p].steps[j]
}

// procMask is the bits of process p in a sleep set.
func (x *explorer) procMask(p int) uint32 {
	return (1<<uint(x.sleepW) - 1) << uint(p*x.sleepW)
}

// ownAfter is the bits of process p's steps in z still asleep after p
// takes step s: its flush's, when s commutes with it (flushCommutes);
// the others are named anew.
func (x *explorer) ownAfter(z uint32, p int, s *compStep) uint32 {
	if !x.flushBit || !flushCommutes(s) {
		return 0
	}
	return z & (1 << uint(p*x.sleepW+x.sleepW-1))
}

// flushCommutes reports whether a step s of a process, not a flush,
// commutes with the flush of its oldest buffered write (one buffer, all
// of it exact), leaving that flush the same: s touches no buffer but
// for appending to it (a write into its exact part), and a read gets
// the process's newest write to a variable from the buffer or, once
// flushed, from memory, the same value either way. A fence or an
// atomic block needs the buffer empty, and a write to a tail is not
// named here: those do not commute.
func flushCommutes(s *compStep) bool {
	switch s.step.Rule {
	case kabs.RuleReadM, kabs.RuleReadB, kabs.RuleWriteL, kabs.RuleAssign, kabs.RuleHavoc, kabs.RuleAssume:
		return true
	}
	return false
}

// sleepAfter is the sleep set of the state after step i of b, from the
// steps z of b asleep or taken before it: those of the other processes
// independent of step i, and the moving process's flush if step i
// commutes with it.
func (x *explorer) sleepAfter(b *nodeSteps, z uint32, i int32) uint32 {
	q, si := b.step(i)
	z &^= sleepExpanded
	own := x.ownAfter(z, q, si)
	z &^= x.procMask(q)
	out := z
	for m := z; m != 0; m &= m - 1 {
		bit := bits.TrailingZeros32(m)
		if _, s := x.stepOfBit(b, bit); !independent(s, si) {
			out &^= 1 << uint(bit)
		}
	}
	return out | own
}

// sleepStep is the sleep set z after step s of process p passed through
// (forward): an ample step is local, independent of every step of the
// other processes, and p's own steps are named anew, but its flush if s
// commutes with it.
func (x *explorer) sleepStep(z uint32, p int, s *compStep) uint32 {
	return z&^x.procMask(p) | x.ownAfter(z, p, s)
}

// visitWoken visits the steps of b in it.wake, a re-expansion's: every
// one of them, whatever the ample set (a superset of those the state's
// expansion would take), but those stage 1 holds back.
func (x *explorer) visitWoken(w *worker, b *nodeSteps, it *item, visit func(int32) (bool, error)) {
	idx := w.held[:0]
	for i := range b.len() {
		if it.wake&x.sleepBit(b, i) != 0 && !(b.held > 0 && isHeld(b, i)) {
			idx = append(idx, i)
		}
	}
	w.held = idx
	if len(idx) == 0 {
		return
	}
	if err := x.resolve(w, b, idx, x.por != nil); err != nil {
		it.err = err
		return
	}
	for _, i := range idx {
		if _, err := visit(i); err != nil {
			it.err = err
			return
		}
		if n := len(it.outs); n > 0 && it.outs[n-1].next.bad() {
			return
		}
	}
}

// reexpansion is a stored state to expand again, for the steps in wake,
// with the sleep set sleep.
type reexpansion struct {
	state       int32
	wake, sleep uint32
}

// arrive records that the successor r reaches the stored state i again:
// its sleep set becomes the intersection of the two; if i was issued for
// expansion already, the steps that were asleep then and are not now are
// woken, to be taken in a re-expansion queued at r's depth, or in the one
// queued already (Godefroid's state caching with sleep sets).
func (x *explorer) arrive(st *stateStore, i int32, r *succRec, queue *[][]int32) {
	cur := st.sleep(i)
	z := cur & r.sleep
	if cur&sleepExpanded == 0 {
		st.setSleep(i, z)
		return
	}
	wake := cur &^ r.sleep &^ sleepExpanded
	if wake == 0 {
		return
	}
	st.setSleep(i, z|sleepExpanded)
	if w, ok := x.woken[i]; ok {
		x.woken[i] = w | wake
		return
	}
	x.woken[i] = wake
	x.por.woken++
	for int(r.depth) >= len(*queue) {
		*queue = append(*queue, nil)
	}
	(*queue)[r.depth] = append((*queue)[r.depth], -1-i)
}

// startLevel takes the sleep sets of the states of a level, and the
// steps woken of those it re-expands, before any is expanded, and marks
// them issued for expansion: an arrival during the level wakes steps for
// another re-expansion, whatever the workers have expanded yet, so that
// the states stored do not depend on the number of workers.
func (x *explorer) startLevel(st *stateStore, level []int32) {
	if x.sleepW == 0 {
		return
	}
	x.sleeps, x.wakes = x.sleeps[:0], x.wakes[:0]
	for _, e := range level {
		i, wake := e, uint32(0)
		if e < 0 {
			i = -1 - e
			wake = x.woken[i]
			delete(x.woken, i)
		}
		z := st.sleep(i)
		st.setSleep(i, z|sleepExpanded)
		x.sleeps, x.wakes = append(x.sleeps, z&^sleepExpanded), append(x.wakes, wake)
	}
}

// levelSleep is the sleep set of the j-th state of the level and the
// steps woken when it is a re-expansion (startLevel).
func (x *explorer) levelSleep(j int) (sleep, wake uint32) {
	if x.sleepW == 0 {
		return 0, 0
	}
	return x.sleeps[j], x.wakes[j]
}

// onlyFlush is the index in steps of the one flush of the oldest exact
// write, -1 when there is none or more than one.
func onlyFlush(steps []compStep) int32 {
	at := int32(-1)
	for j := range steps {
		if steps[j].step.Rule == kabs.RuleUpdateNE {
			if at >= 0 {
				return -1
			}
			at = int32(j)
		}
	}
	return at
}

// isFlush reports whether step i of b is its process's one flush
// (ctlComp.flush).
func (x *explorer) isFlush(b *nodeSteps, i int32) bool {
	p, _ := b.step(i)
	return i-b.off[p] == b.comps[p].flush
}
