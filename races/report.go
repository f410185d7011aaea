package races

import (
	"fmt"
	"strings"

	"fencer/cs"
)

// This file shows a race to the user: the warning's text and the entry of
// the JSON report's races array (docs/report.md).

// Entry is a race in the JSON report.
type Entry struct {
	Variable string `json:"variable"`
	// Accesses are the two accesses, the one the run makes first first.
	Accesses []EntryAccess `json:"accesses"`
	// Run is a shortest run that reaches the second access, one entry per
	// source line a process passes in a row.
	Run []EntryStep `json:"run"`
}

// EntryAccess is one access of a race.
type EntryAccess struct {
	Process   string `json:"process"`
	Line      int    `json:"line"`
	Column    int    `json:"column"`
	Kind      string `json:"kind"` // read or write
	Plain     bool   `json:"plain"`
	Statement string `json:"statement"`
}

// EntryStep is a step of the run of a race.
type EntryStep struct {
	Process   string `json:"process"`
	Line      int    `json:"line"`
	Statement string `json:"statement"`
}

// Entry is r as the JSON report shows it; name is the variable as the
// source spells it.
func (r Race) Entry(sys *cs.System, name string) Entry {
	e := Entry{Variable: name}
	for _, a := range []Access{r.First, r.Second} {
		pos := sys.Position(a.Pos)
		kind := "read"
		if a.Write {
			kind = "write"
		}
		e.Accesses = append(e.Accesses, EntryAccess{Process: sys.Procs[a.Proc].Name, Line: pos.Line, Column: pos.Col, Kind: kind, Plain: a.Plain, Statement: lineText(sys, a.Pos)})
	}
	for _, st := range r.Run {
		edge := sys.Procs[st.Proc].Edges[st.Edge]
		if edge.Pos == cs.NoPos {
			continue
		}
		s := EntryStep{Process: sys.Procs[st.Proc].Name, Line: sys.Position(edge.Pos).Line}
		if n := len(e.Run); n > 0 && e.Run[n-1].Process == s.Process && e.Run[n-1].Line == s.Line {
			continue
		}
		s.Statement = lineText(sys, edge.Pos)
		e.Run = append(e.Run, s)
	}
	return e
}

// Message is the text of the warning on r (without "file:line:col:
// warning: "): the variable, both accesses with file:line:col and their
// statements, and the run.
func (r Race) Message(sys *cs.System, name string) string {
	e := r.Entry(sys, name)
	a, b := e.Accesses[0], e.Accesses[1]
	file := sys.File.Name
	where := func(x EntryAccess) string { return fmt.Sprintf("%s:%d:%d", file, x.Line, x.Column) }
	verb := func(x EntryAccess) string { return x.Kind + "s" }
	var sb strings.Builder
	fmt.Fprintf(&sb, "data race on %s: %s %s it at %s and %s %s it at %s, and no lock, release/acquire pair, create or join orders the two: C11 leaves the program undefined, and the compiler may hoist or merge plain accesses, which no fence prevents; protect %s with a lock, publish it with release/acquire, or make it _Atomic",
		name, a.Process, verb(a), where(a), b.Process, verb(b), where(b), name)
	for _, x := range e.Accesses {
		fmt.Fprintf(&sb, "\n  %s: %s by %s: %s", where(x), x.Kind, x.Process, x.Statement)
	}
	var run []string
	for _, s := range e.Run {
		run = append(run, fmt.Sprintf("%s %d", s.Process, s.Line))
	}
	fmt.Fprintf(&sb, "\n  a run to them (process, line): %s", strings.Join(run, ", "))
	return sb.String()
}

// lineText is the source line of pos, trimmed.
func lineText(sys *cs.System, pos cs.Pos) string {
	src := sys.File.Src
	off := pos.Offset()
	if pos == cs.NoPos || off < 0 || off > len(src) {
		return ""
	}
	start := strings.LastIndexByte(string(src[:off]), '\n') + 1
	end := len(src)
	if i := strings.IndexByte(string(src[off:]), '\n'); i >= 0 {
		end = off + i
	}
	return strings.TrimSpace(string(src[start:end]))
}
