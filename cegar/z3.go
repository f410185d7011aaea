package cegar

import (
	"context"
	"errors"

	"fencer/predabs"
	"fencer/smt"
	"fencer/smt/expr"
)

// Z3Solver adapts an smt context and one long-lived solver to Solver.
type Z3Solver struct {
	ctx   *smt.Context
	s     *smt.Solver
	model *smt.Model
	// InterpolationTimeoutMs bounds one interpolation query.
	InterpolationTimeoutMs int
}

// NewZ3Solver returns a solver with its own Z3 context; Close it.
func NewZ3Solver() (*Z3Solver, error) {
	c, err := smt.NewContext()
	if err != nil {
		return nil, err
	}
	s, err := c.NewSolver()
	if err != nil {
		c.Close()
		return nil, err
	}
	return &Z3Solver{ctx: c, s: s, InterpolationTimeoutMs: 60_000}, nil
}

// Close releases the Z3 context.
func (z *Z3Solver) Close() { z.ctx.Close() }

// InterruptOn makes every query give up when ctx is done.
func (z *Z3Solver) InterruptOn(ctx context.Context) (stop func()) { return z.ctx.Watch(ctx) }

func (z *Z3Solver) Push() error              { return z.s.Push() }
func (z *Z3Solver) Pop() error               { z.model = nil; return z.s.Pop() }
func (z *Z3Solver) Assert(f expr.Expr) error { return z.s.Assert(f) }

// Check answers Unknown without an error when Z3 gave up (timeout,
// interrupt, incomplete theory) and with one when Z3 reported a failure.
func (z *Z3Solver) Check() (predabs.Answer, error) {
	z.model = nil
	res, err := z.s.Check()
	return answer(res, err)
}

func answer(res smt.Result, err error) (predabs.Answer, error) {
	switch res {
	case smt.Sat:
		return predabs.Sat, nil
	case smt.Unsat:
		return predabs.Unsat, nil
	}
	var u *smt.ErrUnknown
	if err == nil || errors.As(err, &u) {
		return predabs.Unknown, nil
	}
	return predabs.Unknown, err
}

// Value reads the model of the last Sat check.
func (z *Z3Solver) Value(name string) (int64, bool) {
	if z.model == nil {
		m, err := z.s.Model()
		if err != nil {
			return 0, false
		}
		z.model = m
	}
	return z.model.Value(name)
}

// Interpolate computes sequence interpolants with Spacer.
func (z *Z3Solver) Interpolate(steps []expr.Expr) ([]expr.Expr, predabs.Answer, error) {
	itps, res, err := z.ctx.Interpolate(steps, z.InterpolationTimeoutMs)
	a, err := answer(res, err)
	return itps, a, err
}

// Atoms returns the normalised atoms of f.
func (z *Z3Solver) Atoms(f expr.Expr) []expr.Expr { return smt.Atoms(f) }
