package cegar

import (
	"fmt"
	"sync"
	"sync/atomic"

	"fencer/domains"
	"fencer/lia"
	"fencer/predabs"
)

// Both cores (doc.go, "Parallel expansion"): the states of one BFS level
// are expanded by several goroutines, a few hundred states ahead of the one
// goroutine that stores their successors in the order of the sequential
// search. Expanding a state (its control successors, the explicit step,
// the abstract post, the states passed through) reads nothing the store
// holds, so it can run anywhere; storing (lookup, subsumption, limits,
// the queue) is done in order, so the states stored, their numbering and
// the counterexample found are those of the search with one goroutine.

// worker is what one goroutine of an exploration has of its own: an
// abstractor (worker 0 uses the engine's; the others a fork with their own
// prover, sharing the memos, or none: workersFor) and the value buffers.
type worker struct {
	ab                       *predabs.Abstractor
	dl                       *lia.Solver // the prover of a fork; nil for worker 0
	scratch                  []int64
	ffCur, ffNext, ffScratch []int64
	ctl                      ctlScratch // ctlexpand.go
	sym                      symScratch // orbitstates.go
	// Counts of the partial-order reduction, added to porInfo's.
	passed, reduced, full int
	// porVals and porKey are porInfo.blocked's scratch.
	porVals []int64
	porKey  []byte
	// taken lists the steps an expansion takes of its state expanded in
	// full, re-expanded (visitWoken) or of stage 2's first level
	// (visitHeld): expandState takes one of the three.
	taken []int32
	// exp is expandState's, expOut its method out.
	exp    expansion
	expOut func([]int64) bool
}

func (w *worker) buffers(n int) {
	if len(w.scratch) != n {
		w.scratch = make([]int64, n)
		w.ffCur, w.ffNext, w.ffScratch = make([]int64, n), make([]int64, n), make([]int64, n)
	}
}

// forker makes a prover for another goroutine, and the function that
// closes it (Z3Solver.Fork).
type forker interface {
	Fork() (predabs.Prover, func())
}

// workersFor returns the engine's workers for an exploration with layout
// length n, Options.Workers of them (at least one). When every variable is
// finite no state has a cube and no step a symbolic guard, so there is no
// abstract post to compute: the workers but the first have no abstractor
// (light). Otherwise the workers but the first each have an abstractor
// with a prover of its own (a fork of the solver), when the states have
// predicate cubes to compute and the solver can fork; else there is one
// worker. They persist across explorations (the forks keep their memos
// and provers) and are synced with the engine's abstractor here.
func (e *engine) workersFor(n int) []*worker {
	want := max(e.opt.Workers, 1)
	if len(e.workers) == 0 {
		e.workers = []*worker{{ab: e.ab}}
	}
	var ws []*worker
	if f, ok := e.sol.(forker); e.info.AllFinite() {
		for len(e.light) < want-1 {
			e.light = append(e.light, &worker{})
		}
		ws = append([]*worker{e.workers[0]}, e.light[:want-1]...)
	} else {
		if !ok || e.prec.Preds.Len() == 0 {
			want = 1
		}
		for len(e.workers) < want {
			p, release := f.Fork()
			e.releases = append(e.releases, release)
			dl := lia.New(p)
			e.workers = append(e.workers, &worker{ab: e.ab.Fork(dl), dl: dl})
		}
		ws = e.workers[:want]
	}
	for _, w := range ws {
		if w.ab != nil && w.ab != e.ab {
			w.ab.Sync(e.ab)
		}
		w.buffers(n)
	}
	return ws
}

// collect adds the workers' counts to the engine's.
func (e *engine) collect(ws []*worker, por *porInfo) {
	for _, w := range ws {
		if w.ab != nil && w.ab != e.ab {
			e.ab.TakeStats(w.ab)
		}
		if por != nil {
			por.passed += w.passed
			por.reduced += w.reduced
			por.full += w.full
		}
		w.passed, w.reduced, w.full = 0, 0, 0
		w.exp = expansion{} // holds the exploration's item and explorer
	}
}

// release closes the provers the engine forked (its workers' and its
// fallback's): call it when the engine is done.
func (e *engine) release() {
	for _, r := range e.releases {
		r()
	}
	e.releases = nil
}

// decidedInGo is the number of queries package lia decided, the workers'
// included.
func (e *engine) decidedInGo() int {
	n := e.dl.Stats.Decided
	for _, w := range e.workers {
		if w.dl != nil {
			n += w.dl.Stats.Decided
		}
	}
	return n
}

