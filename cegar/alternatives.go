package cegar

import (
	"context"
	"slices"

	"fencer/cs"
	"fencer/fences"
)

// maxCombos bounds the fence sets of the minimum size that alternatives
// looks at between two verifications.
const maxCombos = 1_000_000

// alternatives looks for other minimum fence sets than o.fences, up to
// limit sets in all (o.fences included), each verified. Every correct set
// hits the candidate set of every real counterexample found so far, so the
// sets of the minimum size that do are the only ones to try; one that is
// not correct gives a new counterexample, whose candidate set (which it
// misses) rules it out with the others that miss it. Sets are tried in
// the order of preference (fences.Rank). It returns the other sets found,
// with o's candidate sets and witnesses extended by the new
// counterexamples. A set whose check ends unknown is skipped.
func alternatives(ctx context.Context, sys *cs.System, sol Solver, opt Options, o *outcome, limit int) ([][]int, error) {
	k := len(o.fences)
	if k == 0 || limit <= 1 {
		return nil, nil
	}
	rank := fences.Rank(sys)
	if opt.StoreFences {
		rank = fences.KindRank(rank)
	}
	found := [][]int{o.fences}
	tried := map[string]bool{key(o.fences): true}
	for len(found) < limit {
		h := nextMinimum(o.cands, k, rank, tried)
		if h == nil {
			break
		}
		tried[key(h)] = true
		fenced := map[int]bool{}
		for _, id := range h {
			fenced[id] = true
		}
		fopt := opt
		fopt.Reconsider = false
		r, err := Verify(ctx, withElements(sys, fenced), sol, fopt)
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
			o.cands = append(o.cands, cand)
			o.wits = append(o.wits, w)
		}
		if ctx.Err() != nil {
			break
		}
	}
	return found[1:], nil
}

// nextMinimum returns the first set of k sites, in the order of rank, that
// hits every set of cands and is not in tried, or nil. Only sites of some
// candidate set can be in a minimum hitting set.
func nextMinimum(cands [][]int, k int, rank []int, tried map[string]bool) []int {
	seen := map[int]bool{}
	var sites []int
	for _, c := range cands {
		for _, s := range c {
			if !seen[s] {
				seen[s] = true
				sites = append(sites, s)
			}
		}
	}
	slices.SortFunc(sites, func(a, b int) int { return rank[a] - rank[b] })
	var out []int
	set := make([]int, 0, k)
	n := 0
	var rec func(start int) bool
	rec = func(start int) bool {
		if len(set) == k {
			n++
			if hitsAll(set, cands) {
				h := slices.Clone(set)
				slices.Sort(h)
				if !tried[key(h)] {
					out = h
					return true
				}
			}
			return n > maxCombos
		}
		for i := start; i < len(sites); i++ {
			set = append(set, sites[i])
			if rec(i + 1) {
				return true
			}
			set = set[:len(set)-1]
		}
		return false
	}
	rec(0)
	return out
}

func hitsAll(set []int, cands [][]int) bool {
	for _, c := range cands {
		hit := false
		for _, s := range set {
			if slices.Contains(c, s) {
				hit = true
				break
			}
		}
		if !hit {
			return false
		}
	}
	return true
}

func key(ids []int) string {
	b := make([]byte, 0, 4*len(ids))
	for _, id := range ids {
		b = append(b, byte(id>>24), byte(id>>16), byte(id>>8), byte(id))
	}
	return string(b)
}
