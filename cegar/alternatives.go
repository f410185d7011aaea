package cegar

import (
	"context"
	"fmt"

	"fencer/cs"
	"fencer/fences"
)

// alternatives looks for other minimum fence sets than o.fences, up to
// limit sets in all (o.fences included), each verified. Every correct set
// hits the candidate set of every real counterexample found so far, so the
// sets of the minimum size that do are the only ones to try; one that is
// not correct gives a new counterexample, whose candidate set (which it
// misses) rules it out with the others that miss it. Sets are tried in
// the order of preference (fences.Order.NextMinimum). It returns the other
// sets found, with o's candidate sets and witnesses extended by the new
// counterexamples. A set whose check ends unknown is skipped.
func alternatives(ctx context.Context, sys *cs.System, sol Solver, opt Options, o *outcome, limit int) ([][]fences.Element, error) {
	k := len(o.fences)
	if k == 0 || limit <= 1 {
		return nil, nil
	}
	order := fences.NewOrder(sys, opt.StoreFences)
	found := [][]fences.Element{o.fences}
	tried := map[string]bool{key(o.fences): true}
	for len(found) < limit {
		h := order.NextMinimum(o.cands, k, func(h []fences.Element) bool { return tried[key(h)] })
		if h == nil {
			break
		}
		tried[key(h)] = true
		fopt := opt
		fopt.Reconsider = false
		r, err := Verify(ctx, withElements(sys, h), sol, fopt)
		if err != nil {
			return nil, err
		}
		switch {
		case r.Verdict == Correct:
			found = append(found, h)
		case r.Verdict == Unsafe && r.Trace != nil:
			w := r.Trace
			cand := candidates(w, opt.StoreFences)
			if len(cand) == 0 {
				continue
			}
			if !opt.NoShrink {
				if sc, sw, _ := shrinkWitness(sys, w, cand, opt.StoreFences); sw != nil { // shrink.go
					o.remember(sw, w, cand)
					cand, w = sc, sw
				}
			}
			o.cands = append(o.cands, cand)
			o.wits = append(o.wits, w)
		}
		if ctx.Err() != nil {
			break
		}
	}
	return found[1:], nil
}

// key identifies a sorted fence set.
func key(set []fences.Element) string {
	return fmt.Sprint(set)
}
