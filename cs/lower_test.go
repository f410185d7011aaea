package cs

import (
	"fmt"
	"strings"
	"testing"
)

// TestStatements has one or more rows for every row of the statement table
// of LANGUAGE.md; each body runs in process Main with shared x, y, a[2] and
// locals r, s.
func TestStatements(t *testing.T) {
	tests := []struct {
		name, body string
		want       []string
	}{
		// x = e with x shared: a write, a site.
		{"write", "x = 1;", []string{"0 -> 1: write x := 1"}},
		{"write local expr", "x = r + 1;", []string{"0 -> 1: write x := (r + 1)"}},
		{"write of a read", "y = x;", []string{"0 -> 1: $0 := read x", "1 -> 2: write y := $0"}},
		{"write two reads", "x = x + x;", []string{"0 -> 1: $0 := read x", "1 -> 2: $1 := read x", "2 -> 3: write x := ($0 + $1)"}},
		{"write element", "a[1] = a[0];", []string{"0 -> 1: $0 := read a[0]", "1 -> 2: write a[1] := $0"}},
		{"write havoc", "x = *;", []string{"0 -> 1: $0 := *", "1 -> 2: write x := $0"}},
		// r = e with r local.
		{"assign", "r = s + 2;", []string{"0 -> 1: r := (s + 2)"}},
		{"assign read", "r = x;", []string{"0 -> 1: r := read x"}},
		{"assign read paren", "r = (a[1]);", []string{"0 -> 1: r := read a[1]"}},
		{"assign read expr", "r = x + 1;", []string{"0 -> 1: $0 := read x", "1 -> 2: r := ($0 + 1)"}},
		{"assign bool", "r = r < s;", []string{"0 -> 1: r := ((r < s) ? 1 : 0)"}},
		{"assign not", "r = !r;", []string{"0 -> 1: r := (!(r != 0) ? 1 : 0)"}},
		{"assign true false", "r = true; s = false;", []string{"0 -> 1: r := 1", "1 -> 2: s := 0"}},
		{"assign div mod", "r = x / 2; s = -r % 3;", []string{"0 -> 1: $0 := read x", "1 -> 2: r := ($0 / 2)", "2 -> 3: s := (-r % 3)"}},
		{"precedence const", "r = 1 + 2 * 3 - 4 / 2 + -7 / 2 + -7 % 2;", []string{"0 -> 1: r := 1"}},
		{"precedence", "r = s + r * 2 < 3 || s == 1 && r != 2;",
			[]string{"0 -> 1: r := ((((s + (r * 2)) < 3) || ((s == 1) && (r != 2))) ? 1 : 0)"}},
		// r = *.
		{"havoc", "r = *;", []string{"0 -> 1: r := *"}},
		// assume.
		{"assume", "assume(x == 1);", []string{"0 -> 1: $0 := read x", "1 -> 2: assume ($0 == 1)"}},
		{"assume int", "assume(r);", []string{"0 -> 1: assume (r != 0)"}},
		// assert.
		{"assert", "assert(x == r);", []string{"0 -> 1: $0 := read x", "1 -> 2: assume ($0 == r)", "1 -> E: assume !($0 == r)"}},
		// fence, skip, ;
		{"fence", "fence;", []string{"0 -> 1: fence"}},
		{"skip", "skip; ;", nil},
		// atomic.
		{"atomic", "atomic { r = x; x = r + 1; }", []string{"0 -> 1: atomic { r := read x; write x := (r + 1) }"}},
		{"atomic if", "atomic { if (x == 0) { x = 1; r = 1; } else r = 0; }", []string{
			"0 -> 1: atomic { $0 := read x; assume ($0 == 0); write x := 1; r := 1 }",
			"0 -> 1: atomic { $0 := read x; assume !($0 == 0); r := 0 }"}},
		{"atomic if star", "atomic { if (*) x = 1; y = 2; }", []string{
			"0 -> 1: atomic { write x := 1; write y := 2 }",
			"0 -> 1: atomic { write y := 2 }"}},
		{"atomic assert", "atomic { assert(x == 0); x = 1; }", []string{
			"0 -> 1: atomic { $0 := read x; assume ($0 == 0); write x := 1 }",
			"0 -> E: atomic { $0 := read x; assume !($0 == 0) }"}},
		{"atomic empty", "atomic { }", []string{"0 -> 1: atomic {  }"}},
		{"atomic const branch", "atomic { if (1) x = 1; else x = 2; }", []string{"0 -> 1: atomic { write x := 1 }"}},
		// cas, fetch_add, swap.
		{"cas", "r = cas(x, 0, 1);", []string{
			"0 -> 1: atomic { $0 := read x; assume ($0 == 0); write x := 1; r := 1 }",
			"0 -> 1: atomic { $0 := read x; assume ($0 != 0); r := 0 }"}},
		{"fetch_add", "r = fetch_add(x, 2);", []string{"0 -> 1: atomic { $0 := read x; write x := ($0 + 2); r := $0 }"}},
		{"swap old r", "r = swap(x, r);", []string{"0 -> 1: atomic { $0 := read x; write x := r; r := $0 }"}},
		{"swap arg read", "r = swap(a[1], y + x);", []string{
			"0 -> 1: $0 := read y", "1 -> 2: $1 := read x",
			"2 -> 3: atomic { $2 := read a[1]; write a[1] := ($0 + $1); r := $2 }"}},
		{"cas shared result", "y = cas(x, r, 1);", []string{
			"0 -> 1: atomic { $0 := read x; assume ($0 == r); write x := 1; $1 := 1 }",
			"0 -> 1: atomic { $0 := read x; assume ($0 != r); $1 := 0 }",
			"1 -> 2: write y := $1"}},
		// if, while, blocks.
		{"if else", "if (x == 1) r = 1; else r = 2;", []string{
			"0 -> 1: $0 := read x", "1 -> 2: assume ($0 == 1)", "1 -> 3: assume !($0 == 1)",
			"2 -> 4: r := 1", "3 -> 4: r := 2"}},
		{"if star", "if (*) x = 1;", []string{"0 -> 1: assume true", "0 -> 2: assume true", "1 -> 2: write x := 1"}},
		{"while", "while (x != 0) { }", []string{"0 -> 1: $0 := read x", "1 -> 0: assume ($0 != 0)", "1 -> 2: assume !($0 != 0)"}},
		{"while star", "while (*) r = r + 1;", []string{"0 -> 1: assume true", "0 -> 2: assume true", "1 -> 0: r := (r + 1)"}},
		{"block", "{ x = 1; { y = 2; } }", []string{"0 -> 1: write x := 1", "1 -> 2: write y := 2"}},
		// for.
		{"for", "for (j in 0..1) a[j] = j + 1;", []string{"0 -> 1: write a[0] := 1", "1 -> 2: write a[1] := 2"}},
		{"for empty", "for (j in 1..0) x = 1;", nil},
		{"for nested", "for (j in 0..1) for (k in j..1) r = 10 * j + k;", []string{"0 -> 1: r := 0", "1 -> 2: r := 1", "2 -> 3: r := 11"}},
		// labels and goto.
		{"goto", "L: x = 1; goto L;", []string{"0 -> 1: write x := 1", "1 -> 0: assume true"}},
		{"goto forward", "goto L; r = 1; L: r = 2;", []string{"0 -> 2: assume true", "1 -> 2: r := 1", "2 -> 3: r := 2"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			src := "shared x, y, a[2];\nprocess Main {\n  local r, s;\n  " + tt.body + "\n}\n"
			s := mustParse(t, src)
			checkInvariants(t, s)
			sameLines(t, tt.body, edges(proc(t, s, "Main")), tt.want)
		})
	}
}

