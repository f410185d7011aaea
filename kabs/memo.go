package kabs

import (
	"maps"
	"sync"
	"sync/atomic"
)

// transMemo is the memo of the abstraction's transitions by transID, with
// their interning by key, safe for concurrent use: Successors is called by
// every goroutine of an exploration (cegar's workers). A lookup reads an
// immutable map through an atomic pointer, without a lock; a transition
// not found there is looked up, or built and interned, under the mutex in
// the full map, which is copied into a new read map once the lookups that
// missed the read map outnumber its entries. The memo is small (a few per
// edge and buffer length) and filled early in an exploration, so the
// copies cost little and almost every lookup takes the lock-free path.
type transMemo struct {
	read     atomic.Pointer[map[transID]*Trans]
	mu       sync.Mutex
	all      map[transID]*Trans // every entry (a superset of read's); under mu
	interned map[string]*Trans  // by Trans.key; under mu
	misses   int                // lookups under mu since read was made
}

func newTransMemo() *transMemo {
	return &transMemo{all: map[transID]*Trans{}, interned: map[string]*Trans{}}
}

// get returns the transition of id, building and interning it once:
// equal relations (equal keys) give one *Trans, whatever the id.
func (m *transMemo) get(id transID, build func() *Trans) *Trans {
	if r := m.read.Load(); r != nil {
		if t, ok := (*r)[id]; ok {
			return t
		}
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	t, ok := m.all[id]
	if !ok {
		t = build()
		if u, ok := m.interned[t.key]; ok {
			t = u
		} else {
			m.interned[t.key] = t
		}
		m.all[id] = t
	}
	m.misses++
	if r := m.read.Load(); r == nil || m.misses > len(*r) {
		c := maps.Clone(m.all)
		m.read.Store(&c)
		m.misses = 0
	}
	return t
}
