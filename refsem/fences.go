package refsem

// MinFences finds, by brute force over subsets of the fence sites (program
// points) by increasing size, the fewest sites whose fences make the
// program correct under m. It returns their keys; ok is false when some run was not
// complete (state limit or bounded "*" values) before the answer was
// found, or when there are more than maxSites sites. The program must not
// be wrong under SC (then no fence helps: ok is false).
func (p *Program) MinFences(m Model, maxStates, maxSites int) (sites []SiteKey, ok bool, err error) {
	n := len(p.sites)
	if n > maxSites {
		return nil, false, nil
	}
	for size := 0; size <= n; size++ {
		var found []SiteKey
		done, complete := false, true
		var runErr error
		subsets(n, size, func(set []int) bool {
			f := map[SiteKey]bool{}
			for _, k := range set {
				f[p.sites[k].Key] = true
			}
			res, err := p.Run(m, Options{Fences: f, MaxStates: maxStates})
			switch {
			case err != nil:
				runErr = err
				return false
			case !res.Bad && !res.Complete:
				complete = false
				return false
			case !res.Bad:
				done = true
				for _, k := range set {
					found = append(found, p.sites[k].Key)
				}
				return false
			}
			return true
		})
		switch {
		case runErr != nil:
			return nil, false, runErr
		case !complete:
			return nil, false, nil
		case done:
			return found, true, nil
		}
	}
	return nil, false, nil
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

// withFences returns p with the sites not in fenced removed from the code,
// so that a run passes them without a step; the fenced ones stay and act as
// fences. p is not changed.
func (p *Program) withFences(fenced map[SiteKey]bool) *Program {
	out := *p
	out.procs = make([]*proc, len(p.procs))
	maps := make([]func(int) int, len(p.procs))
	for pi, q := range p.procs {
		drop := func(pc int) bool {
			return pc >= 0 && pc < len(q.code) && q.code[pc].kind == iSiteFence && !fenced[q.code[pc].key]
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
