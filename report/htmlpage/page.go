package htmlpage

import (
	"fmt"
	"html/template"
	"io"
	"path/filepath"
	"slices"
	"strings"

	"fencer/execgraph"
	"fencer/report"
)

// Page is one page: a title, the summary of the run, one section per
// witness, and the source with the lines the witnesses pass marked.
type Page struct {
	Title    string
	Summary  []string // lines: the verdict, the fences, the proof
	Sections []Section
	Source   []string // the input's lines
	Fenced   []int    // the lines next to which a fence or barrier goes
}

// Section is one witness: a run under a store-buffer model (Trace) or an
// execution under an axiomatic one (Graph), exactly one of them non-nil.
type Section struct {
	ID      string
	Heading string
	Notes   []string // what the witness shows, in words
	Trace   *report.Trace
	// Marked are the reorderings of Trace to mark: the one a fence
	// forbids (Fence true: its fence is drawn under the write), or those
	// a trace to a bad state depends on.
	Marked []report.Reordering
	Fence  bool
	Graph  *execgraph.Witness
	// Change is, for a graph, the line after which the change goes (or
	// the line of the access it raises; 0: none): the pair of the cycle's
	// program order it spans is marked.
	Change int
	// ChangeOrder: the change raises the access at line Change to
	// acquire or release (the po edges from or to it are marked), rather
	// than a barrier after it.
	ChangeOrder bool
}

// Steps is the number of elements that stand for a step or an event.
func (s *Section) Steps() int {
	if s.Trace != nil {
		return len(s.Trace.Steps)
	}
	if s.Graph != nil {
		return len(s.Graph.Events)
	}
	return 0
}

// FromReport is the page of a report of insert or verify under sc, tso or
// pso: a section for each fence with a witness and one for the trace to a
// bad state; src is the input's text.
func FromReport(rep *report.Report, src []byte) *Page {
	name := filepath.Base(rep.File)
	p := &Page{Title: fmt.Sprintf("fencer %s %s under %s: %s", rep.Command, name, strings.ToUpper(rep.Model), rep.Verdict), Source: Lines(src)}
	if rep.Reason != "" {
		p.Summary = append(p.Summary, "why: "+rep.Reason)
	}
	for i, f := range rep.Fences {
		what := "after"
		if f.Kind == "store" {
			what = "fence store; after"
		}
		head := fmt.Sprintf("fence %d of %d: %s:%d: %s %s", i+1, len(rep.Fences), name, f.Line, what, f.Statement)
		p.Fenced = append(p.Fenced, f.Line)
		if f.Witness == nil {
			p.Summary = append(p.Summary, head+" (for robustness only: no counterexample needs it)")
			continue
		}
		p.Summary = append(p.Summary, head)
		s := Section{ID: fmt.Sprintf("fence%d", i+1), Heading: head, Trace: f.Witness, Fence: true}
		if r := f.Reordering; r != nil {
			s.Notes = append(s.Notes, "forbids: "+r.Description)
			s.Marked = []report.Reordering{*r}
		}
		s.Notes = append(s.Notes, fmt.Sprintf("a run under %s that goes wrong without it (%d steps)", strings.ToUpper(f.Witness.Model), len(f.Witness.Steps)))
		p.Sections = append(p.Sections, s)
	}
	if tr := rep.Trace; tr != nil {
		s := Section{ID: "trace", Heading: fmt.Sprintf("a run under %s to a bad state (%d steps)", strings.ToUpper(tr.Model), len(tr.Steps)), Trace: tr, Marked: tr.Reorderings}
		switch {
		case len(tr.Reorderings) > 0:
			s.Notes = append(s.Notes, "it depends on these reorderings (a fence right after the write forbids each):")
			for _, r := range tr.Reorderings {
				s.Notes = append(s.Notes, "  "+r.Description)
			}
		case tr.Model == "sc":
			s.Notes = append(s.Notes, "a run under SC: no fence can prevent it")
		}
		p.Sections = append(p.Sections, s)
	}
	return p
}

// Lines splits src into its lines, as Page.Source holds them.
func Lines(src []byte) []string {
	s := strings.TrimRight(string(src), "\n")
	if s == "" {
		return nil
	}
	return strings.Split(s, "\n")
}