func TestReadsLeftToRightNoShortCircuit(t *testing.T) {
	s := mustParse(t, `shared x, y, a[2];
process Main {
  local r;
  while (x == 1 && y == 1 || a[0] == 0 || x == 2) { }
}`)
	p := proc(t, s, "Main")
	sameLines(t, "reads", edges(p)[:4], []string{
		"0 -> 1: $0 := read x", "1 -> 2: $1 := read y", "2 -> 3: $2 := read a[0]", "3 -> 4: $3 := read x"})
	// One temporary per read, numbered from $0 in every statement.
	var names []string
	for _, v := range p.Locals {
		names = append(names, v.Name)
	}
	sameLines(t, "locals", names, []string{"Main.r", "Main.$0", "Main.$1", "Main.$2", "Main.$3"})
}

func TestTempsReused(t *testing.T) {
	s := mustParse(t, "shared x, y; process P { y = x + 1; y = x + x; }")
	p := proc(t, s, "P")
	if len(p.Locals) != 2 || p.Locals[0].Name != "P.$0" || p.Locals[1].Name != "P.$1" {
		t.Errorf("locals %v", p.Locals)
	}
}

func TestTemplates(t *testing.T) {
	src := `const N = 3;
shared flag[N], turn = 1;
process P[i in 0..N-1] {
  local r = i + 10, c[2] = *;
  flag[i] = 1;
  r = flag[(i + 1) % N];
  c[1] = r;
cs: turn = i;
}
process Main { skip; }
`
	s := mustParse(t, src)
	checkInvariants(t, s)
	if len(s.Procs) != 4 {
		t.Fatalf("%d processes", len(s.Procs))
	}
	for i, want := range []string{"P[0]", "P[1]", "P[2]", "Main"} {
		p := s.Procs[i]
		tmpl := "P"
		if want == "Main" {
			tmpl = ""
		}
		if p.Name != want || p.Template != tmpl {
			t.Errorf("proc %d: %s template %q", i, p.Name, p.Template)
		}
	}
	p2 := proc(t, s, "P[2]")
	sameLines(t, "P[2]", edges(p2), []string{
		"0 -> 1: write flag[2] := 1",
		"1 -> 2: r := read flag[0]",
		"2 -> 3: c[1] := r",
		"3 -> 4: write turn := 2",
	})
	if p2.Labels["cs"] != 3 {
		t.Errorf("label cs at %d", p2.Labels["cs"])
	}
	wantLocals := []VarDecl{{Name: "P[2].r", Init: Init{Value: 12}}, {Name: "P[2].c[0]", Init: Init{Nondet: true}}, {Name: "P[2].c[1]", Init: Init{Nondet: true}}}
	for i, w := range wantLocals {
		if got := p2.Locals[i]; got.Name != w.Name || got.Init != w.Init {
			t.Errorf("local %d: %+v, want %+v", i, got, w)
		}
	}
	var shared []string
	for _, v := range s.Shared {
		shared = append(shared, v.Name)
		if (v.Name == "turn") != (v.Init.Value == 1) || v.Init.Nondet {
			t.Errorf("init of %s: %+v", v.Name, v.Init)
		}
	}
	sameLines(t, "shared", shared, []string{"flag[0]", "flag[1]", "flag[2]", "turn"})
	// One site per source statement, shared by the instances.
	var texts []string
	for _, st := range s.Sites {
		texts = append(texts, st.Describe())
	}
	if len(s.Sites) == 0 || s.Sites[0].Text != "flag[i] = 1;" || !strings.Contains(strings.Join(texts, "|"), "turn = i;") {
		t.Errorf("sites %q", texts)
	}
}

