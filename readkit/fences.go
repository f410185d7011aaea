package readkit

import (
	"fmt"
	"sort"

	"fencer/cs"
)

// FenceWriter is what a cs.Reader offers, beyond InsertFences, for
// insert --reconsider and --kinds store: reading a file with its fences
// lowered as candidate points, and writing full and store fences and
// removing fences in the file's own syntax. The readers of package rmm and
// litmus implement it; a caller finds it with a type assertion on
// System.Reader.
type FenceWriter interface {
	// ParseWith reads src with the lowering options opt
	// (cs.Options.Reconsider: the full fences of the file become candidate
	// points, cs.Site.Fence).
	ParseWith(filename string, src []byte, opt cs.Options) (*cs.System, error)
	// StoreFences reports whether the format can write a store fence; when
	// it cannot, the reason (for an error message).
	StoreFences() (bool, string)
	// EditFences returns src with a full fence after each site of full, a
	// store fence after each site of store (sites right after a write),
	// and the fence statements of remove (cs.Site.Fence sites of a System
	// read with Reconsider) taken out; the rest of the text is unchanged.
	EditFences(src []byte, full, store, remove []*cs.Site) ([]byte, error)
}

// LowerWith is Lower with lowering options.
func LowerWith(file *cs.File, prog *cs.Program, r cs.Reader, opt cs.Options) (*cs.System, error) {
	sys, err := cs.LowerWith(file, prog, opt)
	if err != nil {
		return nil, err
	}
	sys.Reader = r
	return sys, nil
}

// Edit replaces src[Off:End] with Text (End == Off: an insertion).
type Edit struct {
	Off, End int
	Text     string
}

// ApplyEdits applies edits to src, in order of offset (insertions at one
// offset in the order given); overlapping edits are an error.
func ApplyEdits(src []byte, edits []Edit) ([]byte, error) {
	sort.SliceStable(edits, func(i, j int) bool { return edits[i].Off < edits[j].Off })
	out := make([]byte, 0, len(src))
	last := 0
	for _, e := range edits {
		if e.Off < last || e.End < e.Off || e.End > len(src) {
			return nil, fmt.Errorf("overlapping edits at offset %d", e.Off)
		}
		out = append(out, src[last:e.Off]...)
		out = append(out, e.Text...)
		last = e.End
	}
	return append(out, src[last:]...), nil
}
