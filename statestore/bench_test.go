package statestore

import (
	"testing"
	"time"
	"unsafe"
)

// The benchmark's state space: a synthetic program of 4 processes, each
// with a pc, 4 locals and a FIFO store buffer of up to 3 writes (a length
// and 3 (variable, value) pairs), and 12 shared variables: 60 slots, cut
// into 5 components (the processes, the memory). Its steps change one
// process's component, and a flush changes the process and the memory, as
// the steps of the explorers do.
const (
	bProcs  = 4
	bProc   = 12 // pc, 4 locals, buffer length, 3 (var, val)
	bShared = 12
	bWidth  = bProcs*bProc + bShared
)

func benchStarts() []int {
	var s []int
	for p := 0; p <= bProcs; p++ {
		s = append(s, p*bProc)
	}
	return s
}

// successors calls f with each successor of v (f must copy it).
func successors(v []uint32, tmp []uint32, f func([]uint32)) {
	mem := bProcs * bProc
	for p := 0; p < bProcs; p++ {
		b := p * bProc
		pc := v[b]
		copy(tmp, v)
		switch pc % 4 {
		case 0: // a local assignment
			l := b + 1 + int(pc/4)%4
			tmp[l] = (tmp[l] + 1) % 3
			tmp[b] = (pc + 1) % 12
			f(tmp)
		case 1: // a write into the buffer
			if n := tmp[b+5]; n < 3 {
				tmp[b+6+2*int(n)] = (pc + uint32(p)) % bShared
				tmp[b+7+2*int(n)] = tmp[b+1]
				tmp[b+5] = n + 1
				tmp[b] = pc + 1
				f(tmp)
			}
		case 2: // a read: the newest buffered write, else memory
			x := (pc + 3*uint32(p)) % bShared
			val := tmp[mem+int(x)]
			for i := 0; i < int(tmp[b+5]); i++ {
				if tmp[b+6+2*i] == x {
					val = tmp[b+7+2*i]
				}
			}
			tmp[b+2] = val
			tmp[b] = pc + 1
			f(tmp)
		case 3: // a branch
			if tmp[b+1] == tmp[b+2] {
				tmp[b] = 0
			} else {
				tmp[b] = (pc + 1) % 12
			}
			f(tmp)
		}
		if n := v[b+5]; n > 0 { // a flush
			copy(tmp, v)
			tmp[mem+int(tmp[b+6])] = tmp[b+7]
			copy(tmp[b+6:b+12], tmp[b+8:b+12])
			tmp[b+10], tmp[b+11] = 0, 0
			tmp[b+5] = n - 1
			f(tmp)
		}
	}
}

// explore runs a breadth-first search from the zero vector until the
// store holds limit states, and returns the number of Insert calls.
func explore(b *testing.B, s Store, limit int) int {
	v := make([]uint32, bWidth)
	tmp := make([]uint32, bWidth)
	if _, _, err := s.Insert(v, NoParent); err != nil {
		b.Fatal(err)
	}
	inserts := 1
	for next := uint32(0); int(next) < s.Len() && s.Len() < limit; next++ {
		v = s.Vector(v[:0], next)
		successors(v, tmp, func(w []uint32) {
			inserts++
			if _, _, err := s.Insert(w, next); err != nil {
				b.Fatal(err)
			}
		})
	}
	return inserts
}

// mapStore is the baseline: a Go map from the vector's bytes to its index,
// and the vectors in one slice.
type mapStore struct {
	m    map[string]uint32
	vecs []uint32
	par  []uint32
	w    int
}

func (s *mapStore) Insert(v []uint32, parent uint32) (uint32, bool, error) {
	k := unsafe.String((*byte)(unsafe.Pointer(&v[0])), 4*len(v))
	if i, ok := s.m[k]; ok {
		return i, false, nil
	}
	i := uint32(len(s.par))
	s.m[string([]byte(k))] = i
	s.vecs = append(s.vecs, v...)
	s.par = append(s.par, parent)
	return i, true, nil
}
func (s *mapStore) Lookup(v []uint32) (uint32, bool) {
	i, ok := s.m[unsafe.String((*byte)(unsafe.Pointer(&v[0])), 4*len(v))]
	return i, ok
}
func (s *mapStore) Vector(dst []uint32, i uint32) []uint32 {
	return append(dst, s.vecs[int(i)*s.w:int(i+1)*s.w]...)
}
func (s *mapStore) Parent(i uint32) uint32 { return s.par[i] }
func (s *mapStore) Len() int               { return len(s.par) }
func (s *mapStore) Width() int             { return s.w }
func (s *mapStore) Bytes() int64 {
	// Keys (header and data), map entries (about 2 words with overhead),
	// vectors and parents: an estimate, for comparison only.
	return int64(len(s.m))*(4*int64(s.w)+16+24) + int64(cap(s.vecs))*4 + int64(cap(s.par))*4
}

var benchStores = []struct {
	name string
	mk   func() Store
}{
	{"collapse", func() Store { s, _ := NewCollapse(bWidth, benchStarts()); return s }},
	{"map", func() Store { return &mapStore{m: map[string]uint32{}, w: bWidth} }},
}

// BenchmarkExplore fills a store with 1,000,000 states of the synthetic
// program, breadth first. ns/insert is the time of the whole search (the
// successor function included) per Insert call, new state or not;
// B/state is Bytes per stored state at the end.
func BenchmarkExplore(b *testing.B) {
	const limit = 1000000
	for _, bs := range benchStores {
		b.Run(bs.name, func(b *testing.B) {
			var inserts int
			var s Store
			var d time.Duration
			for i := 0; i < b.N; i++ {
				s = bs.mk()
				t0 := time.Now()
				inserts += explore(b, s, limit)
				d += time.Since(t0)
			}
			b.ReportMetric(float64(d.Nanoseconds())/float64(inserts), "ns/insert")
			b.ReportMetric(float64(s.Bytes())/float64(s.Len()), "B/state")
			b.ReportMetric(float64(s.Len()), "states")
			if c, ok := s.(*Collapse); ok {
				n := c.Components()
				b.Logf("component values: %v", n)
			}
		})
	}
}

// BenchmarkLookup looks up states that are in the store (a duplicate
// successor: the most frequent case of an exploration).
func BenchmarkLookup(b *testing.B) {
	for _, bs := range benchStores {
		b.Run(bs.name, func(b *testing.B) {
			s := bs.mk()
			explore(b, s, 300000)
			var vecs [][]uint32
			for i := 0; i < s.Len(); i += 97 {
				vecs = append(vecs, s.Vector(nil, uint32(i)))
			}
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if _, ok := s.Lookup(vecs[i%len(vecs)]); !ok {
					b.Fatal("not found")
				}
			}
		})
	}
}

// BenchmarkVector reads stored states back (what a worker does with each
// state it expands).
func BenchmarkVector(b *testing.B) {
	for _, bs := range benchStores {
		b.Run(bs.name, func(b *testing.B) {
			s := bs.mk()
			explore(b, s, 300000)
			buf := make([]uint32, 0, bWidth)
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				buf = s.Vector(buf[:0], uint32(i*7919%s.Len()))
			}
		})
	}
}