func TestInitialValues(t *testing.T) {
	s := mustParse(t, "const K = 2; shared x = -K * 3, y = *, a[2] = K, b[2] = *, z; process M { local l = *, m[3] = 4; skip; }")
	got := map[string]Init{}
	for _, v := range s.Shared {
		got[v.Name] = v.Init
	}
	for _, v := range s.Procs[0].Locals {
		got[v.Name] = v.Init
	}
	want := map[string]Init{
		"x": {Value: -6}, "y": {Nondet: true}, "a[0]": {Value: 2}, "a[1]": {Value: 2},
		"b[0]": {Nondet: true}, "b[1]": {Nondet: true}, "z": {},
		"M.l": {Nondet: true}, "M.m[0]": {Value: 4}, "M.m[1]": {Value: 4}, "M.m[2]": {Value: 4},
	}
	if len(got) != len(want) {
		t.Errorf("got %v", got)
	}
	for k, w := range want {
		if got[k] != w {
			t.Errorf("%s: %+v, want %+v", k, got[k], w)
		}
	}
}

func TestScopes(t *testing.T) {
	// Innermost first: for index, then local, then shared, then const.
	s := mustParse(t, `const x = 7;
shared x2, y;
process P[i in 0..0] {
  local y;
  y = x;                       // const
  for (y in 3..3) x2 = y;      // for index shadows the local
  y = 1;                       // local shadows the shared
  x2 = i;
}`)
	sameLines(t, "P[0]", edges(s.Procs[0]), []string{
		"0 -> 1: y := 7", "1 -> 2: write x2 := 3", "2 -> 3: y := 1", "3 -> 4: write x2 := 0"})
}