// item is one state to expand and, once expanded, its successors in the
// order the sequential search produces them.
type item struct {
	head  int32
	n     *ctlNode
	cube  predabs.Cube
	vals  []int64
	enc0  []byte // vals encoded, in the store's arena (reset)
	depth int32
	// heldOnly says to expand only the steps stage 1 of a staged
	// exploration held back (stage 2's first level); hasHeld, set by the
	// expansion, that it held some back (stage.go).
	heldOnly, hasHeld bool
	// sleep is the state's sleep set; wake, when not 0, makes the item a
	// re-expansion: of the steps in wake only (sleep.go).
	sleep, wake uint32
	outs        []succRec
	arena       []int64 // the values of outs
	enc         []byte  // their encodings (succRec.enc)
	err         error
	ready       chan struct{} // closed when expanded (pipeline)
}

// reset makes it the item of the stored state head (-1-i for a
// re-expansion of state i, sleep.go), the j-th of its BFS level, of depth
// depth, reusing its buffers. It runs on the goroutine that stores
// states (which alone touches st).
func (it *item) reset(x *explorer, st *stateStore, head int32, j int, depth int32) {
	it.sleep, it.wake = x.levelSleep(j)
	head = levelState(head)
	r := st.key(head)
	n := x.nodeAt(r.c)
	if len(it.vals) != x.lay.Len() {
		it.vals = make([]int64, x.lay.Len())
	}
	it.head, it.n, it.cube, it.depth = head, n, st.cube(head), depth
	it.heldOnly, it.hasHeld = x.stage == 2 && depth == 0 && it.wake == 0, false
	it.outs, it.arena, it.enc, it.err = it.outs[:0], it.arena[:0], it.enc[:0], nil
	it.enc0 = st.vals.key(r.v) // decoded by the expansion, off this goroutine
}

// succRec is one successor: the step (an index into the succs of the
// expanded state's node), the state after it and the states passed
// through, and its depth. The values' encoding, its hash and the state's
// hash in the store's table (stateStore.keyOf, stateHash) are computed
// here, by the worker, not by the goroutine that stores.
type succRec struct {
	via  int32
	next *ctlNode
	// vals are the values, kept only when next's profile has dynamic
	// positions (the store observes them); the store needs no more than
	// their encoding otherwise.
	vals  []int64
	enc   []byte
	h     uint64
	sh    uint64 // the state's hash in the store's table (stateHash)
	cube  predabs.Cube
	depth int32
	sleep uint32 // the successor's sleep set (sleep.go)
}

// expandState computes the successors of it (the partial-order reduction's
// choice included), stopping after a bad one: the search stores that one
// and ends.
func (x *explorer) expandState(w *worker, it *item) {
	b := &w.ctl.top
	readVals(it.enc0, it.vals, x.prof(it.n).kept)
	if made := int8(x.stage + 1); b.n == it.n && b.made == made {
		// The state before was of the same control state: its steps,
		// and those it resolved, are this one's (resolution reads the
		// control state only).
		x.countSteps(b)
	} else {
		if err := x.expand(w, it.n, b); err != nil {
			it.err = err
			return
		}
		b.made = made
	}
	e := &w.exp
	*e = expansion{x: x, w: w, it: it, b: b, sleepy: x.sleepW > 0}
	if w.expOut == nil {
		w.expOut = e.out // bound to w.exp, once: a method value escapes
	}
	if it.heldOnly {
		// Stage 2 of a staged exploration: the steps stage 1 held back
		// of a state it expanded in full (stage.go).
		e.visitHeld()
		return
	}
	if it.wake != 0 {
		// A re-expansion: the steps of the state woken by a later arrival
		// with a smaller sleep set (sleep.go).
		e.visitWoken()
		return
	}
	// The partial-order reduction: the steps of the first candidate
	// process that has an enabled step (doc.go); with none, every step. A
	// candidate none of whose steps is enabled produced no state.
	reduced := false
	var tried []int32
	for a := b.ample; len(a) > 0; {
		cand, rest, cond := nextAmple(a)
		a = rest
		if cond && !x.allowed(w, b, cand, it.vals) {
			continue
		}
		if err := x.resolve(w, b, cand, x.por != nil); err != nil {
			it.err = err
			return
		}
		enabled := false
		for _, i := range cand {
			if e.asleep(i) {
				// Taken before, and enabled still (sleep.go).
				enabled = true
				continue
			}
			p, err := e.visit(i)
			if err != nil {
				it.err = err
				return
			}
			if e.stop {
				break
			}
			enabled = enabled || p
		}
		tried = append(tried, cand...)
		if e.stop || enabled {
			reduced = true
			break
		}
	}
	if !reduced {
		// Every step but those tried, asleep, and in stage 1 of a staged
		// exploration those held back (stage.go); only those are resolved.
		idx := w.taken[:0]
		for i := range b.len() {
			if !contains(tried, i) && !(b.held > 0 && isHeld(b, i)) && !e.asleep(i) {
				idx = append(idx, i)
			}
		}
		w.taken = idx
		it.hasHeld = b.held > 0
		if len(idx) > 0 {
			if err := x.resolve(w, b, idx, x.por != nil); err != nil {
				it.err = err
				return
			}
		}
		// With sleep sets, the flushes first: a process's later steps
		// that commute with its flush leave it asleep (sleep.go).
		for pass := range 2 {
			if pass == 0 && x.flushSlots == 0 {
				continue
			}
			for _, i := range idx {
				if e.stop {
					break
				}
				if x.flushSlots > 0 && (pass == 0) != x.isFlush(b, i) {
					continue
				}
				if _, err := e.visit(i); err != nil {
					it.err = err
					return
				}
			}
		}
	}
	if x.por != nil {
		if reduced {
			w.reduced++
		} else {
			w.full++
		}
	}
}

