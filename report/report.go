package report

import (
	"fmt"
	"io"
	"slices"
	"time"

	"fencer/cegar"
	"fencer/cs"
	"fencer/kabs"
)

// reportVersion is the version of the JSON report's format
// (docs/report.md, docs/report.schema.json). It changes when a key is
// removed or changes meaning; new keys may appear within a version.
const Version = 1

// report is the JSON report of insert and verify (documented in
// docs/report.md, schema in docs/report.schema.json).
type Report struct {
	Version int      `json:"version"`
	Command string   `json:"command"` // insert or verify
	File    string   `json:"file"`
	Verdict string   `json:"verdict"` // correct, sc-bug, unsafe, unknown, error
	Model   string   `json:"model"`
	Reason  string   `json:"reason,omitempty"`
	Errors  []string `json:"errors,omitempty"` // verdict error: the input errors, file:line:col: message
	// Warnings are the reader's warnings on the input (formats.Warning),
	// each "file:line:col: warning: message".
	Warnings []string `json:"warnings,omitempty"`
	Fences   []Fence  `json:"fences"`
	// Removed (insert --reconsider) and Alternatives (insert --all): see
	// docs/report.md.
	Removed      []Fence   `json:"removed,omitempty"`
	Alternatives [][]Fence `json:"alternatives,omitempty"`
	Trace        *Trace    `json:"trace,omitempty"`
	Stats        *Stats    `json:"stats,omitempty"` // absent for verdict error
}

type Fence struct {
	Line      int    `json:"line"`
	Column    int    `json:"column"`
	Process   string `json:"process"` // the template name, or the process name
	Statement string `json:"statement"`
	Place     string `json:"place"`              // "after" or "before" the statement
	Existing  bool   `json:"existing,omitempty"` // a fence of the source, kept (--reconsider)
	Kind      string `json:"kind,omitempty"`     // "store" for a store fence (--kinds)
	Witness   *Trace `json:"witness"`            // null: for robustness only
	// Reordering is what the fence forbids in its witness (null when the
	// fence has no witness).
	Reordering *Reordering `json:"reordering"`
}

type Stats struct {
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

func New(command string, sys *cs.System, r *cegar.Result) *Report {
	rep := &Report{Version: Version, Command: command, File: sys.File.Name, Verdict: r.Verdict.String(), Model: r.Model.String(), Reason: r.Reason, Fences: []Fence{}}
	site := func(f cegar.Fence) Fence {
		pos := sys.Position(f.Site.Pos())
		place := "after"
		if f.Site.Place == cs.Before {
			place = "before"
		}
		fr := Fence{Line: pos.Line, Column: pos.Col, Process: siteProcess(sys, f.Site.ID),
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
		var fs []Fence
		for _, f := range alt {
			fs = append(fs, site(f))
		}
		rep.Alternatives = append(rep.Alternatives, fs)
	}
	rep.Trace = WitnessTrace(r.Trace)
	s := r.Stats
	rep.Stats = &Stats{K: s.K, Predicates: s.Predicates, Refinements: map[string]int{"predicates": s.Refinements.Predicates, "k": s.Refinements.K, "fences": s.Refinements.Fences}, States: s.States,
		Queries: s.Queries, QueriesInGo: s.QueriesInGo, Interpolations: s.Interpolations, TimeSeconds: s.Time.Seconds(), Robust: s.Robust, NotMinimum: s.NotMinimum}
	return rep
}

// witnessReport is the trace of w with the reorderings it depends on.
func WitnessTrace(w *cegar.Witness) *Trace {
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

// printProof says how a verdict was proved when it was by robustness.
func PrintProof(w io.Writer, r *cegar.Result) {
	if r.Stats.Robust != "" {
		fmt.Fprintf(w, "proof: correct under SC, and %s\n", r.Stats.Robust)
	}
}

// exploreReport is the report of fencer explore: the keys of report, with
// the explicit checker's own stats.
type ExploreReport struct {
	Version int           `json:"version"`
	Command string        `json:"command"`
	File    string        `json:"file"`
	Verdict string        `json:"verdict"`
	Model   string        `json:"model"`
	Reason  string        `json:"reason,omitempty"`
	Fences  []Fence       `json:"fences"` // always empty: explore inserts none
	Trace   *Trace        `json:"trace,omitempty"`
	Stats   *ExploreStats `json:"stats"`
}

// exploreStats is the work of fencer explore (the explicit-state checker).
type ExploreStats struct {
	States      int     `json:"states"` // distinct concrete states
	Depth       int     `json:"depth"`  // the deepest BFS level reached
	TimeSeconds float64 `json:"time_seconds"`
}

// ErrorReport is the report of verdict "error" for input that could not
// be read or parsed: msgs are the input errors, each "file: message" or
// "file:line:col: message".
func ErrorReport(command, file, model string, msgs []string) *Report {
	return &Report{Version: Version, Command: command, File: file, Verdict: "error", Model: model, Errors: msgs, Fences: []Fence{}}
}

// NewExplore is the report of fencer explore: verdict correct (the whole
// state space explored), unsafe (sc-bug under SC) with the shortest trace
// tr, or unknown (a bound was hit).
func NewExplore(sys *cs.System, m kabs.Model, res *kabs.Result, tr *Trace, elapsed time.Duration) *ExploreReport {
	rep := &ExploreReport{Version: Version, Command: "explore", File: sys.File.Name, Model: m.String(), Fences: []Fence{}, Trace: tr,
		Stats: &ExploreStats{States: res.States, Depth: res.Depth, TimeSeconds: elapsed.Seconds()}}
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
	return rep
}