func TestSitesAndBareBodies(t *testing.T) {
	src := `shared x, y, z[2];
process A {
  local r;
  if (r == 1) x = 1; else y = 2;
  while (r) L: x = 3;
  for (k in 0..1) z[k] = k;
  { y = 4; }
  atomic { x = 5; }
  r = swap(x, 1);
  y = fetch_add(x, 1);
}
process B { x = 6; }
`
	s := mustParse(t, src)
	checkInvariants(t, s)
	var got []string
	for _, st := range s.Sites {
		got = append(got, fmt.Sprintf("%s d%d%s%s", st.Describe(), st.Depth,
			map[bool]string{true: " bare", false: ""}[st.BareBody], map[bool]string{true: " w", false: ""}[st.AfterWrite]))
	}
	sameLines(t, "sites", got, []string{
		"before x = 1; d0 bare", "after x = 1; d0 bare w", "before y = 2; d0 bare", "after y = 2; d0 bare w",
		"after if (r == 1) x = 1; else y = 2; d0",
		"before L: x = 3; d1 bare", "after x = 3; d1 bare w", "after while (r) L: x = 3; d0",
		"before z[k] = k; d0 bare", "after z[k] = k; d0 bare w", "after for (k in 0..1) z[k] = k; d0",
		"after y = 4; d0 w", "after { y = 4; } d0",
		"after atomic { x = 5; } d0", "after r = swap(x, 1); d0", "after y = fetch_add(x, 1); d0 w", "after x = 6; d0 w"})
	for _, st := range s.Sites {
		if !strings.HasPrefix(string(s.File.Src[st.Start:]), st.Text) {
			t.Errorf("site %d offsets", st.ID)
		}
	}
	// Both unrolled copies of z[k] = k pass the point after it, and the
	// second copy's write also passes the point before the next copy.
	byText := map[string]int{}
	for _, st := range s.Sites {
		byText[st.Describe()] = st.ID
	}
	n := 0
	for _, e := range proc(t, s, "A").Edges {
		for _, id := range e.Points {
			if id == byText["after z[k] = k;"] {
				n++
			}
		}
	}
	if n != 2 {
		t.Errorf("%d edges for the for site", n)
	}
	if e := proc(t, s, "B").Edges[0]; len(e.Points) != 1 || e.Points[0] != byText["after x = 6;"] {
		t.Errorf("B's write passes sites %v", e.Points)
	}
	// The point after the if is passed by both branches' writes; the
	// point after the labelled x = 3 (goto target) by no edge before it.
	after := byText["after if (r == 1) x = 1; else y = 2;"]
	n = 0
	for _, e := range proc(t, s, "A").Edges {
		for _, id := range e.Points {
			if id == after {
				n++
				if e.Op.Kind != OpWrite {
					t.Errorf("%v passes the point after the if", e.Op)
				}
			}
		}
	}
	if n != 2 {
		t.Errorf("%d edges pass the point after the if", n)
	}
}

