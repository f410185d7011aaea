package smt

/*
#include "z3shim.h"
*/
import "C"

import (
	"errors"
	"runtime"
	"time"

	"fencer/expr"
)

// solverHandle holds the Z3 objects of one solver. The Context keeps the
// handles (not the *Solver values) of its live solvers, so that a Solver
// can become unreachable and be finalized.
type solverHandle struct {
	sv    C.Z3_solver
	model C.Z3_model // of the last Sat check, once fetched
}

func (h *solverHandle) dropModel(s *C.shim_ctx) {
	if h.model != nil {
		C.shim_model_del(s, h.model)
		h.model = nil
	}
}

func (h *solverHandle) release(s *C.shim_ctx) {
	h.dropModel(s)
	if h.sv != nil {
		C.shim_solver_del(s, h.sv)
		h.sv = nil
	}
}

func (c *Context) newHandle() (*solverHandle, error) {
	c.releaseOrphans()
	var sv C.Z3_solver
	if rc := C.shim_solver_new(c.s, &sv); rc != 0 {
		return nil, c.err(rc)
	}
	h := &solverHandle{sv: sv}
	c.live[h] = struct{}{}
	return h, nil
}

// Solver is an incremental Z3 solver (Z3_mk_simple_solver) that lives as
// long as the caller wants: assert a shared prefix once, then check many
// formulas under it with CheckWith or Push/Assert/Check/Pop.
type Solver struct {
	c       *Context
	h       *solverHandle // nil after Close
	timeout time.Duration
	depth   int    // number of open Push scopes
	gen     uint64 // bumped by every change; a Model is valid for one gen
	sat     bool   // the last Check of this gen answered Sat
	core    []int
	inCore  []C.int32_t
}

// NewSolver creates a solver whose queries time out after the context's
// timeout (see SetTimeout).
//
// Maps to: Z3_mk_simple_solver.
func (c *Context) NewSolver() (*Solver, error) {
	if c.s == nil {
		return nil, ErrClosed
	}
	h, err := c.newHandle()
	if err != nil {
		return nil, err
	}
	s := &Solver{c: c, h: h, timeout: c.timeout}
	runtime.SetFinalizer(s, (*Solver).abandon)
	return s, nil
}

// abandon is the finalizer of an unclosed Solver: it queues the handle for
// its context, which releases it on its own goroutine.
func (s *Solver) abandon() {
	if s.h != nil {
		s.c.g.adopt(s.h)
	}
}

// Close releases the solver and its model. It is idempotent.
func (s *Solver) Close() {
	if s.h == nil {
		return
	}
	if s.c.s != nil {
		s.h.release(s.c.s)
		delete(s.c.live, s.h)
	}
	s.h = nil
	runtime.SetFinalizer(s, nil)
}

// SetTimeout sets the timeout of each later query of s; ms <= 0 restores
// DefaultTimeoutMs.
func (s *Solver) SetTimeout(ms int) { s.timeout = timeoutOf(ms) }

// usable reports ErrClosed for a closed solver or context.
func (s *Solver) usable() error {
	if s.h == nil || s.c.s == nil {
		return ErrClosed
	}
	return nil
}

// changed invalidates the current model.
func (s *Solver) changed() {
	s.gen++
	s.sat = false
	s.core = s.core[:0]
	s.h.dropModel(s.c.s)
}

// Push opens a scope.
//
// Maps to: Z3_solver_push.
func (s *Solver) Push() error {
	if err := s.usable(); err != nil {
		return err
	}
	s.changed()
	rc := C.shim_push(s.c.s, s.h.sv)
	runtime.KeepAlive(s)
	if rc != 0 {
		return s.c.err(rc)
	}
	s.depth++
	return nil
}

// Pop closes the innermost scope, forgetting what was asserted in it.
//
// Maps to: Z3_solver_pop.
func (s *Solver) Pop() error {
	if err := s.usable(); err != nil {
		return err
	}
	if s.depth == 0 {
		return errors.New("smt: Pop without Push")
	}
	s.changed()
	rc := C.shim_pop(s.c.s, s.h.sv, 1)
	runtime.KeepAlive(s)
	if rc != 0 {
		return s.c.err(rc)
	}
	s.depth--
	return nil
}

// Reset forgets every assertion and scope.
//
// Maps to: Z3_solver_reset.
func (s *Solver) Reset() error {
	if err := s.usable(); err != nil {
		return err
	}
	s.changed()
	s.depth = 0
	rc := C.shim_reset(s.c.s, s.h.sv)
	runtime.KeepAlive(s)
	if rc != 0 {
		return s.c.err(rc)
	}
	return nil
}

// Assert adds the formulas fs to the current scope.
//
// Maps to: Z3_solver_assert.
func (s *Solver) Assert(fs ...expr.Expr) error {
	if err := s.usable(); err != nil {
		return err
	}
	ts, err := s.c.terms(fs...)
	if err != nil {
		return err
	}
	s.changed()
	rc := C.shim_assert(s.c.s, s.h.sv, first(ts), C.int32_t(len(ts)))
	runtime.KeepAlive(s)
	if rc != 0 {
		return s.c.err(rc)
	}
	return nil
}

// Check decides the conjunction of the assertions. After Sat, Model gives
// a model. err is non-nil exactly when the result is Unknown.
//
// Maps to: Z3_solver_check.
func (s *Solver) Check() (Result, error) { return s.CheckAssumptions() }

