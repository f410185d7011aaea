package cegar

import "context"

// Limit is a configured bound of a run. A run that hits one ends Unknown
// with Result.Limit saying which, so that the caller can say how to raise
// it (the command line names its flag); the reason text says what was
// reached in the engine's own terms.
type Limit uint8

const (
	NoLimit         Limit = iota // Unknown for another reason, or not Unknown
	StateLimit                   // Options.MaxStates abstract states in one exploration
	TimeLimit                    // the deadline of the run's context
	KLimit                       // Options.MaxK exact writes per buffer
	PredicateLimit               // Options.MaxPredicates predicates
	RefinementLimit              // Options.MaxRefinements refinements
	MemoryLimit                  // Options.MaxMemory: the live heap and stores of an exploration near it
)

var limitNames = [...]string{"none", "states", "time", "k", "predicates", "refinements", "memory"}

func (l Limit) String() string { return limitNames[l] }

// errLimit marks a limit that makes the verdict unknown.
type errLimit struct {
	limit  Limit
	reason string
}

func (e *errLimit) Error() string { return e.reason }

// interrupted is the limit and the reason of a run whose context ended
// with err: its deadline (TimeLimit) or a cancellation (NoLimit).
func interrupted(err error) (Limit, string) {
	if err == context.DeadlineExceeded {
		return TimeLimit, "time limit reached"
	}
	return NoLimit, "interrupted"
}
