package cegar

import (
	"sync"
	"sync/atomic"

	"fencer/domains"
	"fencer/lia"
	"fencer/predabs"
)

// Both cores (doc.go, "Parallel expansion"): the states of one BFS level
// are expanded by several goroutines, a window of them at a time, and
// their successors are stored by one goroutine in the order of the
// sequential search. Expanding a state (its control successors, the
// explicit step, the abstract post, the states passed through) reads
// nothing the store holds, so it can run anywhere; storing (lookup,
// subsumption, limits, the queue) is done in order, so the states stored,
// their numbering and the counterexample found are those of the search
// with one goroutine.

// worker is what one goroutine of an exploration has of its own: an
// abstractor (worker 0 uses the engine's; the others a fork with their own
// prover, sharing the memos) and the value buffers.
type worker struct {
	ab                       *predabs.Abstractor
	dl                       *lia.Solver // the prover of a fork; nil for worker 0
	scratch                  []int64
	ffCur, ffNext, ffScratch []int64
	// Counts of the partial-order reduction, added to porInfo's.
	passed, reduced, full int
}

func (w *worker) buffers(n int) {
	if len(w.scratch) != n {
		w.scratch = make([]int64, n)
		w.ffCur, w.ffNext, w.ffScratch = make([]int64, n), make([]int64, n), make([]int64, n)
	}
}

// forker makes a prover for another goroutine (Z3Solver.Fork).
type forker interface {
	Fork() predabs.Prover
}

// workersFor returns the engine's workers for an exploration with layout
// length n: Options.Workers of them when the solver can fork, else one.
// They persist across explorations (the forks keep their memos and
// provers) and are synced with the engine's abstractor here.
func (e *engine) workersFor(n int) []*worker {
	want := e.opt.Workers
	f, ok := e.sol.(forker)
	if !ok || want < 1 {
		want = 1
	}
	if len(e.workers) == 0 {
		e.workers = []*worker{{ab: e.ab}}
	}
	for len(e.workers) < want {
		dl := lia.New(f.Fork())
		e.workers = append(e.workers, &worker{ab: e.ab.Fork(dl), dl: dl})
	}
	ws := e.workers[:want]
	for _, w := range ws {
		if w.ab != e.ab {
			w.ab.Sync(e.ab)
		}
		w.buffers(n)
	}
	return ws
}

// collect adds the workers' counts to the engine's.
func (e *engine) collect(ws []*worker, por *porInfo) {
	for _, w := range ws {
		if w.ab != e.ab {
			e.ab.TakeStats(w.ab)
		}
		if por != nil {
			por.passed += w.passed
			por.reduced += w.reduced
			por.full += w.full
		}
		w.passed, w.reduced, w.full = 0, 0, 0
	}
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
	depth int32
	outs  []succRec
	arena []int64 // the values of outs
	err   error
}

// succRec is one successor: the step (an index into the succs of the
// expanded state's node), the state after it and the states passed
// through, and its depth.
type succRec struct {
	via   int32
	next  *ctlNode
	vals  []int64
	cube  predabs.Cube
	depth int32
}

// expandState computes the successors of it (the partial-order reduction's
// choice included), stopping after a bad one: the search stores that one
// and ends.
func (x *explorer) expandState(w *worker, it *item) {
	succs, err := x.expand(it.n)
	if err != nil {
		it.err = err
		return
	}
	var preEnv *domains.Env
	stop := false
	// visit applies succs[i]; it reports whether the step produced a state
	// (was enabled).
	visit := func(i int) (produced bool, err error) {
		s := &succs[i]
		var ferr error
		err = s.x.Apply(it.vals, s.next.zero, w.scratch, func(vals []int64) bool {
			var cube predabs.Cube
			if s.next.anyKeep || s.x.GuardSymbolic {
				if preEnv == nil {
					preEnv = x.env(it.n, it.vals, domains.Key(it.vals))
				}
				var ok bool
				cube, ok, ferr = w.ab.PostEnv(it.cube, s.t, preEnv, x.env(s.next, vals, domains.Key(vals)), s.next.keep, s.next.keepKey)
				if ferr != nil {
					return false
				}
				if !ok {
					return true
				}
			}
			produced = true
			next, depth := s.next, it.depth+1
			if x.por != nil {
				var passed int
				if next, vals, passed, ferr = x.forward(w, next, vals, nil); ferr != nil {
					return false
				}
				depth += int32(passed)
				w.passed += passed
			}
			off := len(it.arena)
			it.arena = append(it.arena, vals...)
			it.outs = append(it.outs, succRec{via: int32(i), next: next, vals: it.arena[off:len(it.arena):len(it.arena)], cube: cube, depth: depth})
			stop = next.bad
			return !stop
		})
		if err == nil {
			err = ferr
		}
		return produced, err
	}
	// The partial-order reduction: the steps of the first candidate
	// process that has an enabled step (doc.go); with none, every step. A
	// candidate none of whose steps is enabled produced no state.
	reduced := false
	var tried []int
	for _, cand := range it.n.ample {
		if err := x.resolve(it.n, cand); err != nil {
			it.err = err
			return
		}
		enabled := false
		for _, i := range cand {
			p, err := visit(i)
			if err != nil {
				it.err = err
				return
			}
			if stop {
				break
			}
			enabled = enabled || p
		}
		tried = append(tried, cand...)
		if stop || enabled {
			reduced = true
			break
		}
	}
	if !reduced {
		if err := x.resolve(it.n, nil); err != nil {
			it.err = err
			return
		}
		for i := range succs {
			if stop {
				break
			}
			if contains(tried, i) {
				continue
			}
			if _, err := visit(i); err != nil {
				it.err = err
				return
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

// expandAll expands items with the workers: inline with one, else each
// worker takes the next item not taken until none is left. done is called
// when all are expanded (on another goroutine with several workers).
func (x *explorer) expandAll(ws []*worker, items []item, done func()) {
	if len(ws) == 1 || len(items) < 2 {
		for i := range items {
			x.expandState(ws[0], &items[i])
		}
		done()
		return
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	for _, w := range ws {
		wg.Add(1)
		go func(w *worker) {
			defer wg.Done()
			for {
				i := next.Add(1) - 1
				if i >= int64(len(items)) {
					return
				}
				x.expandState(w, &items[i])
			}
		}(w)
	}
	go func() {
		wg.Wait()
		done()
	}()
}
