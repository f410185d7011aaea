package report

import (
	"fmt"
	"io"
	"time"

	"fencer/cs"
	"fencer/memmodel"
	"fencer/robust"
)

// Cycle is the critical cycle that a fence of insert --robust breaks: with
// every other fence of the set installed, the cycle's relaxed pair (a
// buffered write and a later access of its process to another variable)
// is still relaxed, and this fence cuts it.
type Cycle struct {
	Description string    `json:"description"` // the cycle as source lines (robust.Analysis.Describe)
	Process     string    `json:"process"`     // the process of the relaxed pair
	Kind        string    `json:"kind"`        // write-read or write-write
	Write       AccessRef `json:"write"`       // the buffered write of the pair
	Later       AccessRef `json:"later"`       // the later access it would be reordered with
	// Assumed: the cycle search hit its limit and the pair is assumed to
	// lie on a critical cycle (sound: it may only cost fences).
	Assumed bool `json:"assumed,omitempty"`
}

// AccessRef is one shared-memory access of a critical cycle.
type AccessRef struct {
	Line     int    `json:"line"`
	Variable string `json:"variable"`
}

// NewRobust is the report of insert --robust on sys under m: verdict
// robust with the fence set fs (each fence with the cycle it breaks,
// BrokenCycles), found by the analysis an in elapsed. The property is not
// checked: the fences make every run under m equivalent to an SC run.
func NewRobust(sys *cs.System, m memmodel.Model, an *robust.Analysis, fs *robust.FenceSet, elapsed time.Duration) *Report {
	rep := &Report{Version: Version, Command: "insert", File: sys.File.Name, Verdict: "robust", Model: m.String(), Fences: []Fence{}}
	cycles := BrokenCycles(an, fs.Sites)
	for i, id := range fs.Sites {
		s := sys.Sites[id]
		pos := sys.Position(s.Pos())
		place := "after"
		if s.Place == cs.Before {
			place = "before"
		}
		rep.Fences = append(rep.Fences, Fence{Line: pos.Line, Column: pos.Col, Process: siteProcess(sys, id),
			Statement: s.Text, Place: place, Cycle: cycles[i]})
	}
	rep.Stats = &Stats{Refinements: map[string]int{"predicates": 0, "k": 0, "fences": 0}, States: an.States, TimeSeconds: elapsed.Seconds(),
		Robust: fmt.Sprintf("robust: every %s run is equivalent to an SC run", Upper(m)), NotMinimum: !fs.Minimal}
	return rep
}

// BrokenCycles returns, for each fence site of sites (a set that makes
// the program robust), the critical cycle it breaks: one whose relaxed
// pair stays relaxed when every other fence of sites is installed. It is
// nil for a fence that no cycle needs (possible only in a set not proved
// minimal).
func BrokenCycles(an *robust.Analysis, sites []int) []*Cycle {
	out := make([]*Cycle, len(sites))
	for i, id := range sites {
		others := map[int]bool{}
		for _, o := range sites {
			if o != id {
				others[o] = true
			}
		}
		ok, p := an.Robust(others)
		if ok || p == nil || p.Cycle == nil {
			continue
		}
		g := an.Graph
		a, b := g.Acc[p.A], g.Acc[p.B]
		c := &Cycle{Description: an.Describe(p.Cycle), Process: g.Sys.Procs[a.Proc].Name, Kind: "write-read",
			Write:   AccessRef{Line: g.Sys.File.Line(a.Pos), Variable: a.Var},
			Later:   AccessRef{Line: g.Sys.File.Line(b.Pos), Variable: b.Var},
			Assumed: p.Cycle.Assumed}
		if b.Write {
			c.Kind = "write-write"
		}
		out[i] = c
	}
	return out
}

// PrintRobust writes the fences of insert --robust, each with the cycle
// it breaks.
func PrintRobust(w io.Writer, sys *cs.System, rep *Report) {
	for _, f := range rep.Fences {
		fmt.Fprintf(w, "  %s:%d: %s %s\n", sys.File.Name, f.Line, f.Place, f.Statement)
		if f.Cycle != nil {
			fmt.Fprintf(w, "    breaks the critical cycle: %s\n", f.Cycle.Description)
		}
	}
}
