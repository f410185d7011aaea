// Package answer is what a solver says about a formula, one type for the
// solver binding (smt.Result), the predicate abstraction (predabs.Answer)
// and the engine, so that no layer translates or names the answers again.
// It is pure Go: predabs uses it without linking Z3.
package answer

import "fmt"

// Answer is what a solver says about a formula.
type Answer uint8

const (
	Unknown Answer = iota // the solver gave up, or the query failed
	Sat                   // satisfiable: a model exists
	Unsat                 // unsatisfiable
)

var answerNames = [...]string{Unknown: "unknown", Sat: "sat", Unsat: "unsat"}

func (a Answer) String() string {
	if int(a) < len(answerNames) {
		return answerNames[a]
	}
	return fmt.Sprintf("Answer(%d)", a)
}
