package cs

import (
	"fmt"
	"strings"
	"testing"
)

// mustParse parses src or fails the test.
func mustParse(t *testing.T, src string) *System {
	t.Helper()
	s, err := Parse("test.cs", []byte(src))
	if err != nil {
		t.Fatalf("Parse: %v\n%s", err, src)
	}
	return s
}

// proc returns the process named name.
func proc(t *testing.T, s *System, name string) *Process {
	t.Helper()
	i := s.ProcIndex(name)
	if i < 0 {
		t.Fatalf("no process %s", name)
	}
	return s.Procs[i]
}

// edges lists the edges of p as "from -> to: op" (plus " site=N" for a
// site); the error location prints as "E".
func edges(p *Process) []string {
	loc := func(l Loc) string {
		if l == p.ErrLoc {
			return "E"
		}
		return fmt.Sprint(l)
	}
	var out []string
	for _, e := range p.Edges {
		s := fmt.Sprintf("%s -> %s: %s", loc(e.From), loc(e.To), e.Op)
		out = append(out, s)
	}
	return out
}

func sameLines(t *testing.T, what string, got, want []string) {
	t.Helper()
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("%s:\ngot:\n\t%s\nwant:\n\t%s", what, strings.Join(got, "\n\t"), strings.Join(want, "\n\t"))
	}
}

// checkInvariants checks the structural contract of a System.
func checkInvariants(t *testing.T, s *System) {
	t.Helper()
	for _, p := range s.Procs {
		if len(p.Out) != p.NumLocs || len(p.LocPos) != p.NumLocs {
			t.Errorf("%s: Out/LocPos sizes %d/%d, NumLocs %d", p.Name, len(p.Out), len(p.LocPos), p.NumLocs)
		}
		n := 0
		for l, out := range p.Out {
			for _, i := range out {
				if p.Edges[i].From != Loc(l) {
					t.Errorf("%s: Out[%d] has edge %d from %d", p.Name, l, i, p.Edges[i].From)
				}
				n++
			}
		}
		if n != len(p.Edges) {
			t.Errorf("%s: Out lists %d edges, have %d", p.Name, n, len(p.Edges))
		}
		for _, e := range p.Edges {
			if e.From < 0 || int(e.From) >= p.NumLocs || e.To < 0 || int(e.To) >= p.NumLocs {
				t.Errorf("%s: edge %v out of range", p.Name, e)
			}
			for _, id := range e.Points {
				if id < 0 || id >= len(s.Sites) {
					t.Errorf("%s: bad site %d on %v", p.Name, id, e.Op)
				}
			}
			if p.ErrLoc >= 0 && e.From == p.ErrLoc {
				t.Errorf("%s: edge leaves the error location", p.Name)
			}
		}
		for name, l := range p.Labels {
			if l < 0 || int(l) >= p.NumLocs {
				t.Errorf("%s: label %s at %d", p.Name, name, l)
			}
		}
	}
	for i, st := range s.Sites {
		if st.ID != i || (i > 0 && s.Sites[i-1].Offset() > st.Offset()) {
			t.Errorf("sites out of order: %v", st)
		}
		if st.Text != string(s.File.Src[st.Start:st.End]) || !(strings.HasSuffix(st.Text, ";") || strings.HasSuffix(st.Text, "}")) {
			t.Errorf("site %d text %q", i, st.Text)
		}
	}
}
