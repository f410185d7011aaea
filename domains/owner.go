package domains

// Owner returns the process that position i of the value vector belongs to
// (its local, last-written value, tail set or buffer slot), or -1 for a
// shared variable. A state store groups the values of a state by it, so
// that a step of one process changes few of the groups.
func (l *Layout) Owner(i int) int {
	if l.pos[i].kind == posShared {
		return -1
	}
	return l.pos[i].proc
}
