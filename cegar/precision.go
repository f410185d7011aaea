package cegar

import (
	"fencer/fences"
	"fencer/predabs"
)

// Precision is what an exploration is precise about: the exact writes kept
// per buffer (K), the predicates of the cube (Preds), whether every
// predicate is evaluated again after every step (Exact: precise posts, the
// last escalation of a predicate refinement) and the fences installed
// (Fences, sorted). A refinement returns a new Precision and leaves the old
// one as it was: its predicate set is a clone that grows on its own
// (predabs.Preds.Clone). Only the initial precision is built in place
// (the seeds of newEngine and seedFromProgram).
type Precision struct {
	K      int
	Preds  *predabs.Preds
	Exact  bool
	Fences []fences.Element
}

// use makes prec the precision of the engine's next exploration: the one
// its abstractor (and the workers', through Sync) abstracts with, and the
// one its progress and result report.
func (e *engine) use(prec Precision) {
	e.prec = prec
	e.ab.Preds = prec.Preds
	e.ab.Precise = prec.Exact
}
