package weakfix

import (
	"fmt"

	"fencer/cs"
	"fencer/fences"
)

// Apply returns sys with changes made: the barriers as fence steps
// (cs.System.WithFenceKinds) and the raised accesses annotated. It is
// what the patched text lowers to, for the robustness proof.
func Apply(sys *cs.System, changes []Change) *cs.System {
	kinds := map[int]cs.FenceKind{}
	raise := map[cs.Pos]cs.Ann{}
	for _, c := range changes {
		if c.Site != nil {
			kinds[c.Site.ID] = c.Kind
		} else {
			raise[c.Pos] = c.Ann
		}
	}
	out := sys.WithFenceKinds(kinds)
	if len(raise) == 0 {
		return out
	}
	for i, p := range out.Procs {
		q := *p
		q.Edges = append([]cs.Edge(nil), p.Edges...)
		for j := range q.Edges {
			e := &q.Edges[j]
			if a, ok := raise[e.Pos]; ok && (e.Op.Kind == cs.OpRead && a == cs.Acquire || e.Op.Kind == cs.OpWrite && a == cs.Release) {
				e.Op.Ann |= a
			}
		}
		out.Procs[i] = &q
	}
	return out
}

// Patch writes changes into the source of sys: through the reader's
// cs.ChangeEditor for a file of another format, and for .cs a fence
// statement of the kind's syntax at each site ("fence load;") and the
// word acquire or release before each raised statement.
func Patch(sys *cs.System, changes []Change) ([]byte, error) {
	if sys.Reader != nil {
		ed, ok := sys.Reader.(cs.ChangeEditor)
		if !ok {
			return nil, fmt.Errorf("fencer cannot write barriers of the weak models into %s input", sys.Reader.Format())
		}
		var cc []cs.Change
		for _, c := range changes {
			cc = append(cc, c.Change)
		}
		return ed.EditChanges(sys.File.Src, cc)
	}
	var sites []*cs.Site
	kind := map[*cs.Site]cs.FenceKind{}
	var edits []fences.Edit
	src := sys.File.Src
	for _, c := range changes {
		if c.Site != nil {
			if c.Site.Fence {
				// a fence of the source kept (read with reconsider):
				// rewritten when it is to be of another kind
				if c.Kind != cs.FullFence {
					edits = append(edits, fences.Edit{Pos: c.Site.Start, End: c.Site.End, NewText: c.Kind.Syntax()})
				}
				continue
			}
			sites = append(sites, c.Site)
			kind[c.Site] = c.Kind
			continue
		}
		at, err := statementStart(src, c.Pos.Offset())
		if err != nil {
			return nil, err
		}
		edits = append(edits, fences.Edit{Pos: at, End: at, NewText: c.Ann.String() + " "})
	}
	edits = append(edits, fences.FenceEditsWith(src, sites, func(s *cs.Site) string { return kind[s].Syntax() })...)
	edits = append(edits, fences.RemoveEdits(src, Removed(sys, changes))...)
	fences.SortEdits(edits)
	return fences.Apply(src, edits)
}

// statementStart is the offset of the first token of the statement that
// holds offset off: after the nearest ';', '{', '}' or label ':' before
// it, past blanks and comments.
func statementStart(src []byte, off int) (int, error) {
	i := off
	for i > 0 {
		c := src[i-1]
		if c == ';' || c == '{' || c == '}' || c == ':' {
			break
		}
		i--
	}
	for i <= off {
		switch {
		case src[i] == ' ' || src[i] == '\t' || src[i] == '\n' || src[i] == '\r':
			i++
		case i+1 < len(src) && src[i] == '/' && src[i+1] == '/':
			for i < off && src[i] != '\n' {
				i++
			}
		case i+1 < len(src) && src[i] == '/' && src[i+1] == '*':
			j := i + 2
			for j+1 < len(src) && !(src[j] == '*' && src[j+1] == '/') {
				j++
			}
			i = j + 2
		default:
			return i, nil
		}
	}
	return 0, fmt.Errorf("no statement before offset %d", off)
}

// Removed are the fences of the source (read with cs.Options.Reconsider:
// Site.Fence) that changes do not keep.
func Removed(sys *cs.System, changes []Change) []*cs.Site {
	kept := map[int]bool{}
	for _, c := range changes {
		if c.Site != nil {
			kept[c.Site.ID] = true
		}
	}
	var out []*cs.Site
	for _, s := range sys.Sites {
		if s.Fence && !kept[s.ID] {
			out = append(out, s)
		}
	}
	return out
}
