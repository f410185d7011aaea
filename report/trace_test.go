package report

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"fencer/cs"
	"fencer/formats"
	"fencer/memmodel"
)

// shortestTrace explores sys under m with the explicit checker and returns
// a shortest trace to a bad state with its states, or nil.
func shortestTrace(t *testing.T, sys *cs.System, m memmodel.Model) (*memmodel.Trace, []*memmodel.State) {
	t.Helper()
	c := memmodel.NewConcrete(sys, m)
	res, err := c.Explore(context.Background(), memmodel.Limits{MaxStates: 200_000})
	if err != nil || res.Verdict != memmodel.Unsafe {
		return nil, nil
	}
	states, err := c.Replay(res.Trace)
	if err != nil {
		t.Fatalf("replay: %v", err)
	}
	return res.Trace, states
}

// On every benchmark and litmus test with a bad state reachable under SC,
// TSO or PSO, the rows of its shortest trace show no temporary, keep the
// buffers of the replayed state (each write with the line of its
// statement), show a flush for every flush step, and end with the
// violated property.
func TestTraceRowsOnBenchmarks(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join("..", "benchmarks", "*.cs"))
	for _, g := range []string{"litmus/*.cs", "litmus/x86/*.litmus", "rmm/*.rmm"} {
		more, _ := filepath.Glob(filepath.Join("..", "benchmarks", g))
		files = append(files, more...)
	}
	traces, reorderings := 0, 0
	for _, f := range files {
		sys, err := parseFile(f)
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		for _, m := range []memmodel.Model{memmodel.SC, memmodel.TSO, memmodel.PSO} {
			tr, states := shortestTrace(t, sys, m)
			if tr == nil {
				continue
			}
			traces++
			name := filepath.Base(f) + " " + m.String()
			rep := BuildTrace(sys, m, tr, states)
			checkRows(t, name, sys, m, tr, states, rep)
			reorderings += len(rep.Reorderings)
		}
	}
	if traces < 20 || reorderings < 20 {
		t.Errorf("only %d traces and %d reorderings checked", traces, reorderings)
	}
	t.Logf("%d traces, %d reorderings", traces, reorderings)
}

func checkRows(t *testing.T, name string, sys *cs.System, m memmodel.Model, tr *memmodel.Trace, states []*memmodel.State, rep *Trace) {
	t.Helper()
	flushes := 0
	for _, st := range tr.Steps {
		if st.IsFlush() {
			flushes++
		}
	}
	rowFlushes := 0
	for i, r := range rep.Steps {
		// The touched layout shows the cells the step touches and those
		// the property reads, and only the moving process's buffers.
		mem := rowMemory(rep, r, false)
		for v := range mem {
			if !slices.Contains(r.touched, v) && (rep.Property == nil || !slices.Contains(rep.Property.reads, v)) {
				t.Errorf("%s: row %d shows %s, which it does not touch: %+v", name, r.Step, v, r)
			}
		}
		for _, v := range r.touched {
			if _, ok := mem[v]; !ok {
				t.Errorf("%s: row %d does not show %s, which it touches", name, r.Step, v)
			}
		}
		if (r.Action == "read" || r.Action == "write" || r.Action == "flush") && !slices.Equal(r.touched, []string{r.Variable}) {
			t.Errorf("%s: row %d touches %v, its variable is %s", name, r.Step, r.touched, r.Variable)
		}
		for _, b := range rowBuffers(r, false) {
			if b.Process != r.Process {
				t.Errorf("%s: row %d of %s shows the buffer of %s", name, r.Step, r.Process, b.Process)
			}
		}
		if r.Step != i+1 {
			t.Errorf("%s: row %d numbered %d", name, i+1, r.Step)
		}
		if strings.HasSuffix(name, ".cs "+m.String()) && (strings.Contains(r.Statement, "$") || strings.Contains(r.Effect, "$")) {
			t.Errorf("%s: row %d shows a temporary: %+v", name, r.Step, r)
		}
		if r.Line <= 0 || r.Statement == "" || r.Effect == "" {
			t.Errorf("%s: row %d lacks its source: %+v", name, r.Step, r)
		}
		if r.Action == "flush" {
			rowFlushes++
		}
		if strings.Contains(r.Effect, "assume true") || r.Effect == "condition true" && strings.HasPrefix(r.Statement, "while (true)") {
			t.Errorf("%s: row %d for a trivially true condition: %+v", name, r.Step, r)
		}
		for _, b := range r.Buffers {
			for _, w := range b.Writes {
				if w.Line <= 0 {
					t.Errorf("%s: row %d: buffered write %s=%d without its line (mirror out of step)", name, r.Step, w.Variable, w.Value)
				}
				if m == memmodel.PSO && w.Variable != b.Variable {
					t.Errorf("%s: row %d: PSO buffer of %s holds %s", name, r.Step, b.Variable, w.Variable)
				}
			}
		}
		if m == memmodel.SC && len(r.Buffers) > 0 {
			t.Errorf("%s: buffers under SC", name)
		}
	}
	if rowFlushes != flushes {
		t.Errorf("%s: %d flush rows for %d flush steps", name, rowFlushes, flushes)
	}
	// The last row's buffers and memory are those of the last state.
	last := states[len(states)-1]
	c := memmodel.NewConcrete(sys, m)
	if n := len(rep.Steps); n > 0 {
		r := rep.Steps[n-1]
		for x := 0; x < c.NumShared(); x++ {
			if r.Memory[c.Name(x)] != last.Vals[x] {
				t.Errorf("%s: memory %s = %d, state has %d", name, c.Name(x), r.Memory[c.Name(x)], last.Vals[x])
			}
		}
		total := 0
		for _, b := range r.Buffers {
			total += len(b.Writes)
		}
		want := 0
		for p := range sys.Procs {
			want += len(c.Buffered(last, p))
		}
		if total != want {
			t.Errorf("%s: %d buffered writes shown, state has %d", name, total, want)
		}
	}
	if rep.Property == nil || rep.Property.Description == "" {
		t.Errorf("%s: no violated property", name)
	}
	checkReorderings(t, name, m, rep)
}