// Write writes the page.
func Write(w io.Writer, p *Page) error {
	v := view{Title: p.Title, Summary: p.Summary}
	hit := map[int]bool{}
	for _, s := range p.Sections {
		sv := sectionView{ID: s.ID, Heading: s.Heading, Notes: s.Notes, Steps: s.Steps()}
		switch {
		case s.Trace != nil:
			sv.Kind = "timeline"
			sv.SVG = timeline(s.ID, s.Trace, s.Marked, s.Fence)
			if pr := s.Trace.Property; pr != nil {
				sv.Property = "violated: " + pr.Description
			}
			for _, st := range s.Trace.Steps {
				hit[st.Line] = true
			}
		case s.Graph != nil:
			sv.Kind = "graph"
			g := newGraph(s.ID, s.Graph, s.Change, s.ChangeOrder)
			sv.SVG = g.scene()
			sv.Events = g.rows()
			if s.Graph.Property != "" {
				sv.Property = "violated: " + s.Graph.Property
			}
			sv.Cycle = g.cycleText()
			for _, e := range g.events {
				hit[e.line] = true
			}
		}
		v.Sections = append(v.Sections, sv)
	}
	for i, l := range p.Source {
		n := i + 1
		class := ""
		switch {
		case slices.Contains(p.Fenced, n):
			class = "fenced"
		case hit[n]:
			class = "hit"
		}
		v.Source = append(v.Source, srcLine{N: n, Text: l, Class: class})
	}
	return pageTemplate.Execute(w, v)
}

// view is what the template reads.
type view struct {
	Title    string
	Summary  []string
	Sections []sectionView
	Source   []srcLine
}

type sectionView struct {
	ID, Heading, Kind string
	Notes             []string
	Property          string
	Cycle             string
	Steps             int
	SVG               scene
	Events            []eventRow
}

type srcLine struct {
	N     int
	Text  string
	Class string
}

var pageTemplate = template.Must(template.New("page").Parse(pageHTML))

// The colours of the lanes (#eef1f5) and of what is marked (#c2002f: the
// pair a fence forbids, its place, the po edge a change orders) are used
// for nothing else: the browser test looks for them in a screenshot.
//
// The page is written so that it is also well-formed XML: void elements
// are closed ("<meta ... />"), html/template escapes to numeric
// references, and the CSS holds no '<', '>' or '&'.
const pageHTML = `<!DOCTYPE html>
<html xmlns="http://www.w3.org/1999/xhtml" lang="en">
<head>
<meta charset="utf-8" />
<title>{{.Title}}</title>
<style>` + css + `</style>
</head>
<body>
<h1>{{.Title}}</h1>
{{if .Summary}}<ul class="summary">{{range .Summary}}
<li>{{.}}</li>{{end}}
</ul>{{end}}
{{if .Sections}}<p class="toc">{{range .Sections}}<a href="#{{.ID}}">{{.Heading}}</a> {{end}}</p>{{end}}
{{range .Sections}}
<section class="witness {{.Kind}}" id="{{.ID}}" data-steps="{{.Steps}}">
<h2>{{.Heading}}</h2>
{{range .Notes}}<p class="note">{{.}}</p>
{{end}}{{if .Cycle}}<p class="note">{{.Cycle}}</p>
{{end}}{{if .Property}}<p class="property">{{.Property}}</p>
{{end}}<div class="scroll">
<svg xmlns="http://www.w3.org/2000/svg" width="{{.SVG.W}}" height="{{.SVG.H}}" viewBox="0 0 {{.SVG.W}} {{.SVG.H}}" class="{{.Kind}}">
<defs>
<marker id="{{.ID}}-arrow" viewBox="0 0 10 10" refX="9" refY="5" markerUnits="userSpaceOnUse" markerWidth="9" markerHeight="9" orient="auto"><path d="M0,0 L10,5 L0,10 z" class="arrowhead" /></marker>
</defs>
{{$id := .ID}}{{range .SVG.Groups}}<g class="{{.Class}}"{{if .ID}} id="{{.ID}}"{{end}}{{if .Step}} data-step="{{.Step}}"{{end}}>{{if .Title}}<title>{{.Title}}</title>{{end}}{{if .Line}}<a href="#L{{.Line}}">{{end}}{{range .Rects}}
<rect x="{{.X}}" y="{{.Y}}" width="{{.W}}" height="{{.H}}" rx="{{.R}}" class="{{.Class}}" />{{end}}{{range .Paths}}
<path d="{{.D}}" class="{{.Class}}"{{if .Arrow}} marker-end="url(#{{$id}}-arrow)"{{end}} />{{end}}{{range .Circles}}
<circle cx="{{.X}}" cy="{{.Y}}" r="{{.R}}" class="{{.Class}}" />{{end}}{{range .Texts}}
<text x="{{.X}}" y="{{.Y}}" class="{{.Class}}">{{.S}}</text>{{end}}{{if .Line}}</a>{{end}}
</g>
{{end}}</svg>
</div>
{{if .Events}}<table class="events">
<tr><th>event</th><th>process</th><th>access</th><th>at</th><th>statement</th><th>reads from</th></tr>
{{range .Events}}<tr><td>{{.ID}}</td><td>{{.Proc}}</td><td>{{.Access}}</td><td>{{.At}}</td><td><code>{{.Text}}</code></td><td>{{.From}}</td></tr>
{{end}}</table>
{{end}}</section>
{{end}}
{{if .Source}}<h2>source</h2>
<pre class="source">{{range .Source}}<span class="{{if .Class}}{{.Class}}{{else}}line{{end}}" id="L{{.N}}">{{printf "%4d" .N}}  {{.Text}}</span>
{{end}}</pre>{{end}}
</body>
</html>
`

