package cegar

import (
	"context"
	"errors"

	"fencer/expr"
	"fencer/predabs"
	"fencer/smt"
)

// Z3Solver adapts an smt context and one long-lived solver to Solver. The
// Z3 context is created on first use: a run whose every answer comes from
// the explicit-value domain never pays for it.
type Z3Solver struct {
	ctx   *smt.Context
	s     *smt.Solver
	model *smt.Model
	// watch is the context given to InterruptOn before the Z3 context
	// existed; stopWatch ends the watch started for it.
	watch     context.Context
	stopWatch func()
	// watching is the context of the last InterruptOn, which forks watch
	// too; forks are closed with z.
	watching context.Context
	forks    []*Z3Solver
	// InterpolationTimeoutMs bounds one interpolation query.
	InterpolationTimeoutMs int
}

// NewZ3Solver returns a solver that creates its own Z3 context when first
// used; Close it.
func NewZ3Solver() (*Z3Solver, error) {
	return &Z3Solver{InterpolationTimeoutMs: 60_000}, nil
}

// start creates the Z3 context and solver if they do not exist yet.
func (z *Z3Solver) start() error {
	if z.ctx != nil {
		return nil
	}
	c, err := smt.NewContext()
	if err != nil {
		return err
	}
	s, err := c.NewSolver()
	if err != nil {
		c.Close()
		return err
	}
	z.ctx, z.s = c, s
	if z.watch != nil {
		z.stopWatch = c.Watch(z.watch)
	}
	return nil
}

// Close releases the Z3 context, if one was created.
func (z *Z3Solver) Close() {
	for _, f := range z.forks {
		f.Close()
	}
	z.forks = nil
	if z.stopWatch != nil {
		z.stopWatch()
		z.stopWatch = nil
	}
	if z.ctx != nil {
		z.ctx.Close()
	}
}

// InterruptOn makes every query give up when ctx is done.
func (z *Z3Solver) InterruptOn(ctx context.Context) (stop func()) {
	z.watching = ctx
	if z.ctx != nil {
		return z.ctx.Watch(ctx)
	}
	z.watch = ctx
	return func() {
		z.watch = nil
		if z.stopWatch != nil {
			z.stopWatch()
			z.stopWatch = nil
		}
	}
}

// Fork returns a solver with its own Z3 context (made on first use: most
// runs never need one), for another goroutine, and the function that
// closes it; it gives up when z's InterruptOn context is done, and z's
// Close closes it too if it is still open. Fork itself and the function it
// returns are not safe for concurrent use with z's other methods.
func (z *Z3Solver) Fork() (predabs.Prover, func()) {
	f := &Z3Solver{InterpolationTimeoutMs: z.InterpolationTimeoutMs, watch: z.watching}
	z.forks = append(z.forks, f)
	return f, func() {
		for i, g := range z.forks {
			if g == f {
				z.forks = append(z.forks[:i], z.forks[i+1:]...)
				f.Close()
				return
			}
		}
	}
}

func (z *Z3Solver) Push() error {
	if err := z.start(); err != nil {
		return err
	}
	return z.s.Push()
}

func (z *Z3Solver) Pop() error { z.model = nil; return z.s.Pop() }

func (z *Z3Solver) Assert(f expr.Expr) error {
	if err := z.start(); err != nil {
		return err
	}
	return z.s.Assert(f)
}

// Check answers Unknown without an error when Z3 gave up (timeout,
// interrupt, incomplete theory) and with one when Z3 reported a failure.
func (z *Z3Solver) Check() (predabs.Answer, error) {
	if err := z.start(); err != nil {
		return predabs.Unknown, err
	}
	z.model = nil
	res, err := z.s.Check()
	return answer(res, err)
}

// answer keeps the errors that are not Z3 giving up.
func answer(res smt.Result, err error) (predabs.Answer, error) {
	if res != smt.Unknown {
		return res, nil
	}
	var u *smt.ErrUnknown
	if err == nil || errors.As(err, &u) {
		return res, nil
	}
	return res, err
}

// Value reads the model of the last Sat check.
func (z *Z3Solver) Value(name string) (int64, bool) {
	if z.s == nil {
		return 0, false
	}
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
	if err := z.start(); err != nil {
		return nil, predabs.Unknown, err
	}
	itps, res, err := z.ctx.Interpolate(steps, z.InterpolationTimeoutMs)
	a, err := answer(res, err)
	return itps, a, err
}

// Atoms returns the normalised atoms of f.
func (z *Z3Solver) Atoms(f expr.Expr) []expr.Expr { return smt.Atoms(f) }
