package refsem

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// expectation is one "// refsem: MODEL WHAT" or "// fencer: expect MODEL WHAT"
// line: WHAT is safe, bug (wrong under SC) or fences=N.
type expectation struct {
	model  Model
	bug    bool
	fences int // -1 with bug
}

var expectRx = regexp.MustCompile(`(?m)^//\s*(?:refsem:|fencer:\s*expect)\s+(sc|tso|pso)\s+(safe|bug|fences=(\d+))\s*$`)

func expectations(t *testing.T, src []byte) []expectation {
	var out []expectation
	for _, m := range expectRx.FindAllSubmatch(src, -1) {
		model, err := ParseModel(string(m[1]))
		if err != nil {
			t.Fatal(err)
		}
		e := expectation{model: model}
		switch {
		case string(m[2]) == "safe":
		case string(m[2]) == "bug":
			e.bug, e.fences = true, -1
		default:
			e.fences, _ = strconv.Atoi(string(m[3]))
		}
		out = append(out, e)
	}
	return out
}

// checkFile runs every expectation of one program: a bug must be reachable
// under SC (and so under every model); otherwise the program is safe under
// SC and MinFences gives exactly the expected count.
func checkFile(t *testing.T, path string) {
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	exps := expectations(t, src)
	if len(exps) == 0 {
		t.Fatalf("%s: no expectation", path)
	}
	p, err := Compile(path, src)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	for _, e := range exps {
		if e.bug {
			for _, m := range []Model{SC, TSO, PSO} {
				res, err := p.Run(m, Options{})
				if err != nil || !res.Bad {
					t.Errorf("%s: %s: want a bad state, got %+v %v", path, m, res, err)
				}
			}
			continue
		}
		res, err := p.Run(SC, Options{})
		if err != nil || res.Bad || !res.Complete {
			t.Errorf("%s: sc: want safe, got %+v %v", path, res, err)
			continue
		}
		sites, ok, err := p.MinFences(e.model, 0, 40)
		if err != nil || !ok {
			t.Errorf("%s: %s: brute force failed: ok=%v %v", path, e.model, ok, err)
			continue
		}
		if len(sites) != e.fences {
			t.Errorf("%s: %s: %d fences at %v, want %d", path, e.model, len(sites), sites, e.fences)
		}
	}
}

// The litmus programs of testdata, each with its expected outcomes.
func TestLitmus(t *testing.T) {
	files, _ := filepath.Glob("testdata/*.cs")
	if len(files) < 10 {
		t.Fatalf("only %d programs in testdata", len(files))
	}
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) { checkFile(t, f) })
	}
}

// The regression programs about labels, with the verdicts of their
// "// fencer: expect" lines, and the benchmarks that are loop-free.
func TestRegressions(t *testing.T) {
	files, _ := filepath.Glob("../../benchmarks/regressions/*label*.cs")
	if len(files) < 6 { // 6 when this was written
		t.Fatalf("%d label regressions in ../../benchmarks/regressions, want at least 6", len(files))
	}
	for _, name := range []string{"sb", "sb_procs", "mp", "mp_array", "lb", "sc_bug", "spinlock_cas"} {
		files = append(files, filepath.Join("..", "..", "benchmarks", name+".cs"))
	}
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) { checkFile(t, f) })
	}
}

// A fence after a write is a run-time choice by site offset; the site of a
// template serves all its instances.
func TestSitesAndFences(t *testing.T) {
	src := []byte("shared x, y;\nprocess P[i in 0..1] { local r; for (k in 0..1) x = k; y = 1; r = swap(x, 2); atomic { x = 3; } }\n")
	p, err := Compile("t.cs", src)
	if err != nil {
		t.Fatal(err)
	}
	var texts []string
	for _, s := range p.Sites() {
		if s.AfterWrite {
			texts = append(texts, s.Text)
		}
	}
	if got, want := strings.Join(texts, "|"), "x = k;|y = 1;"; got != want {
		t.Errorf("sites %q, want %q", got, want)
	}
	sb := []byte("shared x, y;\nprocess A { local r; x = 1; r = y; assume(r == 0); a: skip; }\nprocess B { local r; y = 1; r = x; assume(r == 0); b: skip; }\nforbidden A@a, B@b;\n")
	x1 := strings.Index(string(sb), "x = 1;")
	y1 := strings.Index(string(sb), "y = 1;")
	for _, c := range []struct {
		fences []int
		bad    bool
	}{{nil, true}, {[]int{x1}, true}, {[]int{y1}, true}, {[]int{x1, y1}, false}} {
		res, err := Check(sb, "tso", c.fences...)
		if err != nil || res.Bad != c.bad || !res.Complete {
			t.Errorf("tso with fences at %v: %+v %v, want bad=%v", c.fences, res, err, c.bad)
		}
	}
	res, err := Check(sb, "tso")
	if err != nil || len(res.Trace) == 0 {
		t.Fatalf("no trace: %+v %v", res, err)
	}
	if !strings.Contains(strings.Join(res.Trace, "\n"), "read y = 0") {
		t.Errorf("trace does not show the read of y:\n%s", strings.Join(res.Trace, "\n"))
	}
}

