package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"slices"
	"time"

	"github.com/urfave/cli/v2"

	"fencer/cegar"
	"fencer/cs"
	"fencer/kabs"
)

// reportVersion is the version of the JSON report's format
// (docs/report.md, docs/report.schema.json). It changes when a key is
// removed or changes meaning; new keys may appear within a version.
const reportVersion = 1

// report is the JSON report of insert and verify (documented in
// docs/report.md, schema in docs/report.schema.json).
type report struct {
	Version int           `json:"version"`
	Command string        `json:"command"` // insert or verify
	File    string        `json:"file"`
	Verdict string        `json:"verdict"` // correct, sc-bug, unsafe, unknown, error
	Model   string        `json:"model"`
	Reason  string        `json:"reason,omitempty"`
	Errors  []string      `json:"errors,omitempty"` // verdict error: the input errors, file:line:col: message
	Fences  []fenceReport `json:"fences"`
	// Removed (insert --reconsider) and Alternatives (insert --all): see
	// docs/report.md.
	Removed      []fenceReport   `json:"removed,omitempty"`
	Alternatives [][]fenceReport `json:"alternatives,omitempty"`
	Trace        *traceReport    `json:"trace,omitempty"`
	Stats        *statsReport    `json:"stats,omitempty"` // absent for verdict error
}

type fenceReport struct {
	Line      int          `json:"line"`
	Column    int          `json:"column"`
	Process   string       `json:"process"` // the template name, or the process name
	Statement string       `json:"statement"`
	Place     string       `json:"place"`              // "after" or "before" the statement
	Existing  bool         `json:"existing,omitempty"` // a fence of the source, kept (--reconsider)
	Kind      string       `json:"kind,omitempty"`     // "store" for a store fence (--kinds)
	Witness   *traceReport `json:"witness"`            // null: for robustness only
	// Reordering is what the fence forbids in its witness (null when the
	// fence has no witness).
	Reordering *reorderingReport `json:"reordering"`
}

type statsReport struct {
	K              int            `json:"k"`
	Predicates     int            `json:"predicates"`
	Refinements    map[string]int `json:"refinements"` // predicates, k, fences: always present
	States         int            `json:"states"`
	Queries        int            `json:"smt_queries"`
	QueriesInGo    int            `json:"queries_in_go"` // of smt_queries, decided without Z3 (package lia)
	Interpolations int            `json:"interpolations"`
	TimeSeconds    float64        `json:"time_seconds"`
	// Robust says the verdict was proved by robustness ("robust: every TSO
	// run is equivalent to an SC run"); absent when proved by the abstraction.
	Robust string `json:"robust,omitempty"`
	// NotMinimum: the fences are verified but not proved a minimum.
	NotMinimum bool `json:"not_minimum,omitempty"`
}

func newReport(command string, sys *cs.System, r *cegar.Result) *report {
	rep := &report{Version: reportVersion, Command: command, File: sys.File.Name, Verdict: r.Verdict.String(), Model: r.Model.String(), Reason: r.Reason, Fences: []fenceReport{}}
	site := func(f cegar.Fence) fenceReport {
		pos := sys.Position(f.Site.Pos())
		place := "after"
		if f.Site.Place == cs.Before {
			place = "before"
		}
		fr := fenceReport{Line: pos.Line, Column: pos.Col, Process: siteProcess(sys, f.Site.ID),
			Statement: f.Site.Text, Place: place, Existing: f.Site.Fence}
		if f.Store {
			fr.Kind = "store"
		}
		if ex := explainWitness(f.Witness); ex != nil {
			fr.Witness, fr.Reordering = ex.trace, ex.tracer.fenceReordering(f.Site.ID)
		}
		return fr
	}
	for _, f := range r.Fences {
		rep.Fences = append(rep.Fences, site(f))
	}
	for _, s := range r.Removed {
		rep.Removed = append(rep.Removed, site(cegar.Fence{Site: s}))
	}
	for _, alt := range r.Alternatives {
		var fs []fenceReport
		for _, f := range alt {
			fs = append(fs, site(f))
		}
		rep.Alternatives = append(rep.Alternatives, fs)
	}
	rep.Trace = witnessReport(r.Trace)
	s := r.Stats
	rep.Stats = &statsReport{K: s.K, Predicates: s.Predicates, Refinements: map[string]int{"predicates": s.Refinements.Predicates, "k": s.Refinements.K, "fences": s.Refinements.Fences}, States: s.States,
		Queries: s.Queries, QueriesInGo: s.QueriesInGo, Interpolations: s.Interpolations, TimeSeconds: s.Time.Seconds(), Robust: s.Robust, NotMinimum: s.NotMinimum}
	return rep
}

