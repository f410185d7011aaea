package smt

/*
#include "z3shim.h"
*/
import "C"

import (
	"context"
	"sync"
	"time"
)

// retry is how often a running query is interrupted again after its
// deadline or an Interrupt, in case the first Z3_interrupt came just before
// Z3 started to listen.
const retry = 5 * time.Millisecond

// guard is the part of a Context that other goroutines may touch: it
// enforces the timeout of the running query and forwards interrupts. It does
// not point back to the Context, so an unreachable Context can be finalized
// while its timer exists.
type guard struct {
	mu          sync.Mutex
	s           *C.shim_ctx // nil once the context is closed
	timer       *time.Timer
	armed       bool      // the timer is set to fire at armedAt
	armedAt     time.Time // (armed may be false while the timer is set: harmless)
	running     bool      // a query is between begin and end
	deadline    time.Time // of the running query
	timedOut    bool      // the running query was interrupted at its deadline
	interrupted bool      // Interrupt was called during the running query
	canceled    int       // number of Watch calls whose context.Context is done

	orphans []*solverHandle // of unreachable solvers, released by the owner
}

func newGuard(s *C.shim_ctx) *guard {
	g := &guard{s: s}
	g.timer = time.AfterFunc(time.Hour, g.fire)
	g.timer.Stop()
	return g
}

// begin marks the start of a query that may run for timeout. It fails at
// once if a watched context.Context is done.
func (g *guard) begin(timeout time.Duration) error {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.s == nil {
		return ErrClosed
	}
	if g.canceled > 0 {
		return &ErrUnknown{Reason: reasonCanceled}
	}
	g.running = true
	g.timedOut, g.interrupted = false, false
	g.deadline = time.Now().Add(timeout)
	// The timer is lazy: it is not stopped at the end of a query, and a
	// query whose deadline is after the timer's next firing leaves it
	// alone (fire re-arms it for the running query). So the common query
	// does no timer operation at all, rather than a Reset and a Stop
	// (BenchmarkOverhead: 160 → 80 ns; below the noise of a query).
	if !g.armed || g.armedAt.After(g.deadline) {
		g.arm(timeout)
	}
	return nil
}

// arm makes the timer fire after d (g.mu held).
func (g *guard) arm(d time.Duration) {
	g.timer.Reset(d)
	g.armed = true
	g.armedAt = time.Now().Add(d)
}

// end marks the end of the query and returns why it was stopped, or "".
func (g *guard) end() string {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.running = false
	switch {
	case g.timedOut:
		return reasonTimeout
	case g.canceled > 0:
		return reasonCanceled
	case g.interrupted:
		return reasonInterrupted
	}
	return ""
}

// fire runs on the timer's goroutine.
func (g *guard) fire() {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.armed = false
	if g.s == nil || !g.running {
		return
	}
	if !g.interrupted && g.canceled == 0 {
		if left := time.Until(g.deadline); left > 0 {
			g.arm(left) // armed for an earlier query
			return
		}
		g.timedOut = true
	}
	C.shim_interrupt(g.s)
	g.arm(retry)
}

// interruptLocked stops the running query, if any, and has the timer
// repeat the interrupt until the query ends (g.mu held).
func (g *guard) interruptLocked() {
	if g.s != nil && g.running {
		C.shim_interrupt(g.s)
		if !g.armed || g.armedAt.After(time.Now().Add(retry)) {
			g.arm(retry)
		}
	}
}

// close forgets the Z3 context; later interrupts do nothing.
func (g *guard) close() {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.s = nil
	g.timer.Stop()
	g.armed = false
}

// adopt queues the handle of an unreachable solver (any goroutine).
func (g *guard) adopt(h *solverHandle) {
	g.mu.Lock()
	g.orphans = append(g.orphans, h)
	g.mu.Unlock()
}

// takeOrphans returns and forgets the queued handles.
func (g *guard) takeOrphans() []*solverHandle {
	g.mu.Lock()
	defer g.mu.Unlock()
	o := g.orphans
	g.orphans = nil
	return o
}

// Interrupt stops the query that is running in c now, if any: it then
// returns Unknown with an *ErrUnknown whose Reason is "interrupted". It does
// not affect later queries. It is the one method that may be called from any
// goroutine, also concurrently with Close.
//
// Maps to: Z3_interrupt.
func (c *Context) Interrupt() {
	g := c.g
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.running {
		g.interrupted = true
	}
	g.interruptLocked()
}

// Watch cancels the queries of c when ctx is done: the running one is
// interrupted and every later one returns Unknown ("canceled") at once,
// until stop is called. Call stop (it is idempotent) when the work that ctx
// governs is over, typically with defer:
//
//	defer c.Watch(ctx)()
func (c *Context) Watch(ctx context.Context) (stop func()) {
	g := c.g
	done := make(chan struct{})
	exited := make(chan struct{})
	counted := false // guarded by g.mu
	go func() {
		defer close(exited)
		select {
		case <-ctx.Done():
			g.mu.Lock()
			g.canceled++
			counted = true
			g.interruptLocked()
			g.mu.Unlock()
		case <-done:
		}
	}()
	return sync.OnceFunc(func() {
		close(done)
		<-exited
		g.mu.Lock()
		if counted {
			g.canceled--
		}
		g.mu.Unlock()
	})
}
