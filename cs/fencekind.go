package cs

import "fmt"

// FenceKind is the kind of a fence: what it waits for. What each kind
// means under each memory model is the model's to say (package kabs);
// the front end only records which one the source wrote.
type FenceKind uint8

const (
	// FullFence ("fence;") waits until every write of its process before
	// it has reached memory.
	FullFence FenceKind = iota
	// StoreFence ("fence store;") does not wait: every write of its
	// process before it reaches memory before any write after it.
	StoreFence
)

var fenceKindNames = [...]string{"full", "store"}

// String is "full" or "store", the names of fencer insert --kinds.
func (k FenceKind) String() string {
	if int(k) < len(fenceKindNames) {
		return fenceKindNames[k]
	}
	return fmt.Sprintf("FenceKind(%d)", k)
}