// CheckAssumptions decides the assertions together with the formulas fs,
// which are not asserted. After Unsat, UnsatCore tells which of fs were
// needed; after Sat, Model gives a model.
//
// Maps to: Z3_solver_check_assumptions, Z3_solver_get_unsat_core.
func (s *Solver) CheckAssumptions(fs ...expr.Expr) (Result, error) {
	if err := s.usable(); err != nil {
		return unknownResult(err)
	}
	ts, err := s.c.terms(fs...)
	if err != nil {
		return unknownResult(err)
	}
	s.changed()
	if cap(s.inCore) < len(ts) {
		s.inCore = make([]C.int32_t, len(ts))
	}
	inCore := s.inCore[:len(ts)]
	if err := s.c.g.begin(s.timeout); err != nil {
		return unknownResult(err)
	}
	var res C.int32_t
	var corep *C.int32_t
	if len(inCore) > 0 {
		corep = &inCore[0]
	}
	rc := C.shim_check(s.c.s, s.h.sv, first(ts), C.int32_t(len(ts)), &res, corep)
	why := s.c.g.end()
	r, err := s.c.answer(rc, res, why)
	s.sat = r == Sat
	if r == Unsat {
		for i, in := range inCore {
			if in != 0 {
				s.core = append(s.core, i)
			}
		}
	}
	return r, err
}

// UnsatCore returns the indexes (into its arguments) of the formulas that
// the last CheckAssumptions needed to answer Unsat, or nil.
func (s *Solver) UnsatCore() []int {
	if len(s.core) == 0 {
		return nil
	}
	return append([]int(nil), s.core...)
}

// CheckWith decides the assertions together with fs, as Push, Assert(fs),
// Check, Pop would, in one call. It leaves no model.
//
// Maps to: Z3_solver_push, Z3_solver_assert, Z3_solver_check, Z3_solver_pop.
func (s *Solver) CheckWith(fs ...expr.Expr) (Result, error) {
	if err := s.usable(); err != nil {
		return unknownResult(err)
	}
	s.changed()
	return s.c.checkWith(s.h, s.timeout, fs...)
}

func (c *Context) checkWith(h *solverHandle, timeout time.Duration, fs ...expr.Expr) (Result, error) {
	ts, err := c.terms(fs...)
	if err != nil {
		return unknownResult(err)
	}
	if err := c.g.begin(timeout); err != nil {
		return unknownResult(err)
	}
	var res C.int32_t
	rc := C.shim_check_with(c.s, h.sv, first(ts), C.int32_t(len(ts)), &res)
	why := c.g.end()
	return c.answer(rc, res, why)
}

// answer makes the result of a check from the shim's return code, Z3's
// answer and the guard's reason for stopping the query.
func (c *Context) answer(rc C.int, res C.int32_t, why string) (Result, error) {
	if rc != 0 {
		if why != "" {
			return unknownResult(&ErrUnknown{Reason: why})
		}
		return unknownResult(c.err(rc))
	}
	r := lbool(int32(res))
	if r != Unknown {
		return r, nil
	}
	if why == "" {
		why = C.GoString(&c.s.errmsg[0])
	}
	return unknownResult(&ErrUnknown{Reason: why})
}

// String returns the assertions of s in SMT-LIB syntax.
//
// Maps to: Z3_solver_to_string.
func (s *Solver) String() string {
	if s.usable() != nil {
		return "<closed solver>"
	}
	var p *C.char
	if rc := C.shim_solver_string(s.c.s, s.h.sv, &p); rc != 0 {
		return "<" + s.c.err(rc).Error() + ">"
	}
	text := C.GoString(p) // copied before any other Z3 call
	runtime.KeepAlive(s)
	return text
}

// Model gives the values of a satisfying assignment found by the last
// Check or CheckAssumptions. It is valid until s changes (Push, Pop,
// Assert, a check, Reset, Close); later it returns ErrStaleModel.
type Model struct {
	s   *Solver
	gen uint64
}

// Model returns the model of the last check, which must have answered Sat.
//
// Maps to: Z3_solver_get_model.
func (s *Solver) Model() (*Model, error) {
	if err := s.usable(); err != nil {
		return nil, err
	}
	if !s.sat {
		return nil, errors.New("smt: no model: the last check did not answer sat")
	}
	if s.h.model == nil {
		if rc := C.shim_model(s.c.s, s.h.sv, &s.h.model); rc != 0 {
			return nil, s.c.err(rc)
		}
	}
	return &Model{s: s, gen: s.gen}, nil
}

// Eval returns the value of the term or formula e in m (formulas give 0 or
// 1). Variables that m leaves open get a value of Z3's choice (model
// completion).
//
// Maps to: Z3_model_eval.
func (m *Model) Eval(e expr.Expr) (int64, error) {
	s := m.s
	if err := s.usable(); err != nil {
		return 0, err
	}
	if m.gen != s.gen || s.h.model == nil {
		return 0, ErrStaleModel
	}
	ts, err := s.c.terms(e)
	if err != nil {
		return 0, err
	}
	var v C.int64_t
	rc := C.shim_eval(s.c.s, s.h.model, ts[0], &v)
	runtime.KeepAlive(m)
	if rc != 0 {
		if rc == C.SHIM_ERANGE {
			return 0, expr.ErrOverflow
		}
		return 0, s.c.err(rc)
	}
	return int64(v), nil
}

// Value returns the value of the variable name in m; false if m is stale
// or the value does not fit in an int64.
func (m *Model) Value(name string) (int64, bool) {
	v, err := m.Eval(expr.V(name))
	return v, err == nil
}

// first returns a pointer to ts[0], or nil.
func first(ts []C.Z3_ast) *C.Z3_ast {
	if len(ts) == 0 {
		return nil
	}
	return &ts[0]
}