// expansion is what expandState's visits of one item's steps share: a
// struct of the worker's with methods, not closures, which set up their
// captures on every step.
type expansion struct {
	x      *explorer
	w      *worker
	it     *item
	b      *nodeSteps
	preEnv *domains.Env // the state's, for the abstract posts; made once
	sleepy bool
	// stop says that a bad state was found; done holds, with sleep sets,
	// the steps taken so far that produced a state: with it.sleep, the
	// steps a later one's successors need not take (sleep.go).
	stop bool
	done uint32
	// The step being visited (visit): its index, its target and compiled
	// form, the target's profile and the sleep set after it; whether it
	// produced a state, and the error out met.
	i        int32
	next0    *ctlNode
	cm       *compiled
	pr0      *ctlProfile
	z0       uint32
	produced bool
	ferr     error
}

// asleep reports whether step i is in the state's sleep set.
func (e *expansion) asleep(i int32) bool {
	return e.sleepy && e.it.sleep != 0 && e.it.sleep&e.x.sleepBit(e.b, i) != 0
}

// visit applies step i; it reports whether the step produced a state (was
// enabled).
func (e *expansion) visit(i int32) (bool, error) {
	x, b, it := e.x, e.b, e.it
	e.i, e.produced, e.ferr = i, false, nil
	e.next0, e.cm = b.res[i].next, b.res[i].cm
	q, ps := b.step(i)
	e.z0 = 0
	if e.sleepy {
		e.z0 = x.sleepAfter(b, it.sleep|e.done, q, ps)
	}
	e.pr0 = x.prof(e.next0)
	err := e.cm.x.ApplyClipped(it.vals, e.pr0.zrun, ps.clear, e.w.scratch, e.w.expOut)
	if err == nil {
		err = e.ferr
	}
	if e.sleepy && e.produced {
		e.done |= ps.name
	}
	return e.produced, err
}

// out takes a successor vals of the state by the step being visited: the
// abstract post, the states passed through, the least image under
// symmetry, then the record of the successor. It returns false to stop
// (a bad state, or an error in e.ferr).
func (e *expansion) out(vals []int64) bool {
	x, w, it, cm, pr0 := e.x, e.w, e.it, e.cm, e.pr0
	if checkProfiles && !zeroAt(vals, pr0.zero) {
		e.ferr = errNotZero
		return false
	}
	var cube predabs.Cube
	if pr0.anyKeep || cm.x.GuardSymbolic {
		if w.ab == nil {
			e.ferr = fmt.Errorf("internal error: an abstract post in an exploration with every variable finite")
			return false
		}
		if e.preEnv == nil {
			e.preEnv = x.env(it.n, it.vals, domains.Key(it.vals))
		}
		var ok bool
		cube, ok, e.ferr = w.ab.PostEnv(it.cube, cm.t, e.preEnv, x.env(e.next0, vals, domains.Key(vals)), pr0.keep, pr0.keepKey)
		if e.ferr != nil {
			return false
		}
		if !ok {
			return true
		}
	}
	e.produced = true
	next, depth, z := e.next0, it.depth+1, e.z0
	if x.por != nil {
		var passed int
		var zp *uint32
		if e.sleepy {
			zp = &z
		}
		if next, vals, passed, e.ferr = x.forward(w, e.b, e.i, vals, nil, zp); e.ferr != nil {
			return false
		}
		w.passed += passed
		if next == nil {
			// A step passed through was asleep.
			return true
		}
		depth += int32(passed)
	}
	if x.sym != nil {
		// The least image is stored (orbitstates.go).
		if next, vals, _, e.ferr = x.sym.canon(x, w, next, vals); e.ferr != nil {
			return false
		}
	}
	pr := x.prof(next)
	if checkProfiles && !zeroAt(vals, pr.zero) {
		e.ferr = errNotZero
		return false
	}
	var kept []int64
	if pr.dyn != nil {
		off := len(it.arena)
		it.arena = append(it.arena, vals...)
		kept = it.arena[off:len(it.arena):len(it.arena)]
	}
	eoff := len(it.enc)
	it.enc = appendVals(it.enc, vals, pr.kept)
	enc := it.enc[eoff:len(it.enc):len(it.enc)]
	h := x.valHash(enc)
	it.outs = append(it.outs, succRec{via: e.i, next: next, vals: kept,
		enc: enc, h: h, sh: stateHash(next.id, h), cube: cube, depth: depth, sleep: z})
	e.stop = next.bad()
	return !e.stop
}

