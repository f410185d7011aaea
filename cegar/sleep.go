package cegar

import (
	"math/bits"
	"slices"

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
// step whose j does not fit is never asleep), but the last flushSlots of
// them, which name p's flushes of its oldest buffered writes (kabs
// UPDATE-NE) instead: under TSO the one flush, under PSO the flush of a
// variable by its place among those p writes (flushSlot). Those names
// outlive p's own steps that commute with the flush (ownAfter). The top
// bit, sleepExpanded, marks a stored state issued for expansion
// (stateStore.sleep).

// sleepExpanded marks, in a stored state's sleep set, that the state was
// issued for expansion: a later arrival that wakes steps makes a
// re-expansion of those (arrive).
const sleepExpanded = 1 << 31

// sleepInit sets x.sleepW: the bits per process of a sleep set, 0 when
// sleep sets are off (no partial-order reduction, a symmetry reduction,
// or too many processes to give each a bit); and x.flushSlots with
// x.flushSlot, the names of the flushes, none with store fences' epochs
// or when they would take more than half of a process's bits.
func (x *explorer) sleepInit() {
	x.sleepW, x.flushSlots = 0, 0
	np := len(x.abs.Sys.Procs)
	if x.por == nil || x.sym != nil || np < 2 || x.e.opt.NoSleep {
		return
	}
	x.sleepW = 31 / np
	x.woken = map[int32]uint32{}
	x.sharedBit = make(map[string]uint64, len(x.abs.Sys.Shared))
	for i, v := range x.abs.Sys.Shared {
		x.sharedBit[v.Name] = 1 << (i % 64)
	}
	if x.hasE {
		return
	}
	x.flushSlot = make([][]int8, np)
	writers := writersOf(x.abs.Sys)
	slots := 0
	for p := range x.abs.Sys.Procs {
		x.flushSlot[p] = make([]int8, len(x.abs.Sys.Shared))
		switch x.abs.Layout() {
		case memmodel.PerProcess:
			slots = 1 // one flush at a time, whatever its variable
		case memmodel.PerVariable:
			n := 0
			for i, v := range x.abs.Sys.Shared {
				x.flushSlot[p][i] = -1
				if slices.Contains(writers[v.Name], p) {
					x.flushSlot[p][i] = int8(min(n, 127))
					n++
				}
			}
			slots = max(slots, n)
		}
	}
	if slots > x.sleepW/2 {
		slots = 0
	}
	x.flushSlots = slots
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
func (x *explorer) sleepBit(b *nodeSteps, i int32) uint32 { return b.at[i].s.name }

// sleepNames sets the names (compStep.name) of the steps of component c
// of process p, its flushes' places in steps set (c.flushAt), and the
// bits of p's steps that stay asleep after each (compStep.own): both are
// read for every step taken.
func (x *explorer) sleepNames(c *ctlComp, p int, steps []compStep) {
	for j := range steps {
		s := &steps[j]
		s.name, s.own = x.nameIn(c, p, s, int32(j)), x.ownAfter(p, s)
	}
}

// namedSteps sets b.named: for each of b's steps with a name, the step.
func namedSteps(b *nodeSteps) {
	for _, a := range b.at {
		if a.s.name != 0 {
			b.named[bits.TrailingZeros32(a.s.name)] = a.s
		}
	}
	b.namedOK = true
}

// nameIn is the bit of step j of component c of process p (s,
// c.steps[j]) in a sleep set (sleepNames).
func (x *explorer) nameIn(c *ctlComp, p int, s *compStep, j int32) uint32 {
	prog := int32(x.sleepW - x.flushSlots)
	if r := x.flushName(p, s); r >= 0 {
		if c.flushAt[r] != j {
			return 0
		}
		j = prog + int32(r)
	} else if j >= prog {
		return 0
	}
	return 1 << (uint(p*x.sleepW) + uint(j))
}

// flushName is the flush slot of step s of process p, -1 for a step that
// is not a flush named so.
func (x *explorer) flushName(p int, s *compStep) int {
	if x.flushSlots == 0 || s.step.Rule != kabs.RuleUpdateNE {
		return -1
	}
	return int(x.flushSlot[p][s.step.Var])
}

// procMask is the bits of process p in a sleep set; flushMask those of
// its flushes.
func (x *explorer) procMask(p int) uint32 {
	return (1<<uint(x.sleepW) - 1) << uint(p*x.sleepW)
}

func (x *explorer) flushMask(p int) uint32 {
	return (1<<uint(x.flushSlots) - 1) << uint(p*x.sleepW+x.sleepW-x.flushSlots)
}

// ownAfter is the bits of process p's steps that stay asleep after p
// takes step s (compStep.own): its flushes', when s commutes with them
// (flushCommutes), and under PSO, after a flush, those of the other
// variables; the others are named anew.
func (x *explorer) ownAfter(p int, s *compStep) uint32 {
	if x.flushSlots == 0 {
		return 0
	}
	if flushCommutes(s) {
		return x.flushMask(p)
	}
	if r := x.flushName(p, s); r >= 0 && x.abs.Layout() == memmodel.PerVariable {
		return x.flushMask(p) &^ (1 << uint(p*x.sleepW+x.sleepW-x.flushSlots+r))
	}
	return 0
}

// flushCommutes reports whether a step s of a process, not a flush,
// commutes with the flushes of its oldest buffered writes (all of them
// exact), leaving them the same: s touches no buffer but for appending
// to one (a write into its exact part), and a read gets the process's
// newest write to a variable from the buffer or, once flushed, from
// memory, the same value either way. A fence or an atomic block needs
// the buffers empty, and a write to a tail is not named here: those do
// not commute.
func flushCommutes(s *compStep) bool {
	switch s.step.Rule {
	case kabs.RuleReadM, kabs.RuleReadB, kabs.RuleWriteL, kabs.RuleAssign, kabs.RuleHavoc, kabs.RuleAssume:
		return true
	}
	return false
}

// sleepAfter is the sleep set of the state after a step si of process q
// out of b, from the steps z of b asleep or taken before it: those of the
// other processes independent of si, and q's flush if si commutes with
// it.
func (x *explorer) sleepAfter(b *nodeSteps, z uint32, q int, si *compStep) uint32 {
	z &^= sleepExpanded
	if z == 0 {
		return 0
	}
	own := z & si.own
	z &^= x.procMask(q)
	out := z
	if !b.namedOK {
		namedSteps(b)
	}
	for m := z; m != 0; m &= m - 1 {
		bit := bits.TrailingZeros32(m)
		if !independent(b.named[bit], si) {
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
	return z&^x.procMask(p) | z&s.own
}

// visitWoken visits the steps of e's state in it.wake, a re-expansion's:
// every one of them, whatever the ample set (a superset of those the
// state's expansion would take), but those stage 1 holds back.
func (e *expansion) visitWoken() {
	b := e.b
	idx := e.w.taken[:0]
	for i := range b.len() {
		if e.it.wake&e.x.sleepBit(b, i) != 0 && !(b.held > 0 && isHeld(b, i)) {
			idx = append(idx, i)
		}
	}
	e.w.taken = idx
	e.visitAll(idx)
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

// levelState is the stored state of an entry e of a level: e itself, or
// i when e is -1-i, a re-expansion of i (arrive queues those).
func levelState(e int32) int32 { return max(e, -1-e) }

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
		i, wake := levelState(e), uint32(0)
		if e < 0 {
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

// flushesOf is, by flush slot, the index in steps of the flush named so,
// -1 for none (sleepInit); nil when flushes are not named.
func (x *explorer) flushesOf(p int, steps []compStep) []int32 {
	if x.flushSlots == 0 {
		return nil
	}
	at := make([]int32, x.flushSlots)
	for r := range at {
		at[r] = -1
	}
	for j := range steps {
		if r := x.flushName(p, &steps[j]); r >= 0 {
			at[r] = int32(j)
		}
	}
	return at
}

// isFlush reports whether step i of b is a flush with a name.
func (x *explorer) isFlush(b *nodeSteps, i int32) bool {
	p, s := b.step(i)
	return x.flushName(p, s) >= 0
}