func TestLabelsAndLocPos(t *testing.T) {
	src := `shared x;
process P {
  local r;
A: while (x == 0) {
B:  skip;
  }
C: if (r) { r = 1; }
D: skip;
}
`
	s := mustParse(t, src)
	p := proc(t, s, "P")
	// A is the loop head (the read of the condition). B, a labelled skip at
	// the end of the body, is a point of its own inside the body (one no-op
	// step back to the head), not the head: a run that leaves the loop at
	// once never is at B. C is the if (its condition reads nothing); D, a
	// labelled skip at the end, is a point of its own before the end.
	want := map[string]Loc{"A": 0, "B": 2, "C": 3, "D": 5}
	for k, v := range want {
		if p.Labels[k] != v {
			t.Errorf("label %s at %d, want %d\n%s", k, p.Labels[k], v, strings.Join(edges(p), "\n"))
		}
	}
	noop := 0
	for _, e := range p.Edges {
		if e.Op.Kind == OpAssume && e.Op.Val.String() == "true" && (e.From == 2 && e.To == 0 || e.From == 5 && e.To == 6) {
			noop++
		}
	}
	if noop != 2 {
		t.Errorf("want the no-op steps 2 -> 0 and 5 -> 6\n%s", strings.Join(edges(p), "\n"))
	}
	line := func(l Loc) int { return s.File.Line(p.LocPos[l]) }
	if line(0) != 4 || line(2) != 5 || line(3) != 7 || line(5) != 8 || p.LocPos[6] != NoPos {
		t.Errorf("LocPos lines %d %d %d %d, end %v", line(0), line(2), line(3), line(5), p.LocPos[6])
	}
	for _, e := range p.Edges {
		if e.Op.Kind == OpRead && s.Position(e.Pos).Col != 11 {
			t.Errorf("read at %v", s.Position(e.Pos))
		}
	}
}

func TestMutexAndForbidden(t *testing.T) {
	src := `process P[i in 0..2] { cs: skip; }
process Q { cs: skip; other: skip; }
process R { skip; }
mutex cs;
forbidden P[1]@cs, Q@other;
forbidden R@end;
`
	_, err := Parse("t.cs", []byte(src))
	if err == nil || !strings.Contains(err.Error(), "process R has no label end") {
		t.Fatalf("err = %v", err)
	}
	src = strings.Replace(src, "R { skip; }", "R { end: skip; }", 1)
	s := mustParse(t, src)
	if len(s.Bad) != 6+2 {
		t.Fatalf("%d bad states", len(s.Bad))
	}
	b := s.Bad[6]
	if s.Procs[b.Procs[0]].Name != "P[1]" || s.Procs[b.Procs[1]].Name != "Q" || b.Locs[1] != s.Procs[3].Labels["other"] {
		t.Errorf("forbidden: %+v", b)
	}
	pairs := map[[2]int]bool{}
	for _, b := range s.Bad[:6] {
		if len(b.Procs) != 2 || b.Procs[0] >= b.Procs[1] {
			t.Errorf("mutex state %+v", b)
		}
		pairs[[2]int{b.Procs[0], b.Procs[1]}] = true
	}
	if len(pairs) != 6 {
		t.Errorf("pairs %v", pairs)
	}
	pcs := make([]Loc, len(s.Procs))
	if !s.IsBad(pcs) { // every process starts at cs (skip: the label is at 0)
		t.Errorf("initial state should be bad")
	}
}

func TestAssertErrLoc(t *testing.T) {
	s := mustParse(t, "shared x; process P { assert(x == 0); assert(x == 1); } process Q { x = 1; }")
	p, q := proc(t, s, "P"), proc(t, s, "Q")
	if p.ErrLoc < 0 || q.ErrLoc != -1 {
		t.Fatalf("ErrLoc %d %d", p.ErrLoc, q.ErrLoc)
	}
	n := 0
	for _, e := range p.Edges {
		if e.To == p.ErrLoc {
			n++
		}
	}
	if n != 2 {
		t.Errorf("%d edges to ErrLoc", n)
	}
	pcs := []Loc{p.ErrLoc, 0}
	if !s.IsBad(pcs) {
		t.Errorf("ErrLoc not bad")
	}
}

func TestAtomicPaths(t *testing.T) {
	// Ten sequential ifs: 1024 paths is the limit.
	body := strings.Repeat("if (x == 1) r = r + 1; ", 10)
	s := mustParse(t, "shared x; process P { local r; atomic { "+body+"} }")
	if n := len(s.Procs[0].Edges); n != 1024 {
		t.Errorf("%d paths", n)
	}
	_, err := Parse("t.cs", []byte("shared x; process P { local r; atomic { "+body+body+"} }"))
	if err == nil || !strings.Contains(err.Error(), "paths") {
		t.Errorf("err = %v", err)
	}
}

