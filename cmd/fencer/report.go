package main

import (
	"encoding/json"
	"fmt"
	"os"

	"github.com/urfave/cli/v2"

	"fencer/cegar"
	"fencer/cs"
)

// report is the JSON report of insert and verify (documented in
// docs/report.md).
type report struct {
	File    string        `json:"file"`
	Verdict string        `json:"verdict"` // correct, sc-bug, unsafe, unknown
	Model   string        `json:"model"`
	Reason  string        `json:"reason,omitempty"`
	Fences  []fenceReport `json:"fences"`
	Trace   *traceReport  `json:"trace,omitempty"`
	Stats   statsReport   `json:"stats"`
}

type fenceReport struct {
	Line      int          `json:"line"`
	Column    int          `json:"column"`
	Process   string       `json:"process"` // the template name, or the process name
	Statement string       `json:"statement"`
	Witness   *traceReport `json:"witness"`
}

type statsReport struct {
	K              int            `json:"k"`
	Predicates     int            `json:"predicates"`
	Refinements    map[string]int `json:"refinements"`
	States         int            `json:"states"`
	Queries        int            `json:"smt_queries"`
	Interpolations int            `json:"interpolations"`
	TimeSeconds    float64        `json:"time_seconds"`
	// Robust says the verdict was proved by robustness ("robust: every TSO
	// run is equivalent to an SC run"); absent when proved by the abstraction.
	Robust string `json:"robust,omitempty"`
	// NotMinimum: the fences are verified but not proved a minimum.
	NotMinimum bool `json:"not_minimum,omitempty"`
}

func newReport(sys *cs.System, r *cegar.Result) *report {
	rep := &report{File: sys.File.Name, Verdict: r.Verdict.String(), Model: r.Model.String(), Reason: r.Reason, Fences: []fenceReport{}}
	for _, f := range r.Fences {
		pos := sys.Position(f.Site.Pos())
		rep.Fences = append(rep.Fences, fenceReport{
			Line: pos.Line, Column: pos.Col, Process: siteProcess(sys, f.Site.ID),
			Statement: f.Site.Text, Witness: witnessReport(f.Witness),
		})
	}
	rep.Trace = witnessReport(r.Trace)
	s := r.Stats
	rep.Stats = statsReport{K: s.K, Predicates: s.Predicates, Refinements: s.Refinements, States: s.States,
		Queries: s.Queries, Interpolations: s.Interpolations, TimeSeconds: s.Time.Seconds(), Robust: s.Robust, NotMinimum: s.NotMinimum}
	if rep.Stats.Refinements == nil {
		rep.Stats.Refinements = map[string]int{}
	}
	return rep
}

func witnessReport(w *cegar.Witness) *traceReport {
	if w == nil {
		return nil
	}
	return buildTrace(w.Sys, w.Model, w.Trace, w.States)
}

// siteProcess names the process (or template) whose code holds site id.
func siteProcess(sys *cs.System, id int) string {
	for _, p := range sys.Procs {
		for _, e := range p.Edges {
			if e.Site == id {
				if p.Template != "" {
					return p.Template
				}
				return p.Name
			}
		}
	}
	return ""
}

func writeJSON(c *cli.Context, sys *cs.System, r *cegar.Result) error {
	path := c.String("json")
	if path == "" {
		return nil
	}
	b, err := json.MarshalIndent(newReport(sys, r), "", "  ")
	if err != nil {
		return err
	}
	return writeFile(path, append(b, '\n'))
}

// printProof says how a verdict was proved when it was by robustness.
func printProof(w *os.File, r *cegar.Result) {
	if r.Stats.Robust != "" {
		fmt.Fprintf(w, "proof: correct under SC, and %s\n", r.Stats.Robust)
	}
}
