package smt

/*
#cgo CFLAGS: -Wall -Wextra
#cgo LDFLAGS: -lz3
#include "z3shim.h"
*/
import "C"

import (
	"runtime"
	"time"

	"fencer/expr"
)

// DefaultTimeoutMs is the timeout of every query unless SetTimeout says
// otherwise.
const DefaultTimeoutMs = 10_000

// CacheLimit is the number of cached terms above which the conversion cache
// is emptied before the next conversion.
const CacheLimit = 100_000

// Context is a Z3 context with the conversion cache between expr.Expr and
// Z3 terms. It must be used by one goroutine at a time (see the package
// documentation); Interrupt and Watch are the exceptions.
type Context struct {
	s       *C.shim_ctx // nil after Close
	g       *guard
	timeout time.Duration

	// The conversion cache: each entry holds one reference to its term.
	apps map[*expr.App]C.Z3_ast
	vars map[string]C.Z3_ast
	ints map[int64]C.Z3_ast
	comp compiler

	live     map[*solverHandle]struct{} // solvers not yet closed
	gcAt     int                        // run the GC when live reaches this
	internal *solverHandle              // for Sat, Valid and checks of interpolants
}

// NewContext creates a Z3 context. Close it when done.
//
// Maps to: Z3_mk_context_rc, Z3_set_error_handler(c, NULL).
func NewContext() (*Context, error) {
	var s *C.shim_ctx
	if rc := C.shim_new(&s); rc != 0 {
		return nil, &Error{Code: int(rc), Msg: "cannot create a Z3 context"}
	}
	c := &Context{
		s:       s,
		g:       newGuard(s),
		timeout: DefaultTimeoutMs * time.Millisecond,
		live:    map[*solverHandle]struct{}{},
		gcAt:    minGCAt,
	}
	c.resetCache()
	runtime.SetFinalizer(c, (*Context).Close)
	return c, nil
}

// Close releases the context and every solver and model made from it. It is
// idempotent. It must not run concurrently with other methods of c except
// Interrupt.
//
// Maps to: Z3_del_context.
func (c *Context) Close() {
	if c.s == nil {
		return
	}
	c.ClearCache()
	c.g.takeOrphans() // all of them are in c.live
	for h := range c.live {
		h.release(c.s)
	}
	c.live = nil
	c.internal = nil
	s := c.s
	c.g.close() // no Interrupt can reach s after this
	c.s = nil
	C.shim_del(s)
	runtime.SetFinalizer(c, nil)
}

// SetTimeout sets the timeout of Sat, Valid and of the solvers made after
// this call; ms <= 0 restores DefaultTimeoutMs.
func (c *Context) SetTimeout(ms int) {
	c.timeout = timeoutOf(ms)
}

func timeoutOf(ms int) time.Duration {
	if ms <= 0 {
		ms = DefaultTimeoutMs
	}
	return time.Duration(ms) * time.Millisecond
}

// ClearCache empties the conversion cache, releasing its terms. Terms that
// solvers hold stay alive.
func (c *Context) ClearCache() {
	if c.s == nil {
		return
	}
	n := len(c.apps) + len(c.vars) + len(c.ints)
	if n == 0 {
		return
	}
	all := make([]C.Z3_ast, 0, n)
	for _, a := range c.apps {
		all = append(all, a)
	}
	for _, a := range c.vars {
		all = append(all, a)
	}
	for _, a := range c.ints {
		all = append(all, a)
	}
	C.shim_release(c.s, &all[0], C.int32_t(len(all)))
	runtime.KeepAlive(all)
	c.resetCache()
}

func (c *Context) resetCache() {
	c.apps = map[*expr.App]C.Z3_ast{}
	c.vars = map[string]C.Z3_ast{}
	c.ints = map[int64]C.Z3_ast{}
}

// cacheSize is the number of cached terms.
func (c *Context) cacheSize() int { return len(c.apps) + len(c.vars) + len(c.ints) }

// err turns a return code of the shim into an error, reading the message
// the shim copied.
func (c *Context) err(rc C.int) error {
	if rc == 0 {
		return nil
	}
	return &Error{Code: int(rc), Msg: C.GoString(&c.s.errmsg[0])}
}

// minGCAt is the least number of live solvers at which NewSolver runs the
// Go GC so that the finalizers of unreachable solvers run.
const minGCAt = 64

// releaseOrphans releases the solvers whose Go values were collected. The
// GC does not see the C memory of a solver, so a program that drops
// solvers without Close could pile up many before a collection; when the
// number of live solvers doubles, this runs the GC itself.
func (c *Context) releaseOrphans() {
	if len(c.live) >= c.gcAt {
		runtime.GC() // queues the finalizers; they run soon after
		c.gcAt = max(minGCAt, 2*len(c.live))
	}
	orphans := c.g.takeOrphans()
	for _, h := range orphans {
		if _, ok := c.live[h]; ok {
			h.release(c.s)
			delete(c.live, h)
		}
	}
	if len(orphans) > 0 {
		c.gcAt = max(minGCAt, 2*len(c.live))
	}
}

// solver returns the internal solver of c. (It is a handle, not a *Solver:
// a *Solver points to its Context, and a cycle through a value with a
// finalizer would never be collected.)
func (c *Context) solver() (*solverHandle, error) {
	if c.internal == nil {
		h, err := c.newHandle()
		if err != nil {
			return nil, err
		}
		c.internal = h
	}
	return c.internal, nil
}

// Sat decides the satisfiability of f.
func (c *Context) Sat(f expr.Expr) (Result, error) {
	if c.s == nil {
		return unknownResult(ErrClosed)
	}
	h, err := c.solver()
	if err != nil {
		return unknownResult(err)
	}
	return c.checkWith(h, c.timeout, f)
}

// Valid reports whether f holds for all values of its variables. If Z3
// cannot decide, it returns false and an *ErrUnknown.
func (c *Context) Valid(f expr.Expr) (bool, error) {
	r, err := c.Sat(expr.Not(f))
	return r == Unsat, err
}

// Simplify returns f simplified by Z3 (converted to Z3 and back).
//
// Maps to: Z3_simplify.
func (c *Context) Simplify(f expr.Expr) (expr.Expr, error) {
	if c.s == nil {
		return nil, ErrClosed
	}
	ts, err := c.terms(f)
	if err != nil {
		return nil, err
	}
	var out C.Z3_ast
	if rc := C.shim_simplify(c.s, ts[0], &out); rc != 0 {
		return nil, c.err(rc)
	}
	defer c.release(out)
	return c.toExpr(out)
}

// Format returns f in Z3's SMT-LIB syntax.
//
// Maps to: Z3_ast_to_string.
func (c *Context) Format(f expr.Expr) (string, error) {
	if c.s == nil {
		return "", ErrClosed
	}
	ts, err := c.terms(f)
	if err != nil {
		return "", err
	}
	var p *C.char
	if rc := C.shim_ast_string(c.s, ts[0], &p); rc != 0 {
		return "", c.err(rc)
	}
	text := C.GoString(p) // copied before any other Z3 call
	runtime.KeepAlive(c)
	return text, nil
}

// release drops the reference the caller holds to a.
func (c *Context) release(a C.Z3_ast) {
	if a != nil {
		C.shim_release(c.s, &a, 1)
	}
}