// witnessReport is the trace of w with the reorderings it depends on.
func witnessReport(w *cegar.Witness) *traceReport {
	ex := explainWitness(w)
	if ex == nil {
		return nil
	}
	return ex.trace
}

// siteProcess names the process (or template) whose code holds site id.
func siteProcess(sys *cs.System, id int) string {
	for _, p := range sys.Procs {
		for _, e := range p.Edges {
			if slices.Contains(e.Points, id) {
				if p.Template != "" {
					return p.Template
				}
				return p.Name
			}
		}
	}
	return ""
}

// writeJSON writes the report of command to the --json file ("-":
// standard output), if asked.
func writeJSON(c *cli.Context, sys *cs.System, r *cegar.Result) error {
	if c.String("json") == "" {
		return nil
	}
	return emitReport(c.String("json"), newReport(c.Command.Name, sys, r))
}

func emitReport(path string, rep any) error {
	b, err := json.MarshalIndent(rep, "", "  ")
	if err != nil {
		return err
	}
	b = append(b, '\n')
	if path == "-" {
		_, err := os.Stdout.Write(b)
		return err
	}
	return writeFile(path, b)
}

// inputError writes, with --json, a report of verdict "error" for input
// that could not be read or parsed, then returns err unchanged.
func inputError(c *cli.Context, err error) error {
	path := c.String("json")
	if path == "" || err == nil {
		return err
	}
	var el cs.ErrorList
	var msgs []string
	if errors.As(err, &el) {
		for _, e := range el {
			msgs = append(msgs, e.Error())
		}
	} else {
		msgs = append(msgs, err.Error())
	}
	file := c.Args().First()
	if file == "-" {
		file = stdinName
	}
	model := c.String("model")
	rep := &report{Version: reportVersion, Command: c.Command.Name, File: file, Verdict: "error", Model: model, Errors: msgs, Fences: []fenceReport{}}
	if werr := emitReport(path, rep); werr != nil {
		return werr
	}
	return err
}

// printProof says how a verdict was proved when it was by robustness.
func printProof(w *os.File, r *cegar.Result) {
	if r.Stats.Robust != "" {
		fmt.Fprintf(w, "proof: correct under SC, and %s\n", r.Stats.Robust)
	}
}

// exploreReport is the report of fencer explore: the keys of report, with
// the explicit checker's own stats.
type exploreReport struct {
	Version int           `json:"version"`
	Command string        `json:"command"`
	File    string        `json:"file"`
	Verdict string        `json:"verdict"`
	Model   string        `json:"model"`
	Reason  string        `json:"reason,omitempty"`
	Fences  []fenceReport `json:"fences"` // always empty: explore inserts none
	Trace   *traceReport  `json:"trace,omitempty"`
	Stats   *exploreStats `json:"stats"`
}

// exploreStats is the work of fencer explore (the explicit-state checker).
type exploreStats struct {
	States      int     `json:"states"` // distinct concrete states
	Depth       int     `json:"depth"`  // the deepest BFS level reached
	TimeSeconds float64 `json:"time_seconds"`
}

// writeExploreJSON writes the report of fencer explore, if asked: verdict
// correct (the whole state space explored), unsafe (sc-bug under SC) with
// a shortest trace, or unknown (a bound was hit).
func writeExploreJSON(c *cli.Context, sys *cs.System, m kabs.Model, res *kabs.Result, tr *traceReport, elapsed time.Duration) error {
	if c.String("json") == "" {
		return nil
	}
	rep := &exploreReport{Version: reportVersion, Command: "explore", File: sys.File.Name, Model: m.String(), Fences: []fenceReport{}, Trace: tr,
		Stats: &exploreStats{States: res.States, Depth: res.Depth, TimeSeconds: elapsed.Seconds()}}
	switch res.Verdict {
	case kabs.Safe:
		rep.Verdict = "correct"
	case kabs.Unsafe:
		rep.Verdict = "unsafe"
		if m == kabs.SC {
			rep.Verdict = "sc-bug"
		}
	default:
		rep.Verdict, rep.Reason = "unknown", res.Reason
	}
	return emitReport(c.String("json"), rep)
}
