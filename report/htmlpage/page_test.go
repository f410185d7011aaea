package htmlpage

import (
	"bytes"
	"context"
	"encoding/xml"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"fencer/cs"
	"fencer/execgraph"
	"fencer/formats"
	"fencer/memmodel"
	"fencer/report"
)

// elem is an element of a parsed page: its name, attributes and children.
type elem struct {
	name     string
	attr     map[string]string
	children []*elem
}

func (e *elem) classes() []string { return strings.Fields(e.attr["class"]) }

func (e *elem) has(class string) bool {
	for _, c := range e.classes() {
		if c == class {
			return true
		}
	}
	return false
}

// all lists e and its descendants in document order.
func (e *elem) all() []*elem {
	out := []*elem{e}
	for _, c := range e.children {
		out = append(out, c.all()...)
	}
	return out
}

// parsePage parses a page as XML, strictly: an error is a page that is
// not well-formed.
func parsePage(b []byte) (*elem, error) {
	d := xml.NewDecoder(bytes.NewReader(b))
	d.Strict = true
	root := &elem{name: "#document"}
	stack := []*elem{root}
	for {
		tok, err := d.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
		switch t := tok.(type) {
		case xml.StartElement:
			e := &elem{name: t.Name.Local, attr: map[string]string{}}
			for _, a := range t.Attr {
				e.attr[a.Name.Local] = a.Value
			}
			top := stack[len(stack)-1]
			top.children = append(top.children, e)
			stack = append(stack, e)
		case xml.EndElement:
			stack = stack[:len(stack)-1]
		}
	}
	if len(stack) != 1 {
		return nil, fmt.Errorf("%d elements not closed", len(stack)-1)
	}
	return root, nil
}

// checkPage parses the page of p and checks that it is well-formed, has
// no script, and that each section has one element per step (or event),
// numbered in order, with the marked steps and the property shown.
func checkPage(t *testing.T, name string, p *Page) {
	t.Helper()
	var b bytes.Buffer
	if err := Write(&b, p); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	root, err := parsePage(b.Bytes())
	if err != nil {
		t.Fatalf("%s: the page is not well-formed: %v", name, err)
	}
	var sections []*elem
	for _, e := range root.all() {
		switch {
		case e.name == "script":
			t.Errorf("%s: the page has a script", name)
		case e.name == "section" && e.has("witness"):
			sections = append(sections, e)
		}
	}
	if len(sections) != len(p.Sections) {
		t.Fatalf("%s: %d sections on the page, want %d", name, len(sections), len(p.Sections))
	}
	for i, se := range sections {
		s := p.Sections[i]
		var steps, marked, violated, lanes int
		for _, e := range se.all() {
			switch {
			case e.name == "g" && (e.has("step") || e.has("event")):
				steps++
				if n, _ := strconv.Atoi(e.attr["data-step"]); n != steps {
					t.Errorf("%s: section %s: element %d has data-step %q", name, s.ID, steps, e.attr["data-step"])
				}
				if e.has("marked") {
					marked++
				}
			case e.name == "g" && e.has("violated"):
				violated++
			case e.name == "rect" && e.has("lane"):
				lanes++
			case e.name == "g" && e.has("edge") && e.has("marked"):
				marked++
			}
		}
		if steps != s.Steps() || se.attr["data-steps"] != strconv.Itoa(s.Steps()) {
			t.Errorf("%s: section %s: %d step elements (data-steps %s), want %d", name, s.ID, steps, se.attr["data-steps"], s.Steps())
		}
		if lanes == 0 {
			t.Errorf("%s: section %s: no lane", name, s.ID)
		}
		switch {
		case s.Trace != nil:
			if len(s.Marked) > 0 && marked == 0 {
				t.Errorf("%s: section %s: %d reorderings and no step marked", name, s.ID, len(s.Marked))
			}
			if (s.Trace.Property != nil) != (violated == 1) {
				t.Errorf("%s: section %s: property %v, %d violated boxes", name, s.ID, s.Trace.Property, violated)
			}
		case s.Graph != nil:
			if len(s.Graph.Cycle) > 0 && marked == 0 {
				t.Errorf("%s: section %s: a cycle and no po edge marked", name, s.ID)
			}
		}
	}
}

func parseFile(t *testing.T, path string) *cs.System {
	t.Helper()
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	sys, _, err := formats.ByExtension(path).Parse(path, src, nil)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return sys
}

func glob(t *testing.T, patterns ...string) []string {
	var files []string
	for _, p := range patterns {
		more, err := filepath.Glob(filepath.Join("..", "..", "benchmarks", p))
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, more...)
	}
	return files
}

