package cegar

import (
	"fencer/cs"
	"fencer/kabs"
	"fencer/predabs"
)

// relevance is kabs.Relevance kept up to date with the engine's growing
// predicate set.
type relevance struct{ *kabs.Relevance }

func newRelevance(sys *cs.System) *relevance {
	return &relevance{kabs.NewRelevance(sys)}
}

// update adds the predicates of ps that are new since the last update.
func (r *relevance) update(ps *predabs.Preds) {
	for i := r.Len(); i < ps.Len(); i++ {
		r.Add(ps.At(i).Vars)
	}
}