// checkReorderings checks each reordering of a trace against its rows
// (checkReordering). Under SC there is none.
func checkReorderings(t *testing.T, name string, m memmodel.Model, rep *Trace) {
	t.Helper()
	if m == memmodel.SC && len(rep.Reorderings) > 0 {
		t.Errorf("%s: reorderings under SC: %+v", name, rep.Reorderings)
	}
	for _, r := range rep.Reorderings {
		checkReordering(t, name, m, rep, r)
	}
}

// holds reports whether process p's buffers after row step (1-based; 0:
// the initial state, empty) hold the write of row w.
func holds(tr *Trace, step int, p string, w Step) bool {
	if step < 1 {
		return false
	}
	for _, b := range tr.Steps[step-1].Buffers {
		for _, bw := range b.Writes {
			if b.Process == p && bw.Variable == w.Variable && bw.Value == *w.Value && bw.Line == w.Line {
				return true
			}
		}
	}
	return false
}

// checkReordering checks that r describes a reordering that the trace tr
// contains, using only the rows (their buffers and flushes), not the
// tracer that found it: the write is a write row of the process, still in
// its buffer just before the later step of the same process; the later
// step is a read of another variable not served by the buffer (the write
// is still buffered when it happens), or under PSO a write of another
// variable that reaches memory (its flush row) while the first write is
// still buffered; or, for write-other, a later step of the process before
// which the write is still buffered. The flush rows named are flushes of
// the process of those variables, in that order.
func checkReordering(t *testing.T, name string, m memmodel.Model, tr *Trace, r Reordering) {
	t.Helper()
	if r.Write.Step < 1 || r.Later.Step <= r.Write.Step || r.Later.Step > len(tr.Steps) {
		t.Errorf("%s: reordering steps %+v", name, r)
		return
	}
	w, l := tr.Steps[r.Write.Step-1], tr.Steps[r.Later.Step-1]
	if w.Action != "write" || w.Process != r.Process || l.Process != r.Process || (r.Kind != "write-other" && l.Variable == w.Variable) {
		t.Errorf("%s: reordering %q: rows %+v / %+v", name, r.Description, w, l)
		return
	}
	if !holds(tr, r.Later.Step-1, r.Process, w) {
		t.Errorf("%s: reordering %q: the write is not buffered before step %d", name, r.Description, r.Later.Step)
	}
	flushOf := func(step int, of Step) bool {
		if step < 1 || step > len(tr.Steps) {
			return false
		}
		f := tr.Steps[step-1]
		return f.Action == "flush" && f.Process == r.Process && f.Variable == of.Variable && *f.Value == *of.Value
	}
	if r.FlushedAt != 0 && (!flushOf(r.FlushedAt, w) || r.FlushedAt <= r.Later.Step) {
		t.Errorf("%s: reordering %q: step %d is not the write's flush after step %d", name, r.Description, r.FlushedAt, r.Later.Step)
	}
	switch {
	case r.Kind == "write-read" && l.Action == "read" && !l.OwnBuffer:
	case r.Kind == "write-write" && l.Action == "write" && m == memmodel.PSO:
		// The later write reaches memory while the first is buffered.
		if !flushOf(r.LaterFlush, l) || r.LaterFlush <= r.Later.Step || !holds(tr, r.LaterFlush, r.Process, w) {
			t.Errorf("%s: reordering %q: the later write does not reach memory first (later flush at step %d)", name, r.Description, r.LaterFlush)
		}
		if !strings.Contains(r.Description, "which reaches memory first") {
			t.Errorf("%s: description %q", name, r.Description)
		}
	case r.Kind == "write-other":
		if !strings.Contains(r.Description, "may still be in its store buffer when") {
			t.Errorf("%s: description %q", name, r.Description)
		}
		return
	default:
		t.Errorf("%s: reordering %q of kind %s: the later step is %s", name, r.Description, r.Kind, l.Effect)
	}
	if !strings.Contains(r.Description, "is still in its store buffer when") || !strings.HasPrefix(r.Description, r.Process+"'s write ") {
		t.Errorf("%s: description %q", name, r.Description)
	}
}

