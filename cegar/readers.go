package cegar

import (
	"fmt"

	"fencer/cs"
)

// ReaderCanEdit returns an error when sys was read from another format
// (cs.System.Reader) whose reader cannot do what opt asks of Insert:
// with Reconsider, read its fences as candidates and remove them; with
// StoreFences, write store fences (cs.FenceEditor). It is an input
// error (the format cannot express the answer), found before any work.
func ReaderCanEdit(sys *cs.System, opt Options) error {
	if sys.Reader == nil || !opt.Reconsider && !opt.StoreFences {
		return nil
	}
	fw, ok := sys.Reader.(cs.FenceEditor)
	if !ok {
		return fmt.Errorf("%s: fencer cannot remove fences from or write store fences into a %s file", sys.File.Name, sys.Reader.Format())
	}
	if opt.StoreFences {
		if ok, why := fw.StoreFences(); !ok {
			return fmt.Errorf("%s: no store fence can be written in a %s file: %s", sys.File.Name, sys.Reader.Format(), why)
		}
	}
	return nil
}
