package smt

/*
#include <malloc.h>
#include "z3shim.h"

static void shim_mem(uint64_t *z3, uint64_t *inuse, uint64_t *arenas) {
	*z3 = Z3_get_estimated_alloc_size();
	struct mallinfo2 mi = mallinfo2();
	*inuse = mi.uordblks + mi.hblkhd;
	*arenas = mi.arena + mi.hblkhd;
}
*/
import "C"

import (
	"runtime"

	"fencer/expr"
)

// This file holds the parts of the tests and benchmarks that need cgo
// (which test files cannot use).

// memStats returns the bytes Z3 has allocated (all contexts), the bytes
// in use in the C heap, and the bytes the C heap holds from the system.
func memStats() (z3, inUse, held uint64) {
	var a, b, d C.uint64_t
	C.shim_mem(&a, &b, &d)
	return uint64(a), uint64(b), uint64(d)
}

// mallocTrim returns free C heap memory to the system.
func mallocTrim() { C.malloc_trim(0) }

// rawLoop is the support of BenchmarkCheckRawC (cgo is not allowed in test
// files): it asserts prefix in a new solver, converts negs once, and runs
// iters queries push/assert(negs[i % len])/check/pop in one C loop written
// against the Z3 API directly. It returns the number of Sat answers.
func (c *Context) rawLoop(prefix expr.Expr, negs []expr.Expr, iters int64, ready func()) (int64, error) {
	s, ts, err := c.benchSetup(prefix, negs)
	if err != nil {
		return 0, err
	}
	defer s.Close()
	ready()
	var nsat C.int64_t
	rc := C.shim_bench_loop(c.s, s.h.sv, &ts[0], C.int32_t(len(ts)), C.int64_t(iters), &nsat)
	runtime.KeepAlive(s)
	if rc != 0 {
		return 0, c.err(rc)
	}
	return int64(nsat), nil
}

// benchSetup makes a solver with prefix asserted and converts negs (a copy
// of the terms: the conversion buffer is reused by the next call).
func (c *Context) benchSetup(prefix expr.Expr, negs []expr.Expr) (*Solver, []C.Z3_ast, error) {
	s, err := c.NewSolver()
	if err != nil {
		return nil, nil, err
	}
	if err := s.Assert(prefix); err != nil {
		s.Close()
		return nil, nil, err
	}
	ts, err := c.terms(negs...)
	if err != nil {
		s.Close()
		return nil, nil, err
	}
	return s, append([]C.Z3_ast(nil), ts...), nil
}

// refs returns the number of term references the shim holds for c.
func (c *Context) refs() int64 { return int64(c.s.refs) }

// rawPerCall is rawLoop with one cgo call per query: checkWith selects
// shim_check_with (the binding's helper) instead of shim_bench_loop(1).
func (c *Context) rawPerCall(prefix expr.Expr, negs []expr.Expr, iters int64, checkWith bool, ready func()) (int64, error) {
	s, ts, err := c.benchSetup(prefix, negs)
	if err != nil {
		return 0, err
	}
	defer s.Close()
	ready()
	var total int64
	for i := int64(0); i < iters; i++ {
		var nsat C.int64_t
		var res C.int32_t
		var rc C.int
		if checkWith {
			rc = C.shim_check_with(c.s, s.h.sv, &ts[i%int64(len(ts))], 1, &res)
			if res == 1 {
				nsat = 1
			}
		} else {
			rc = C.shim_bench_loop(c.s, s.h.sv, &ts[i%int64(len(ts))], 1, 1, &nsat)
		}
		if rc != 0 {
			return 0, c.err(rc)
		}
		total += int64(nsat)
	}
	runtime.KeepAlive(s)
	return total, nil
}
