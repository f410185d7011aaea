package fences

import (
	"fmt"

	"fencer/cs"
)

// PatchAndParse puts a fence after each of sites in the source of sys and
// parses the result again, in the format sys was read from: .cs through
// FenceEdits and cs.System.Reparse (with the program's const settings),
// another format through its cs.Reader. The
// errors say which of the two steps failed.
func PatchAndParse(sys *cs.System, sites []*cs.Site) ([]byte, *cs.System, error) {
	src := sys.File.Src
	var patched []byte
	var err error
	if sys.Reader != nil {
		patched, err = sys.Reader.InsertFences(src, sites)
	} else {
		patched, err = Apply(src, FenceEdits(src, sites))
	}
	if err != nil {
		return nil, nil, fmt.Errorf("patching: %v", err)
	}
	psys, err := sys.Reparse(patched)
	if err != nil {
		return nil, nil, fmt.Errorf("the patched program does not parse: %v", err)
	}
	return patched, psys, nil
}
