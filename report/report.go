package report

import (
	"fmt"
	"io"
	"slices"
	"sort"
	"time"

	"fencer/cegar"
	"fencer/cs"
	"fencer/memmodel"
	"fencer/races"
)

// reportVersion is the version of the JSON report's format
// (docs/report.md, docs/report.schema.json). It changes when a key is
// removed or changes meaning; new keys may appear within a version.
const Version = 1

// Report is the JSON report of insert and verify (documented in
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
	// Races are the data races of a C program (package races), each
	// also one of Warnings; absent when none.
	Races  []races.Entry `json:"races,omitempty"`
	Fences []Fence       `json:"fences"`
	// Removed (insert --reconsider) and Alternatives (insert --all): see
	// docs/report.md.
	Removed      []Fence   `json:"removed,omitempty"`
	Alternatives [][]Fence `json:"alternatives,omitempty"`
	Trace        *Trace    `json:"trace,omitempty"`
	// Partial is, for an insert stopped by a limit or an interrupt
	// (verdict unknown), what was known when it stopped; not verified.
	Partial *Partial `json:"partial,omitempty"`
	// Known is, for an insert or verify stopped early (verdict unknown),
	// what it proved before it stopped and where it stopped.
	Known *Known `json:"known,omitempty"`
	Stats *Stats `json:"stats,omitempty"` // absent for verdict error
}

// Fence is one fence of a report: where it goes, what it forbids in its
// witness, or for insert --robust the critical cycle it breaks.
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
	// Cycle is, for insert --robust, the critical cycle the fence breaks.
	Cycle *Cycle `json:"cycle,omitempty"`
}

// Stats is the work an insert or verify did (docs/report.md).
type Stats struct {
	K              int            `json:"k"`
	Predicates     int            `json:"predicates"`
	Refinements    map[string]int `json:"refinements"` // predicates, k, fences: always present
	States         int            `json:"states"`
	Queries        int            `json:"smt_queries"`
	QueriesInGo    int            `json:"queries_in_go"` // of smt_queries, decided without Z3 (package lia)
	Interpolations int            `json:"interpolations"`
	TimeSeconds    float64        `json:"time_seconds"`
	// StoreBytes is the memory of the stored states of the exploration
	// with the most states (their nodes, keys and table, as allocated), and
	// StoreStates its states: bytes per stored state is their quotient.
	StoreBytes  int64 `json:"store_bytes"`
	StoreStates int   `json:"store_states"`
	// ControlBytes is the memory of that exploration's control states
	// (nodes, keys, table, process components): (store_bytes +
	// control_bytes) / store_states is what a stored state costs in all.
	ControlBytes int64 `json:"control_bytes"`
	// Robust says the verdict was proved by robustness ("robust: every TSO
	// run is equivalent to an SC run"); absent when proved by the abstraction.
	Robust string `json:"robust,omitempty"`
	// NotMinimum: the fences are verified but not proved a minimum.
	NotMinimum bool `json:"not_minimum,omitempty"`
}

// New is the report of command (insert or verify) on sys with the result
// r: the fences in source order, each with its witness and the reordering
// it forbids, the removed fences, the alternatives, the trace of an
// sc-bug or unsafe verdict, what an insert stopped early knew, and the
// work done.
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
		if f.Kind == cs.StoreFence {
			fr.Kind = "store"
		}
		if ex := explainWitness(f.Witness); ex != nil {
			fr.Witness, fr.Reordering = ex.trace, ex.tracer.fenceReordering(f.Site.ID)
		}
		return fr
	}
	for _, f := range SourceOrder(r.Fences) {
		rep.Fences = append(rep.Fences, site(f))
	}
	for _, s := range r.Removed {
		rep.Removed = append(rep.Removed, site(cegar.Fence{Site: s}))
	}
	for _, alt := range r.Alternatives {
		var fs []Fence
		for _, f := range SourceOrder(alt) {
			fs = append(fs, site(f))
		}
		rep.Alternatives = append(rep.Alternatives, fs)
	}
	if p := r.Partial; p != nil {
		pr := &Partial{Verified: false, Phase: p.Phase, Fences: []Fence{}, LowerBound: p.LowerBound, Counterexamples: p.Counterexamples}
		for _, f := range p.Fences {
			pr.Fences = append(pr.Fences, site(f))
		}
		rep.Partial = pr
	}
	rep.Known = KnownOf(r.Known)
	rep.Trace = WitnessTrace(r.Trace)
	s := r.Stats
	rep.Stats = &Stats{K: s.K, Predicates: s.Predicates, Refinements: map[string]int{"predicates": s.Refinements.Predicates, "k": s.Refinements.K, "fences": s.Refinements.Fences}, States: s.States,
		Queries: s.Queries, QueriesInGo: s.QueriesInGo, Interpolations: s.Interpolations, TimeSeconds: s.Time.Seconds(), Robust: s.Robust, NotMinimum: s.NotMinimum,
		StoreBytes: s.StoreBytes, StoreStates: s.StoreStates, ControlBytes: s.ControlBytes}
	return rep
}

// SourceOrder returns fs in the order of their sites in the source (the
// order of site IDs, cs.System.Sites; a full fence before a store fence
// at the same site), as reports list fences: the engine lists a fence set
// by element, store fences after full ones (cegar.Options.StoreFences).
func SourceOrder(fs []cegar.Fence) []cegar.Fence {
	out := slices.Clone(fs)
	sort.SliceStable(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if a.Site.ID != b.Site.ID {
			return a.Site.ID < b.Site.ID
		}
		return a.Kind < b.Kind
	})
	return out
}

