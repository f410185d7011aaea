package refsem

// MinFences finds, by brute force over subsets of the fence sites by
// increasing size, the fewest sites whose fences make the program correct
// under m. It returns their offsets; ok is false when some run was not
// complete (state limit or bounded "*" values) before the answer was
// found, or when there are more than maxSites sites. The program must not
// be wrong under SC (then no fence helps: ok is false).
func (p *Program) MinFences(m Model, maxStates, maxSites int) (sites []int, ok bool, err error) {
	n := len(p.sites)
	if n > maxSites {
		return nil, false, nil
	}
	for size := 0; size <= n; size++ {
		var found []int
		done, complete := false, true
		var runErr error
		subsets(n, size, func(set []int) bool {
			f := map[int]bool{}
			for _, k := range set {
				f[p.sites[k].Offset] = true
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
					found = append(found, p.sites[k].Offset)
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