// A program with every kind of step: a goto, a label on skip, a while
// (true), if (*), r = *, an atomic block with a failing assert, cas on
// both paths, and a for loop; checked on every shortest trace of its bad
// states.
func TestTraceRowsEveryStatement(t *testing.T) {
	src := `shared x, y, l;
process A {
  local r, s;
  while (true) {
    if (*) { x = 1; } else { x = 2; }
    r = *;
    s = cas(l, 0, 1);
    if (s == 1) { goto out; }
  }
out: skip;
  y = r;
  atomic { r = y; s = x; assert(r != 5 || s != 1); }
}
process B {
  local t;
  for (k in 0..1) { t = fetch_add(l, 1); }
  t = cas(l, 7, 0);
  assume(t == 0);
b: skip;
}
forbidden B@b, A@out;
`
	sys, err := cs.Parse("every.cs", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range []memmodel.Model{memmodel.SC, memmodel.TSO, memmodel.PSO} {
		tr, states := shortestTrace(t, sys, m)
		if tr == nil {
			t.Fatalf("%s: no trace", m)
		}
		rep := BuildTrace(sys, m, tr, states)
		checkRows(t, "every.cs "+m.String(), sys, m, tr, states, rep)
		var text strings.Builder
		PrintTrace(&text, "every.cs", rep, Layout{})
		out := text.String()
		if !strings.Contains(out, "violated: ") {
			t.Errorf("%s: no violated line:\n%s", m, out)
		}
	}
	// The atomic assert: make it the only bad state by a program without
	// forbidden.
	src2 := strings.Replace(strings.Replace(src, "forbidden B@b, A@out;\n", "", 1), "assume(t == 0);", "assume(t == 1);", 1)
	sys, err = cs.Parse("every.cs", []byte(src2))
	if err != nil {
		t.Fatal(err)
	}
	tr, states := shortestTrace(t, sys, memmodel.SC)
	if tr == nil {
		t.Fatal("no trace to the atomic assert")
	}
	rep := BuildTrace(sys, memmodel.SC, tr, states)
	p := rep.Property
	if p == nil || p.Kind != "assert" || p.Text != "assert(r != 5 || s != 1);" || !strings.Contains(p.Description, "A: assert(r != 5 || s != 1) fails (line 12) with r = 5, s = 1") {
		t.Errorf("property %+v", p)
	}
	lastRow := rep.Steps[len(rep.Steps)-1]
	if lastRow.Action != "atomic" || !strings.Contains(lastRow.Effect, "read y = 5, read x = 1") || !strings.HasSuffix(lastRow.Effect, "assertion fails") {
		t.Errorf("last row %+v", lastRow)
	}
}

// parseFile reads the program of the file path in the format of its
// extension.
func parseFile(path string) (*cs.System, error) {
	src, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	sys, _, err := formats.ByExtension(path).Parse(path, src, nil)
	return sys, err
}
