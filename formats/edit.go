package formats

import "fencer/cs"

// editor is the reader of a format that edits the fences of its files
// (insert --reconsider, --kinds store).
type editor = cs.FenceEditor

// readerKinds is the FenceKinds of a format whose reader is r: full
// fences, which every reader writes (cs.Reader.InsertFences), and store
// fences when r is an editor that can write them.
func readerKinds(r cs.Reader) []string {
	kinds := []string{"full"}
	if e, ok := r.(editor); ok {
		if can, _ := e.StoreFences(); can {
			kinds = append(kinds, "store")
		}
	}
	return kinds
}

// readerNoStore is the NoStoreFence of a format whose reader is r: the
// reason an editor gives for not writing store fences, or "".
func readerNoStore(r cs.Reader) string {
	if e, ok := r.(editor); ok {
		if can, why := e.StoreFences(); !can {
			return why
		}
	}
	return ""
}

// readerRemoves is the RemovesFences of a format whose reader is r.
func readerRemoves(r cs.Reader) bool {
	_, ok := r.(editor)
	return ok
}