// WitnessTrace is the trace of w with the reorderings it depends on.
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

// PrintProof says how a verdict was proved when it was by robustness.
func PrintProof(w io.Writer, r *cegar.Result) {
	if r.Stats.Robust != "" {
		fmt.Fprintf(w, "proof: correct under SC, and %s\n", r.Stats.Robust)
	}
}

// ExploreReport is the report of fencer explore: the keys of Report, with
// the explicit checker's own stats.
type ExploreReport struct {
	Version int    `json:"version"`
	Command string `json:"command"`
	File    string `json:"file"`
	Verdict string `json:"verdict"`
	Model   string `json:"model"`
	Reason  string `json:"reason,omitempty"`
	// Warnings and Races are the reader's, as in Report.
	Warnings []string      `json:"warnings,omitempty"`
	Races    []races.Entry `json:"races,omitempty"`
	Fences   []Fence       `json:"fences"` // always empty: explore inserts none
	Trace    *Trace        `json:"trace,omitempty"`
	Stats    *ExploreStats `json:"stats"`
}

// ExploreStats is the work of fencer explore (the explicit-state checker).
type ExploreStats struct {
	States      int     `json:"states"` // distinct concrete states
	Depth       int     `json:"depth"`  // the deepest BFS level reached
	TimeSeconds float64 `json:"time_seconds"`
	StoreBytes  int64   `json:"store_bytes"` // the memory of the visited set (memmodel.Result.StoreBytes)
}

// Partial is what an insert that stopped early knew (cegar.Partial):
// the fences installed so far, a lower bound on every correct fence set,
// and how many counterexamples were found. Verified is always false: the
// program with these fences may have counterexamples the run did not
// reach.
type Partial struct {
	Verified        bool    `json:"verified"`
	Phase           string  `json:"phase"` // SC, TSO, PSO or final check
	Fences          []Fence `json:"fences"`
	LowerBound      int     `json:"lower_bound"`
	Counterexamples int     `json:"counterexamples"`
}

// FenceLine is a fence of a result as the summaries list it,
// "NAME:LINE: WHAT": WHAT is the site ("after x = 1;"), or "fence kept" for
// a fence of the source that stays (cegar.Options.Reconsider), after
// "fence store; " for a store fence.
func FenceLine(name string, sys *cs.System, f cegar.Fence) string {
	where := f.Site.Describe()
	if f.Site.Fence {
		where = "fence kept"
	}
	if f.Kind == cs.StoreFence {
		where = "fence store; " + where
	}
	return fmt.Sprintf("%s:%d: %s", name, sys.File.Line(f.Site.Pos()), where)
}

// PrintPartial writes what an insert on sys that stopped early knew
// (nothing when r has no Partial), marked as not verified.
func PrintPartial(w io.Writer, sys *cs.System, r *cegar.Result) {
	p := r.Partial
	if p == nil {
		return
	}
	switch {
	case p.Phase == "SC":
		fmt.Fprintf(w, "stopped during the SC check: no fence is known yet\n")
		return
	case len(p.Fences) == 0 && p.Counterexamples == 0:
		fmt.Fprintf(w, "stopped during the %s phase before any real counterexample was found: no fence is known to be needed (not verified)\n", p.Phase)
		return
	case len(p.Fences) == 0:
		fmt.Fprintf(w, "stopped during the %s phase after %s, with no fence set that blocks them (not verified)\n",
			p.Phase, plural(p.Counterexamples, "real counterexample"))
		return
	}
	fmt.Fprintf(w, "what was known when it stopped (%s phase; not verified):\n", p.Phase)
	fmt.Fprintf(w, "  %s installed so far, blocking the %s found; every correct fence set has at least %s:\n",
		plural(len(p.Fences), "fence"), plural(p.Counterexamples, "counterexample"), plural(p.LowerBound, "fence"))
	for _, f := range p.Fences {
		fmt.Fprintf(w, "    %s\n", FenceLine(sys.File.Name, sys, f))
	}
	if p.Phase == "final check" {
		fmt.Fprintf(w, "  the abstraction has no counterexample left with these fences, but the final check of the patched program did not finish\n")
	} else {
		fmt.Fprintf(w, "  other counterexamples may remain: the program with these fences was not verified\n")
	}
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
func NewExplore(sys *cs.System, m memmodel.Model, res *memmodel.Result, tr *Trace, elapsed time.Duration) *ExploreReport {
	rep := &ExploreReport{Version: Version, Command: "explore", File: sys.File.Name, Model: m.String(), Fences: []Fence{}, Trace: tr,
		Stats: &ExploreStats{States: res.States, Depth: res.Depth, TimeSeconds: elapsed.Seconds(), StoreBytes: res.StoreBytes}}
	switch res.Verdict {
	case memmodel.Safe:
		rep.Verdict = "correct"
	case memmodel.Unsafe:
		rep.Verdict = "unsafe"
		if !m.Layout().Buffered() {
			rep.Verdict = "sc-bug"
		}
	default:
		rep.Verdict, rep.Reason = "unknown", res.Reason
	}
	return rep
}