// On the shortest trace to a bad state of every benchmark and x86 litmus
// test under sc, tso and pso, the page is well-formed with one step
// element per row of the trace, each buffered write drawn once, and the
// reorderings marked, as a trace to a bad state and as a fence's witness.
func TestTimelinePages(t *testing.T) {
	pages, bars := 0, 0
	for _, f := range glob(t, "*.cs", "litmus/*.cs", "litmus/x86/*.litmus", "rmm/*.rmm") {
		sys := parseFile(t, f)
		for _, m := range []memmodel.Model{memmodel.SC, memmodel.TSO, memmodel.PSO} {
			c := memmodel.NewConcrete(sys, m)
			res, err := c.Explore(context.Background(), memmodel.Limits{MaxStates: 100_000})
			if err != nil || res.Verdict != memmodel.Unsafe {
				continue
			}
			states, err := c.Replay(res.Trace)
			if err != nil {
				t.Fatalf("%s %s: replay: %v", f, m, err)
			}
			tr := report.BuildTrace(sys, m, res.Trace, states)
			p := &Page{Title: f, Source: Lines(sys.File.Src), Sections: []Section{{ID: "trace", Heading: "trace", Trace: tr, Marked: tr.Reorderings}}}
			if len(tr.Reorderings) > 0 {
				p.Sections = append(p.Sections, Section{ID: "fence1", Heading: "fence", Trace: tr, Marked: tr.Reorderings[:1], Fence: true})
			}
			name := fmt.Sprintf("%s %s", filepath.Base(f), m)
			checkPage(t, name, p)
			pages++
			// Each write to a buffer is one bar, from its step to its flush.
			writes := 0
			for _, s := range tr.Steps {
				if s.Action == "write" && m != memmodel.SC {
					writes++
				}
			}
			bs := bufferBars(tr)
			if len(bs) != writes {
				t.Errorf("%s: %d bars for %d buffered writes", name, len(bs), writes)
			}
			for _, b := range bs {
				if b.to != 0 && (tr.Steps[b.to-1].Action != "flush" || tr.Steps[b.to-1].Variable != b.variable || *tr.Steps[b.to-1].Value != b.value || b.to <= b.from) {
					t.Errorf("%s: bar %+v ends at step %+v", name, b, tr.Steps[b.to-1])
				}
				bars++
			}
		}
	}
	if pages < 20 || bars < 20 {
		t.Errorf("only %d pages and %d bars checked", pages, bars)
	}
	t.Logf("%d pages, %d buffered writes", pages, bars)
}

// On the AArch64 and RISC-V litmus tests with a bad execution, the page of
// its graph is well-formed with one element per event and the cycle's
// edges drawn.
func TestGraphPages(t *testing.T) {
	pages := 0
	for _, f := range glob(t, "litmus/arm/*.litmus", "litmus/riscv/*.litmus") {
		sys := parseFile(t, f)
		m := memmodel.ARM
		if strings.Contains(f, "riscv") {
			m = memmodel.RISCV
		}
		ex, err := execgraph.New(context.Background(), sys, m, execgraph.Options{})
		if err != nil {
			continue
		}
		res, err := ex.Check(context.Background(), execgraph.Changes{})
		if err != nil || res.Verdict != execgraph.Bad {
			continue
		}
		w := ex.Witness(res.Witness, report.StatementText(sys))
		p := &Page{Title: f, Source: Lines(sys.File.Src), Sections: []Section{{ID: "execution", Heading: "execution", Graph: w}}}
		checkPage(t, filepath.Base(f), p)
		if w.Property == "" {
			t.Errorf("%s: the witness names no property", f)
		}
		// Every edge of the cycle is drawn, as a cycle edge.
		g := newGraph("x", w, 0, false)
		for _, c := range w.Cycle {
			found := false
			for _, e := range g.edges {
				found = found || e.from == c.From && e.to == c.To && e.rel == c.Rel && e.cycle
			}
			if !found {
				t.Errorf("%s: cycle edge %+v not drawn", f, c)
			}
		}
		pages++
	}
	if pages < 10 {
		t.Errorf("only %d graphs checked", pages)
	}
	t.Logf("%d graphs", pages)
}

// A page never panics on what a report may hold: no steps, a flush with
// no write before it, events whose ids are not their places, edges to
// ids the witness does not have.
func TestOddWitnesses(t *testing.T) {
	one := int64(1)
	tr := &report.Trace{Model: "tso", Steps: []report.Step{
		{Step: 1, Process: "P", Action: "flush", Variable: "x", Value: &one},
		{Step: 2, Process: "Q", Action: "write", Variable: "y", Value: &one},
	}}
	bad := []report.Reordering{{Process: "R", Write: report.StepRef{Step: 9}, Later: report.StepRef{Step: 1}}}
	w := &execgraph.Witness{Model: "arm",
		Events: []execgraph.WEvent{{ID: 5, Proc: "P0", Kind: "W", Var: "x", Value: 1, At: "f"}, {ID: 7, Proc: "P1", Kind: "R", Var: "x", At: "f:3:1"}},
		RF:     []execgraph.WEdge{{From: -1, To: 7, Rel: "rf"}, {From: 3, To: 8, Rel: "rf"}},
		CO:     map[string][]int{"x": {5, 42}},
		Cycle:  []execgraph.WEdge{{From: 5, To: 99, Rel: "po"}, {From: 99, To: 5, Rel: "fr"}},
	}
	p := &Page{Title: "odd", Sections: []Section{
		{ID: "empty", Trace: &report.Trace{Model: "pso"}},
		{ID: "t", Trace: tr, Marked: bad, Fence: true},
		{ID: "g", Graph: w, Change: 3},
		{ID: "none", Graph: &execgraph.Witness{}},
	}}
	var b bytes.Buffer
	if err := Write(&b, p); err != nil {
		t.Fatal(err)
	}
	root, err := parsePage(b.Bytes())
	if err != nil {
		t.Fatalf("not well-formed: %v", err)
	}
	steps := 0
	for _, e := range root.all() {
		if e.name == "g" && (e.has("step") || e.has("event")) {
			steps++
		}
	}
	if steps != 4 {
		t.Errorf("%d step and event elements, want 4", steps)
	}
}