// An initial bad state has an empty trace; a "*" makes answers bounded.
func TestInitialAndBounded(t *testing.T) {
	res, err := Check([]byte("process A { cs: skip; } process B { cs: skip; } mutex cs;"), "sc")
	if err != nil || !res.Bad || len(res.Trace) != 0 {
		t.Errorf("initial bad state: %+v %v", res, err)
	}
	res, err = Check([]byte("shared y = *; process A { local r; r = y; assert(r != 5); }"), "sc")
	if err != nil || !res.Bad {
		t.Errorf("y = * should include 5: %+v %v", res, err)
	}
	res, err = Check([]byte("shared y = *; process A { local r; r = y; assert(r != 12345); }"), "sc")
	if err != nil || !res.Bad {
		t.Errorf("y = * should include the program's constants: %+v %v", res, err)
	}
	res, err = Check([]byte("process A { local r; r = *; assert(r == r); }"), "sc")
	if err != nil || res.Bad || res.Complete {
		t.Errorf("r = * gives a bounded answer: %+v %v", res, err)
	}
}

// Programs that are not valid are errors, never verdicts.
func TestErrors(t *testing.T) {
	for _, src := range []string{
		"shared x; process A { local r; r = z; }",                        // undefined
		"shared x, a[2]; process A { local r; r = a[x]; }",               // index not constant
		"shared a[2]; process A { a[2] = 1; }",                           // out of range
		"shared x; process A { goto L; }",                                // no label
		"shared x; process A { cs: skip; } mutex cs;",                    // one process
		"shared x; process A { cs: skip; } forbidden A@nope;",            // no label
		"shared x; process A { cs: skip; } forbidden B@cs;",              // no process
		"shared x; process A { local r; r = x / r; }",                    // non-constant divisor
		"const N = 2; shared x; process A { local r; r = x % (N - 2); }", // division by zero
	} {
		if _, err := Compile("e.cs", []byte(src)); err == nil {
			t.Errorf("%s: no error", src)
		}
	}
}

// Arithmetic is C's: division truncates toward zero.
func TestArithmetic(t *testing.T) {
	src := "process A { local a, b, c; a = -7; b = a / 2; c = a % 2; assert(b == -3 && c == -1 && (1 < 2) + (2 <= 2) + !0 == 3); }"
	res, err := Check([]byte(src), "sc")
	if err != nil || res.Bad || !res.Complete {
		t.Errorf("%+v %v", res, err)
	}
}

// Names resolve innermost first: for index, local, shared, const; a forbidden
// line names template instances by a constant index.
func TestNames(t *testing.T) {
	src := `const N = 2;
shared x, y, a[N];
process P[i in 0..N-1] {
  local r, y;
  y = 3;
  for (i in 5..5) { r = i; }
  assert(r == 5);
  a[i] = i + 1;
  r = a[i];
  assert(r == i + 1);
  x = N;
  r = x;
  assert(r == 2);
  done: skip;
}
forbidden P[N-1]@done, P[0]@done;
`
	p, err := Compile("names.cs", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, s := range p.Sites() {
		if s.AfterWrite {
			n++
		}
	}
	if n != 2 {
		t.Errorf("%d sites after writes, want 2 (a[i] = i + 1 and x = N; the local y hides the shared one)", n)
	}
	res, err := Check([]byte(src), "sc")
	if err != nil || !res.Bad || !res.Complete {
		t.Fatalf("both at done should be reachable: %+v %v", res, err)
	}
	if last := res.Trace[len(res.Trace)-1]; !strings.Contains(last, "P[") {
		t.Errorf("trace steps should name the instances: %q", last)
	}
	res, err = Check([]byte(strings.Replace(src, "forbidden P[N-1]@done, P[0]@done;", "", 1)), "pso")
	if err != nil || res.Bad || !res.Complete {
		t.Errorf("the asserts hold under PSO: %+v %v", res, err)
	}
}

// Two successors of one state write to copies of its buffer: neither may
// see the other's write, whatever the spare capacity of the slice.
func TestWriteDoesNotShareBuffers(t *testing.T) {
	for _, m := range []Model{TSO, PSO} {
		r := &runner{m: m}
		s := state{mem: []int64{0, 0}, buf: [][]entry{make([]entry, 1, 8)}}
		a, b := s, s
		a.ownBuf()
		b.ownBuf()
		r.write(&a, 0, 1, 1)
		r.write(&b, 0, 1, 2)
		if a.buf[0][1] != (entry{v: 1, val: 1}) || b.buf[0][1] != (entry{v: 1, val: 2}) {
			t.Errorf("%s: buffers %v and %v", m, a.buf[0], b.buf[0])
		}
	}
}

// The litmus corpus (benchmarks/litmus): refsem, which shares
// no code with fencer, must find the published outcome of every test and
// the fence counts of its "// fencer: expect" lines.
func TestLitmusCorpus(t *testing.T) {
	files, _ := filepath.Glob("../../benchmarks/litmus/*.cs")
	if len(files) < 32 { // 32 when this was written
		t.Fatalf("%d tests in ../benchmarks/litmus, want at least 32", len(files))
	}
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) { checkFile(t, f) })
	}
}
