package statestore

import "math/bits"

// segvec is a vector of fixed-width records of uint32 words, kept in
// segments that never move once allocated: segment k holds segBase<<k
// records. A record's address is fixed for the life of the vector, so a
// reader may read a record that was published to it (through a channel or
// another synchronisation) while the writer appends more.
type segvec struct {
	w   int    // words per record
	n   uint32 // records
	dir [maxSegs][]uint32
}

const (
	logSegBase = 10
	segBase    = 1 << logSegBase
	maxSegs    = 33 - logSegBase // enough for 2^32 records
)

// locate returns the segment of record i and its offset there.
func locate(i uint32) (k int, off uint32) {
	q := uint64(i)>>logSegBase + 1
	k = bits.Len64(q) - 1
	off = uint32(uint64(i) - (uint64(1)<<k-1)<<logSegBase)
	return k, off
}

// push appends a record (len(v) == w) and returns its index.
func (s *segvec) push(v []uint32) uint32 {
	i := s.n
	k, off := locate(i)
	if s.dir[k] == nil {
		s.dir[k] = make([]uint32, (segBase<<k)*s.w)
	}
	copy(s.dir[k][int(off)*s.w:], v)
	s.n++
	return i
}

// at returns record i, aliasing the vector's memory: the caller must not
// change it.
func (s *segvec) at(i uint32) []uint32 {
	k, off := locate(i)
	o := int(off) * s.w
	return s.dir[k][o : o+s.w : o+s.w]
}

// bytes is the memory the segments hold (allocated, not only used).
func (s *segvec) bytes() int64 {
	var b int64
	for _, seg := range s.dir {
		b += int64(cap(seg)) * 4
	}
	return b
}