func TestWithFencesAndFormat(t *testing.T) {
	s := mustParse(t, "shared x, y; process P { x = 1; y = 2; }")
	f := s.WithFences(map[int]bool{0: true})
	if len(f.Procs[0].Edges) != 3 || f.Procs[0].Edges[1].Op.Kind != OpFence {
		t.Errorf("WithFences: %v", edges(f.Procs[0]))
	}
	var b strings.Builder
	if err := s.Format(&b); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, want := range []string{"process P", "write x := 1", "test.cs:1", "fence sites:", `"after y = 2;"`} {
		if !strings.Contains(out, want) {
			t.Errorf("Format output lacks %q:\n%s", want, out)
		}
	}
}

// fence store; is one OpFence step of kind StoreFence; "store" stays an
// ordinary name elsewhere.
func TestFenceStore(t *testing.T) {
	s := mustParse(t, "shared x, store; process P { x = 1; fence store; store = 2; fence; }")
	var kinds []string
	for _, e := range s.Procs[0].Edges {
		kinds = append(kinds, e.Op.String())
	}
	got := strings.Join(kinds, "; ")
	if want := "write x := 1; fence store; write store := 2; fence"; got != want {
		t.Errorf("edges %q, want %q", got, want)
	}
	if e := s.Procs[0].Edges[1]; e.Op.Fence != StoreFence || e.Op.Kind != OpFence {
		t.Errorf("edge 1 = %+v", e)
	}
	if e := s.Procs[0].Edges[3]; e.Op.Fence == StoreFence {
		t.Errorf("fence; parsed as a store fence")
	}
	if _, err := Parse("t.cs", []byte("shared x; process P { fence lod; }")); err == nil || !strings.Contains(err.Error(), "1:29") {
		t.Errorf("fence lod: err = %v", err)
	}
}

// The barrier kinds of the weak models and acquire/release accesses lower
// to typed fences and annotated accesses, and print back as they were
// written; a misplaced annotation is an error at its word.
func TestBarriersAndAnnotations(t *testing.T) {
	s := mustParse(t, `shared x, y, load; process P { local r;
		fence load; fence release; fence tso; fence storeload loadload; fence loadload loadstore storeload storestore;
		release x = 1; acquire r = y; load = r; }`)
	var got []string
	for _, e := range s.Procs[0].Edges {
		got = append(got, e.Op.String())
	}
	want := "fence load; fence release; fence tso; fence loadload storeload; fence; write release x := 1; r := read acquire y; write load := r"
	if g := strings.Join(got, "; "); g != want {
		t.Errorf("edges\n%s\nwant\n%s", g, want)
	}
	e := s.Procs[0].Edges
	if e[0].Op.Fence != LoadFence || e[3].Op.Fence.Orders() != LoadLoad|StoreLoad || e[4].Op.Fence != FullFence {
		t.Errorf("kinds %v %v %v", e[0].Op.Fence, e[3].Op.Fence, e[4].Op.Fence)
	}
	if e[5].Op.Ann != Release || e[6].Op.Ann != Acquire || e[7].Op.Ann != 0 {
		t.Errorf("annotations %v %v %v", e[5].Op.Ann, e[6].Op.Ann, e[7].Op.Ann)
	}
	for _, bad := range []struct{ src, at string }{
		{"shared x; process P { local r; acquire x = 1; }", "1:32"},
		{"shared x; process P { local r; release r = x; }", "1:32"},
		{"shared x, y; process P { local r; acquire r = x + y; }", "1:35"},
	} {
		if _, err := Parse("t.cs", []byte(bad.src)); err == nil || !strings.Contains(err.Error(), bad.at) {
			t.Errorf("%s: err = %v, want one at %s", bad.src, err, bad.at)
		}
	}
	for _, k := range []FenceKind{FullFence, StoreFence, LoadFence, ReleaseFence, TSOFence, MaskFence(StoreLoad)} {
		if j, ok := ParseFenceKind(k.String()); !ok || j != k {
			t.Errorf("ParseFenceKind(%q) = %v, %v", k.String(), j, ok)
		}
	}
}
