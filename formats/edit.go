package formats

import "fencer/cs"

// editor is what a cs.Reader offers, beyond InsertFences, to edit the
// fences of its files: read them as candidate points (insert
// --reconsider), say whether it can write a store fence, write full and
// store fences and remove fences. It is the method set of
// readkit.FenceWriter (branch readers), checked here by structure so that
// a format's capabilities follow its reader without an edit of this
// package.
type editor interface {
	ParseWith(filename string, src []byte, opt cs.Options) (*cs.System, error)
	StoreFences() (bool, string)
	EditFences(src []byte, full, store, remove []*cs.Site) ([]byte, error)
}

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
