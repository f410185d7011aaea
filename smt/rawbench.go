package smt

/*
#include "z3shim.h"
*/
import "C"

import (
	"runtime"

	"fencer/smt/expr"
)

// rawLoop is the support of BenchmarkCheckRawC (cgo is not allowed in test
// files): it asserts prefix in a new solver, converts negs once, and runs
// iters queries push/assert(negs[i % len])/check/pop in one C loop written
// against the Z3 API directly. It returns the number of Sat answers.
func (c *Context) rawLoop(prefix expr.Expr, negs []expr.Expr, iters int64, ready func()) (int64, error) {
	s, err := c.NewSolver()
	if err != nil {
		return 0, err
	}
	defer s.Close()
	if err := s.Assert(prefix); err != nil {
		return 0, err
	}
	ts, err := c.terms(negs...)
	if err != nil {
		return 0, err
	}
	ts = append([]C.Z3_ast(nil), ts...)
	ready()
	var nsat C.int64_t
	rc := C.shim_bench_loop(c.s, s.h.sv, &ts[0], C.int32_t(len(ts)), C.int64_t(iters), &nsat)
	runtime.KeepAlive(s)
	if rc != 0 {
		return 0, c.err(rc)
	}
	return int64(nsat), nil
}
