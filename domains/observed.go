package domains

// Observed returns, per dynamic variable (by name), the values an
// exploration over l observed outside its domain so far (Observe), in no
// particular order; nil when there are none.
func (l *Layout) Observed() map[string][]int64 {
	l.mu.Lock()
	defer l.mu.Unlock()
	var out map[string][]int64
	for id, o := range l.obs {
		if len(o) == 0 {
			continue
		}
		if out == nil {
			out = map[string][]int64{}
		}
		for x := range o {
			out[l.dyn[id].name] = append(out[l.dyn[id].name], x)
		}
	}
	return out
}

// ObserveValue records value x of the dynamic variable v as Observe does
// when x is outside v's domain (nothing when it is inside, or v is not a
// dynamic variable of l). It returns false when v now has more than
// MaxValues values. An exploration that stores one state of each orbit of
// a symmetry (package cegar) records with it what the other states of the
// orbit would have shown.
func (l *Layout) ObserveValue(v string, x int64) bool {
	id, ok := l.dynID[v]
	if !ok {
		return true
	}
	if _, in := l.dyn[id].idx[x]; in {
		return true
	}
	return l.record(id, x, false)
}
