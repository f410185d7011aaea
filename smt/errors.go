package smt

import (
	"errors"
	"fmt"

	"fencer/smt/answer"
)

// Result is the answer of a satisfiability query (answer.Answer, shared with
// the packages above smt).
type Result = answer.Answer

const (
	Unknown = answer.Unknown // Z3 gave up, or the query failed; see the error
	Sat     = answer.Sat     // satisfiable: a model exists
	Unsat   = answer.Unsat   // unsatisfiable
)

// ErrUnknown is the error of a query that Z3 could not decide.
type ErrUnknown struct {
	// Reason is "timeout", "interrupted" (Context.Interrupt), "canceled"
	// (the context.Context given to Watch is done), or Z3's reason, for
	// example "(incomplete (theory arithmetic))".
	Reason string
}

func (e *ErrUnknown) Error() string { return "smt: unknown: " + e.Reason }

// Timeout reports whether the query ran out of time.
func (e *ErrUnknown) Timeout() bool { return e.Reason == reasonTimeout }

// Reasons given by the package itself.
const (
	reasonTimeout     = "timeout"
	reasonInterrupted = "interrupted"
	reasonCanceled    = "canceled"
)

// Error is an error reported by Z3, for example a sort mismatch.
type Error struct {
	Code int    // a Z3_error_code, or one of the shim's own codes (>= 1000)
	Msg  string // Z3's message
}

func (e *Error) Error() string { return fmt.Sprintf("z3: %s (code %d)", e.Msg, e.Code) }

// ErrClosed is returned by every operation on a closed Context or Solver.
var ErrClosed = errors.New("smt: use of a closed context or solver")

// ErrStaleModel is returned by a Model used after its solver moved on.
var ErrStaleModel = errors.New("smt: model used after the solver changed")

// unknownResult makes the (Unknown, err) pair of a failed query.
func unknownResult(err error) (Result, error) { return Unknown, err }

// lbool maps a Z3_lbool to a Result.
func lbool(v int32) Result {
	switch v {
	case 1:
		return Sat
	case -1:
		return Unsat
	}
	return Unknown
}
