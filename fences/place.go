package fences

import "fencer/cs"

// Place patches the source of sys with the fences of set: a new "fence;"
// (or "fence store;") at each site, except at the fences of the source
// (cs.Site.Fence, from cs.Options.Reconsider) which stay; the fences of the
// source not in set are removed and returned. For a system read from
// another format (cs.System.Reader) its reader writes the fences: with
// cs.FenceEditor both kinds and the removals, otherwise full fences only
// (only full fences after writes are candidates then) and nothing is
// removed.
func Place(sys *cs.System, set []Element) (patched []byte, removed []*cs.Site, err error) {
	chosen := map[int]bool{}
	var add []*cs.Site
	store := map[*cs.Site]bool{}
	for _, f := range set {
		s := sys.Sites[f.Site]
		if f.Kind == cs.StoreFence {
			store[s] = true
			add = append(add, s)
			continue
		}
		chosen[f.Site] = true
		if !s.Fence {
			add = append(add, s)
		}
	}
	for _, s := range sys.Sites {
		if s.Fence && !chosen[s.ID] {
			removed = append(removed, s)
		}
	}
	if fe, ok := sys.Reader.(cs.FenceEditor); ok {
		// A format whose reader writes both kinds and removes fences.
		var full, st []*cs.Site
		for _, s := range add {
			if store[s] {
				st = append(st, s)
			} else {
				full = append(full, s)
			}
		}
		patched, err := fe.EditFences(sys.File.Src, full, st, removed)
		if err != nil {
			return nil, nil, err
		}
		return patched, removed, nil
	}
	if sys.Reader != nil {
		patched, err := sys.Reader.InsertFences(sys.File.Src, add)
		if err != nil {
			return nil, nil, err
		}
		return patched, nil, nil
	}
	text := func(s *cs.Site) string {
		if store[s] {
			return "fence store;"
		}
		return "fence;"
	}
	edits := append(FenceEditsWith(sys.File.Src, add, text), RemoveEdits(sys.File.Src, removed)...)
	SortEdits(edits)
	patched, err = Apply(sys.File.Src, edits)
	if err != nil {
		return nil, nil, err
	}
	return patched, removed, nil
}
