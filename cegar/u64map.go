package cegar

import "math/bits"

// u64map maps uint64 keys to uint32 values: open addressing, linear
// probing, a multiplicative hash. It serves lookups on the hot path
// (a worker's profiles by parts, ctlScratch.profs) at a fraction of a Go
// map's cost: one probe of a small table that stays in cache.
type u64map struct {
	keys  []uint64
	vals  []uint32
	used  []bool
	n     int
	shift uint // 64 - log2(len(keys))
}

// u64mapFirst is log2 of a new table's length.
const u64mapFirst = 8

func (m *u64map) slot(k uint64) int {
	return int((k * 0x9e3779b97f4a7c15) >> m.shift)
}

// get returns the value of k and whether k is there.
func (m *u64map) get(k uint64) (uint32, bool) {
	if m.n == 0 {
		return 0, false
	}
	mask := len(m.keys) - 1
	for i := m.slot(k); m.used[i]; i = (i + 1) & mask {
		if m.keys[i] == k {
			return m.vals[i], true
		}
	}
	return 0, false
}

// put sets the value of k.
func (m *u64map) put(k uint64, v uint32) {
	if 4*(m.n+1) > 3*len(m.keys) {
		m.grow()
	}
	mask := len(m.keys) - 1
	i := m.slot(k)
	for ; m.used[i]; i = (i + 1) & mask {
		if m.keys[i] == k {
			m.vals[i] = v
			return
		}
	}
	m.keys[i], m.vals[i], m.used[i] = k, v, true
	m.n++
}

func (m *u64map) grow() {
	keys, vals, used := m.keys, m.vals, m.used
	size := max(2*len(keys), 1<<u64mapFirst)
	m.keys, m.vals, m.used, m.n = make([]uint64, size), make([]uint32, size), make([]bool, size), 0
	m.shift = uint(64 - bits.Len(uint(size)-1))
	for i, u := range used {
		if u {
			m.put(keys[i], vals[i])
		}
	}
}

// reset empties m, keeping its table.
func (m *u64map) reset() {
	clear(m.used)
	m.n = 0
}