// pipeline expands stored states on the worker goroutines ahead of the
// goroutine that stores their successors, which takes them in the order it
// issued them. The unit of work is a chunk of chunkItems states of one
// level; at most len(ring) states are out at a time (the j-th state of a
// level is ring[j % len(ring)], in chunk slot j / chunkItems % slots, issued
// again once stored). When the exploration ends early (a bad state, an
// error, a limit) the chunks not yet started are skipped.
type pipeline struct {
	x     *explorer
	ring  []item
	ready []chan struct{} // by chunk slot: closed when expanded
	work  chan chunk
	stop  atomic.Bool
	wg    sync.WaitGroup
	done  bool
	depth int32 // the depth of the level's states (start)
}

// chunk is a slot of the ring and its number of items.
type chunk struct{ slot, n int }

const (
	// chunkItems is the number of states handed to a worker at once (one
	// by one, the hand-over cost more than a cheap expansion).
	chunkItems = 16
	// chunksPerWorker is how far, in chunks per worker, the expansion runs
	// ahead of the storing.
	chunksPerWorker = 16
)

// parallelFrom is the least number of states of a level expanded by the
// workers; a smaller one is expanded inline. Tests lower it (lowParallelFrom)
// so that the small programs exercise the pipeline too; nothing else
// changes it.
var parallelFrom = 4 * chunkItems

func (x *explorer) newPipeline(ws []*worker) *pipeline {
	slots := chunksPerWorker * len(ws)
	p := &pipeline{x: x, ring: make([]item, slots*chunkItems), ready: make([]chan struct{}, slots), work: make(chan chunk, slots)}
	for _, w := range ws {
		p.wg.Add(1)
		go func(w *worker) {
			defer p.wg.Done()
			for c := range p.work {
				if !p.stop.Load() {
					for i := 0; i < c.n; i++ {
						x.expandState(w, &p.ring[c.slot*chunkItems+i])
					}
				}
				close(p.ready[c.slot])
			}
		}(w)
	}
	return p
}

// issue starts the expansion of chunk k of the stored states level; its
// slot's states must have been stored (or never used). It does nothing
// past the end of the level.
func (p *pipeline) issue(k int, st *stateStore, level []int32) {
	lo := k * chunkItems
	if lo >= len(level) {
		return
	}
	hi := min(lo+chunkItems, len(level))
	slot := k % len(p.ready)
	for i, head := range level[lo:hi] {
		p.ring[slot*chunkItems+i].reset(p.x, st, head, lo+i, p.depth)
	}
	p.ready[slot] = make(chan struct{})
	p.work <- chunk{slot, hi - lo}
}

// start issues the first chunks of a level, whose states have depth d.
func (p *pipeline) start(st *stateStore, level []int32, d int32) {
	p.depth = d
	for k := 0; k < len(p.ready); k++ {
		p.issue(k, st, level)
	}
}

// wait returns the item of the j-th state of the level once expanded.
func (p *pipeline) wait(j int) *item {
	slot := j / chunkItems % len(p.ready)
	if j%chunkItems == 0 {
		<-p.ready[slot]
	}
	return &p.ring[slot*chunkItems+j%chunkItems]
}

// chunk returns the items of the chunk that starts with the j-th state
// of a level of n, once wait has returned its first.
func (p *pipeline) chunk(j, n int) []item {
	slot := j / chunkItems % len(p.ready)
	return p.ring[slot*chunkItems : slot*chunkItems+min(chunkItems, n-j)]
}

// stored says that the j-th state of the level is stored: after the last
// of a chunk, the chunk that takes its slot is issued.
func (p *pipeline) stored(j int, st *stateStore, level []int32) {
	if j%chunkItems == chunkItems-1 {
		p.issue(j/chunkItems+len(p.ready), st, level)
	}
}

// close skips what is not started, and returns when the workers are done.
func (p *pipeline) close() {
	if p.done {
		return
	}
	p.done = true
	p.stop.Store(true)
	close(p.work)
	p.wg.Wait()
}
