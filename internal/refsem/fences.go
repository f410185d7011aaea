package refsem

import "fmt"

// MinFences finds, by brute force over subsets of the fence sites (program
// points) by increasing size, the fewest sites whose fences make the
// program correct under m. It returns their keys; ok is false when some run was not
// complete (state limit or bounded "*" values) before the answer was
// found, or when there are more than maxSites sites. The program must not
// be wrong under SC (then no fence helps: ok is false).
func (p *Program) MinFences(m Model, maxStates, maxSites int) (sites []SiteKey, ok bool, err error) {
	sites, _, ok, err = p.MinFencesKinds(m, maxStates, maxSites, false)
	return sites, ok, err
}

// MinFencesKinds is MinFences where, with store, each site can also take a
// store fence: the fewest fences, and among those the fewest full fences.
// It returns the keys of the full and of the store fences.
func (p *Program) MinFencesKinds(m Model, maxStates, maxSites int, store bool) (full, stores []SiteKey, ok bool, err error) {
	cands := p.distinctSites()
	kinds := 1
	if store {
		kinds = 2
	}
	n := len(cands) * kinds
	if n > maxSites {
		return nil, nil, false, nil
	}
	nc := len(cands)
	for size := 0; size <= n; size++ {
		var bestFull, bestStore []SiteKey
		best := -1 // full fences in the best safe set of this size
		complete := true
		var runErr error
		subsets(n, size, func(set []int) bool {
			f, st := map[SiteKey]bool{}, map[SiteKey]bool{}
			nf := 0
			for _, k := range set {
				if k < nc {
					f[cands[k].Key] = true
					nf++
				} else {
					st[cands[k-nc].Key] = true
				}
			}
			if best >= 0 && nf >= best {
				return true // no better than the best so far
			}
			res, err := p.Run(m, Options{Fences: f, StoreFences: st, MaxStates: maxStates})
			switch {
			case err != nil:
				runErr = err
				return false
			case !res.Bad && !res.Complete:
				complete = false
				return false
			case !res.Bad:
				best, bestFull, bestStore = nf, nil, nil
				for _, k := range set {
					if k < nc {
						bestFull = append(bestFull, cands[k].Key)
					} else {
						bestStore = append(bestStore, cands[k-nc].Key)
					}
				}
				return best > 0 // keep looking for fewer full fences
			}
			return true
		})
		switch {
		case runErr != nil:
			return nil, nil, false, runErr
		case !complete:
			return nil, nil, false, nil
		case best >= 0:
			return bestFull, bestStore, true, nil
		}
	}
	return nil, nil, false, nil
}

// subsets calls f on each subset of {0..n-1} of the given size, in
// lexicographic order, until f returns false.
func subsets(n, size int, f func([]int) bool) {
	set := make([]int, 0, size)
	var rec func(start int) bool
	rec = func(start int) bool {
		if len(set) == size {
			return f(set)
		}
		for i := start; i <= n-(size-len(set)); i++ {
			set = append(set, i)
			if !rec(i + 1) {
				return false
			}
			set = set[:len(set)-1]
		}
		return true
	}
	rec(0)
}

// distinctSites returns the sites worth trying, one per class of sites
// that a fence makes equivalent. Where site instructions follow each other
// and only the first is ever jumped to, a fence on any of them is the same
// fence; two sites are equivalent when every occurrence of each is in the
// same such chain as an occurrence of the other. A chain that runs into the
// end of its process is never worth a fence: bad states only look at
// labels and asserts, which a finished process has passed.
func (p *Program) distinctSites() []Site {
	type occ struct{ proc, chain int }
	sig := map[SiteKey][]occ{}
	useful := map[SiteKey]bool{}
	for pi, q := range p.procs {
		target := map[int]int{0: 1}
		for pc, in := range q.code {
			if in.kind == iJump {
				continue
			}
			target[in.next]++
			if in.kind == iBranch || in.kind == iBranchAny {
				target[in.alt]++
			}
			_ = pc
		}
		for _, pc := range q.labels {
			target[pc] += 2
		}
		chain := -1
		for pc, in := range q.code {
			if in.kind != iSiteFence {
				chain = -1
				continue
			}
			if chain < 0 || target[pc] != 1 || q.code[pc-1].kind != iSiteFence || q.code[pc-1].next != pc {
				chain = pc
			}
			sig[in.key] = append(sig[in.key], occ{pi, chain})
			end := pc
			for end < len(q.code) && q.code[end].kind == iSiteFence {
				end = q.code[end].next
			}
			if end < len(q.code) && q.code[end].kind != iEnd {
				useful[in.key] = true
			}
		}
	}
	seen := map[string]bool{}
	var out []Site
	for _, s := range p.sites {
		if !useful[s.Key] {
			continue
		}
		k := fmt.Sprint(sig[s.Key])
		if !seen[k] {
			seen[k] = true
			out = append(out, s)
		}
	}
	return out
}

// withFences returns p with the sites not in fenced or store removed from
// the code, so that a run passes them without a step; the fenced ones stay
// and act as fences, those in store only as store fences. p is not
// changed.
func (p *Program) withFences(fenced, store map[SiteKey]bool) *Program {
	out := *p
	out.procs = make([]*proc, len(p.procs))
	maps := make([]func(int) int, len(p.procs))
	for pi, q := range p.procs {
		drop := func(pc int) bool {
			return pc >= 0 && pc < len(q.code) && q.code[pc].kind == iSiteFence && !fenced[q.code[pc].key] && !store[q.code[pc].key]
		}
		// newPC maps an old pc to the new pc of the first kept
		// instruction from it on (sites are straight-line: next is the
		// following instruction).
		newPC := make([]int, len(q.code)+1)
		n := 0
		for pc := range q.code {
			newPC[pc] = n
			if !drop(pc) {
				n++
			}
		}
		newPC[len(q.code)] = n
		mapPC := func(pc int) int {
			for n := 0; drop(pc) && n <= len(q.code); n++ {
				pc = q.code[pc].next
			}
			if pc < 0 || pc > len(q.code) {
				return pc
			}
			return newPC[pc]
		}
		nq := *q
		nq.code = make([]instr, 0, n)
		for pc, in := range q.code {
			if drop(pc) {
				continue
			}
			in.next, in.alt = mapPC(in.next), mapPC(in.alt)
			if in.kind == iSiteFence && !fenced[in.key] {
				in.kind = iStoreFence
			}
			nq.code = append(nq.code, in)
		}
		nq.labels = map[string]int{}
		for l, pc := range q.labels {
			nq.labels[l] = mapPC(pc)
		}
		out.procs[pi] = &nq
		maps[pi] = mapPC
	}
	out.bad = nil
	for _, combo := range p.bad {
		nc := make([]point, len(combo))
		for i, pt := range combo {
			nc[i] = point{pt.proc, maps[pt.proc](pt.pc)}
		}
		out.bad = append(out.bad, nc)
	}
	return &out
}