const css = `
body { font-family: sans-serif; margin: 1.5em; color: #222; }
h1 { font-size: 1.3em; }
h2 { font-size: 1.1em; margin-top: 2em; }
.summary li, .note, .property { font-family: monospace; }
.property { color: #b00020; font-weight: bold; }
.toc a { margin-right: 1.5em; }
.scroll { overflow-x: auto; }
svg text { font-family: monospace; font-size: 11px; fill: #222; }
svg text.head { font-size: 13px; font-weight: bold; }
svg text.num { fill: #888; }
svg text.eff { fill: #555; }
svg text.mem { fill: #0b5394; }
svg text.mark { fill: #b00020; font-weight: bold; }
svg text.tag { fill: #ffffff; font-weight: bold; font-size: 10px; }
rect.tag { fill: #c2002f; }
svg text.rel { font-size: 10px; }
.lane { fill: #eef1f5; }
.step rect.box { fill: #ffffff; stroke: #9aa5b1; }
.step.flush rect.box { fill: #eef5ec; stroke: #6aa84f; }
.step.write rect.box { stroke: #3d85c6; }
.step.marked rect.box { stroke: #c2002f; stroke-width: 3; }
.step.last rect.box { fill: #fdecee; }
.buf rect { fill: #3d85c6; opacity: 0.55; }
.buf rect.open { opacity: 1; fill: #3d85c6; fill-opacity: 0.18; stroke: #3d85c6; stroke-dasharray: 3 2; }
.buf path { stroke: #3d85c6; fill: none; }
.buf circle { fill: #6aa84f; }
path.pair { stroke: #c2002f; stroke-width: 2; fill: none; }
path.fence { stroke: #c2002f; stroke-width: 2; stroke-dasharray: 6 3; fill: none; }
rect.property { fill: #fdecee; stroke: #b00020; }
.arrowhead { fill: context-stroke; }
.event rect.box { fill: #ffffff; stroke: #9aa5b1; }
.event.incycle rect.box { stroke: #b00020; stroke-width: 2; }
.init rect.box { fill: #f4f6f8; }
.edge path { fill: none; stroke-width: 1.5; }
.edge.po path { stroke: #444; }
.edge.rf path { stroke: #cc0000; }
.edge.co path { stroke: #3d85c6; }
.edge.fr path { stroke: #e69138; }
.edge.cycle path { stroke-width: 3; }
.edge.marked path { stroke: #c2002f; stroke-width: 4; stroke-dasharray: 8 3; }
.edge.rf text { fill: #cc0000; }
.edge.co text { fill: #3d85c6; }
.edge.fr text { fill: #e69138; }
table.events { border-collapse: collapse; font-size: 0.9em; margin-top: 0.5em; }
table.events td, table.events th { border: 1px solid #ccc; padding: 2px 8px; text-align: left; }
pre.source span.hit { background: #eef3fb; display: inline-block; width: 100%; }
pre.source span.fenced { background: #fdecee; display: inline-block; width: 100%; }
pre.source span.line { display: inline-block; width: 100%; }
pre.source span:target { background: #fff2a8; }
`
