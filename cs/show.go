package cs

import (
	"fmt"
	"io"
	"sort"
	"strings"
)

// Format writes a readable listing of s for "fencer show": the shared
// variables, then per process its locals and one line per edge
//
//	P[0]  3 --[ t := read x ]--> 4   file.cs:12
//
// then the bad states and the fence sites.
func (s *System) Format(w io.Writer) error {
	var b strings.Builder
	line := func(p Pos) string {
		pos := s.Position(p)
		if pos.Line == 0 {
			return "-"
		}
		return fmt.Sprintf("%s:%d", pos.Filename, pos.Line)
	}
	fmt.Fprintf(&b, "shared:")
	for _, v := range s.Shared {
		fmt.Fprintf(&b, " %s", varString(v))
	}
	b.WriteString("\n")
	for _, p := range s.Procs {
		fmt.Fprintf(&b, "\nprocess %s (%d locations", p.Name, p.NumLocs)
		if p.ErrLoc >= 0 {
			fmt.Fprintf(&b, ", error location %d", p.ErrLoc)
		}
		b.WriteString(")\n")
		if len(p.Locals) > 0 {
			b.WriteString("  local:")
			for _, v := range p.Locals {
				fmt.Fprintf(&b, " %s", varString(VarDecl{Name: short(v.Name), Init: v.Init}))
			}
			b.WriteString("\n")
		}
		if len(p.Labels) > 0 {
			b.WriteString("  labels:")
			for _, name := range sortedKeys(p.Labels) {
				fmt.Fprintf(&b, " %s=%d", name, p.Labels[name])
			}
			b.WriteString("\n")
		}
		for _, e := range p.Edges {
			site := ""
			if len(e.Points) > 0 {
				site = fmt.Sprintf("  (sites %v)", e.Points)
			}
			fmt.Fprintf(&b, "  %s %3d --[ %s ]--> %d   %s%s\n", p.Name, e.From, e.Op, e.To, line(e.Pos), site)
		}
	}
	if len(s.Bad) > 0 {
		b.WriteString("\nbad states:\n")
		for _, bs := range s.Bad {
			parts := make([]string, len(bs.Procs))
			for i, pi := range bs.Procs {
				parts[i] = fmt.Sprintf("%s@%d", s.Procs[pi].Name, bs.Locs[i])
			}
			fmt.Fprintf(&b, "  %s   %s\n", strings.Join(parts, ", "), line(bs.Pos))
		}
	}
	if len(s.Sites) > 0 {
		b.WriteString("\nfence sites:\n")
		for _, st := range s.Sites {
			bare := ""
			if st.BareBody {
				bare = " (bare body)"
			}
			fmt.Fprintf(&b, "  %d  %s  %q%s\n", st.ID, line(st.Pos()), st.Describe(), bare)
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func varString(v VarDecl) string {
	switch {
	case v.Init.Nondet && v.Init.Ranged:
		return fmt.Sprintf("%s=*[%d:%d]", v.Name, v.Init.Lo, v.Init.Hi)
	case v.Init.Nondet:
		return v.Name + "=*"
	case v.Init.Value != 0:
		return fmt.Sprintf("%s=%d", v.Name, v.Init.Value)
	}
	return v.Name
}

func sortedKeys(m map[string]Loc) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
