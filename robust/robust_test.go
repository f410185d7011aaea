package robust

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"fencer/cs"
	"fencer/fences"
	"fencer/memmodel"
)

func parseFile(t *testing.T, path string) *cs.System {
	t.Helper()
	sys, err := cs.ParseFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return sys
}

func parseSrc(t *testing.T, src string) *cs.System {
	t.Helper()
	sys, err := cs.Parse("test.cs", []byte(src))
	if err != nil {
		t.Fatalf("%v\n%s", err, src)
	}
	return sys
}

// siteLines returns the source lines of the given fence sites.
func siteLines(sys *cs.System, sites []int) []int {
	var out []int
	for _, s := range sites {
		out = append(out, sys.File.Line(sys.Sites[s].Pos()))
	}
	return out
}

func siteTexts(sys *cs.System, sites []int) []string {
	var out []string
	for _, s := range sites {
		out = append(out, sys.Sites[s].Describe())
	}
	return out
}

// The robustness verdicts and minimum robust fence sets (as statements) of
// the litmus programs and the new benchmarks.
func TestBenchmarks(t *testing.T) {
	tests := []struct {
		file  string
		model memmodel.Model
		// robust without fences
		robust bool
		// the statements after which the minimum robust fence set puts fences
		fences []string
	}{
		{"producer_loop.cs", memmodel.TSO, true, nil},
		{"producer_loop.cs", memmodel.PSO, false, []string{"after d = n;"}},
		{"sb.cs", memmodel.TSO, false, []string{"after flag[i] = 1;"}},
		{"sb.cs", memmodel.PSO, false, []string{"after flag[i] = 1;"}},
		{"mp.cs", memmodel.TSO, true, nil},
		{"mp.cs", memmodel.PSO, false, []string{"after data = 1;"}},
		{"lb.cs", memmodel.TSO, true, nil},
		{"lb.cs", memmodel.PSO, true, nil},
		{"dekker_simple.cs", memmodel.TSO, false, []string{"after flag[i] = 1;"}},
		{"dekker_simple.cs", memmodel.PSO, false, []string{"after flag[i] = 1;"}},
		{"peterson.cs", memmodel.TSO, false, []string{"after turn = i;"}},
		{"peterson.cs", memmodel.PSO, false, []string{"after flag[i] = 1;", "after turn = i;"}},
		{"ticket_lock.cs", memmodel.TSO, true, nil},
		{"ticket_lock.cs", memmodel.PSO, true, nil},
		{"seqlock.cs", memmodel.TSO, true, nil},
		{"seqlock.cs", memmodel.PSO, false, []string{"after seq = s + 1;", "after y = v;"}},
		{"ring_buffer.cs", memmodel.TSO, false, []string{"after head = h;", "after tail = t;"}},
		{"ring_buffer.cs", memmodel.PSO, false, []string{"after if (h % 2 == 0) { …", "after head = h;", "after tail = t;"}},
	}
	for _, tc := range tests {
		t.Run(tc.file+"/"+tc.model.String(), func(t *testing.T) {
			sys := parseFile(t, filepath.Join("..", "benchmarks", tc.file))
			an := Analyze(sys, tc.model)
			ok, p := an.Robust(nil)
			if ok != tc.robust {
				msg := ""
				if p != nil {
					msg = an.Describe(p.Cycle)
				}
				t.Fatalf("robust = %v, want %v %s", ok, tc.robust, msg)
			}
			fs, err := an.MinFences()
			if err != nil {
				t.Fatal(err)
			}
			if got := siteTexts(sys, fs.Sites); strings.Join(got, " | ") != strings.Join(tc.fences, " | ") {
				t.Errorf("fences after %q (lines %v), want %q", got, siteLines(sys, fs.Sites), tc.fences)
			}
			if !fs.Minimal {
				t.Errorf("fence set not proved minimal")
			}
			if len(fs.Sites) > 0 {
				fenced := map[int]bool{}
				for _, s := range fs.Sites {
					fenced[s] = true
				}
				if ok, _ := Analyze(sys.WithFences(fenced), tc.model).Robust(nil); !ok {
					t.Errorf("not robust with its own fences installed")
				}
			}
		})
	}
}

// Under SC nothing is relaxed: every program is robust.
func TestSC(t *testing.T) {
	sys := parseFile(t, filepath.Join("..", "benchmarks", "sb.cs"))
	if !IsRobust(sys, memmodel.SC) {
		t.Fatal("SB not robust under SC")
	}
}

// Cut on every path: a fence on one branch only leaves the pair relaxed.
func TestCutOnEveryPath(t *testing.T) {
	src := `shared x, y, z;
process A { local r, c; x = 1; if (c == 0) { fence; } else { z = 1; } r = y; }
process B { local s; y = 1; fence; s = x; }
`
	sys := parseSrc(t, src)
	an := Analyze(sys, memmodel.TSO)
	ok, p := an.Robust(nil)
	if ok {
		t.Fatal("robust, but the else branch leaves x = 1 then r = y unfenced")
	}
	if got := an.Describe(p.Cycle); !strings.Contains(got, "A writes x (line 2) then reads y (line 2)") {
		t.Errorf("cycle %q", got)
	}
	fs, err := an.MinFences()
	if err != nil {
		t.Fatal(err)
	}
	// One fence suffices: after x = 1 (cuts both paths) or after z = 1.
	if len(fs.Sites) != 1 {
		t.Errorf("fences after %q, want one", siteTexts(sys, fs.Sites))
	}
}

// Atomic steps cut relaxed pairs through them and are accesses themselves.
func TestAtomicCuts(t *testing.T) {
	src := `shared x, y, l;
process A { local r, t; x = 1; t = fetch_add(l, 1); r = y; }
process B { local s, t; y = 1; t = swap(l, 0); s = x; }
`
	sys := parseSrc(t, src)
	if !IsRobust(sys, memmodel.TSO) || !IsRobust(sys, memmodel.PSO) {
		t.Error("SB with a locked instruction between write and read is robust")
	}
	// Without the locked instructions it is SB.
	src2 := strings.ReplaceAll(strings.ReplaceAll(src, "t = fetch_add(l, 1);", ""), "t = swap(l, 0);", "")
	if IsRobust(parseSrc(t, src2), memmodel.TSO) {
		t.Error("SB robust under TSO")
	}
}

// Conflicts through an atomic read-modify-write close cycles: the cas is
// both a read and a write of l.
func TestAtomicAccessesConflict(t *testing.T) {
	src := `shared x, l;
process A { local r; x = 1; r = l; }
process B { local s, t; t = cas(l, 0, 1); s = x; }
`
	an := Analyze(parseSrc(t, src), memmodel.TSO)
	ok, p := an.Robust(nil)
	if ok {
		t.Fatal("robust: A writes x then reads l; B's cas writes l then reads x")
	}
	t.Log(an.Describe(p.Cycle))
}

// A cycle must visit each process once: a writer that only writes, seen
// through a loop twice, is no critical cycle under TSO.
func TestTemplateInstancesAreProcesses(t *testing.T) {
	src := `shared f[2];
process P[i in 0..1] { local r; f[i] = 1; r = f[1 - i]; }
`
	sys := parseSrc(t, src)
	an := Analyze(sys, memmodel.TSO)
	ok, p := an.Robust(nil)
	if ok {
		t.Fatal("SB template robust")
	}
	want := "P[0] writes f[0] (line 2) then reads f[1] (line 2); P[1] writes f[1] (line 2) then reads f[0] (line 2)"
	if got := an.Describe(p.Cycle); got != want {
		t.Errorf("cycle\n got %s\nwant %s", got, want)
	}
}

func TestMain(m *testing.M) {
	os.Exit(m.Run())
}

// expectRx matches the "// fencer: expect MODEL RESULT" lines.
var expectRx = regexp.MustCompile(`(?m)^// fencer: expect (tso|pso) (safe|fences=(\d+))\s*$`)

// On every benchmark with an expected fence count for the property, the
// robust fence set is never smaller: it makes the program correct whenever
// it is correct under SC, so the minimum for the property is a lower bound.
// The robust set, installed, must leave the program robust.
func TestRobustNeverFewerThanInsert(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("..", "benchmarks", "*.cs"))
	more, err2 := filepath.Glob(filepath.Join("..", "benchmarks", "regressions", "*.cs"))
	files = append(files, more...)
	litmus, _ := filepath.Glob(filepath.Join("..", "benchmarks", "litmus", "*.cs"))
	files = append(files, litmus...)
	// 19 + 11 + 32 files when this was written.
	if err != nil || err2 != nil || len(files) < 62 {
		t.Fatalf("%d benchmarks, want at least 62 (%v, %v)", len(files), err, err2)
	}
	checked := 0
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		sys := parseFile(t, f)
		for _, m := range expectRx.FindAllStringSubmatch(string(src), -1) {
			model, _ := memmodel.Parse(m[1])
			want := 0
			if m[3] != "" {
				want, _ = strconv.Atoi(m[3])
			}
			fs, err := Analyze(sys, model).MinFences()
			if err != nil {
				t.Fatalf("%s %s: %v", f, model, err)
			}
			checked++
			t.Logf("%-28s %s: insert %d, robust %d %v", filepath.Base(f), model, want, len(fs.Sites), siteLines(sys, fs.Sites))
			if len(fs.Sites) < want {
				t.Errorf("%s %s: robust fences %v fewer than the %d the property needs", f, model, siteTexts(sys, fs.Sites), want)
			}
			fenced := map[int]bool{}
			for _, s := range fs.Sites {
				fenced[s] = true
			}
			if ok, _ := Analyze(sys.WithFences(fenced), model).Robust(nil); !ok {
				t.Errorf("%s %s: not robust with its robust fences", f, model)
			}
		}
	}
	// 118 expectation lines when this was written: fewer means
	// expectations vanished or stopped matching expectRx.
	if checked < 118 {
		t.Errorf("%d expectations checked, want at least 118", checked)
	}
}

// An atomic step is one event: a cycle may enter it through its write of
// x1 and leave through its read of x3, although the read comes first in the
// body (benchmarks/regressions/progress_escalation.cs, which needs a fence
// under TSO).
func TestAtomicStepIsOneEvent(t *testing.T) {
	src := `shared x1, x3;
process P0 { local r0; atomic { r0 = x3; x1 = r0 + 1; } }
process P1 { local r0; x3 = 2; r0 = x1; }
`
	an := Analyze(parseSrc(t, src), memmodel.TSO)
	ok, p := an.Robust(nil)
	if ok {
		t.Fatal("robust, but P1 writes x3 then reads x1 and P0's atomic step writes x1 and reads x3")
	}
	want := "P1 writes x3 (line 3) then reads x1 (line 3); P0 atomically writes x1 (line 2) then atomically reads x3 (line 2)"
	if got := an.Describe(p.Cycle); got != want {
		t.Errorf("cycle\n got %s\nwant %s", got, want)
	}
}

// MinFencesWith: the least set that hits the required candidate sets and
// makes the program robust.
func TestMinFencesWith(t *testing.T) {
	sys := parseFile(t, filepath.Join("..", "benchmarks", "mp.cs"))
	an := Analyze(sys, memmodel.PSO)
	// mp.cs sites: 0 "data = 1;", 1 "ready = 1;". Robustness needs site 0;
	// requiring site 1 as well gives both.
	fs, err := an.MinFencesWith(full(1))
	if err != nil {
		t.Fatal(err)
	}
	if got := siteTexts(sys, fs.Sites); strings.Join(got, "|") != "after data = 1;|after ready = 1;" || !fs.Minimal {
		t.Errorf("fences after %q (minimal %v)", got, fs.Minimal)
	}
	// A requirement already met by the robust set adds nothing.
	fs, err = an.MinFencesWith(full(0, 1))
	if err != nil {
		t.Fatal(err)
	}
	if got := siteTexts(sys, fs.Sites); strings.Join(got, "|") != "after data = 1;" {
		t.Errorf("fences after %q", got)
	}
	if _, err := an.MinFencesWith([][]fences.Element{{}}); err == nil {
		t.Error("an empty required set must fail")
	}
	// A required store fence is taken, but cuts nothing: robustness still
	// needs the full fence after data = 1;.
	fs, err = an.MinFencesWith([][]fences.Element{{{Site: 1, Kind: cs.StoreFence}}})
	if err != nil {
		t.Fatal(err)
	}
	if got := siteTexts(sys, fs.Sites); strings.Join(got, "|") != "after data = 1;" || !slices.Equal(fs.Store, []int{1}) {
		t.Errorf("full fences after %q, store fences at %v", got, fs.Store)
	}
	want := []fences.Element{{Site: 0, Kind: cs.FullFence}, {Site: 1, Kind: cs.StoreFence}}
	if got := fs.Elements(); !slices.Equal(got, want) {
		t.Errorf("Elements() = %v, want %v", got, want)
	}
}

// full is one required candidate set: full fences at sites.
func full(sites ...int) [][]fences.Element {
	var set []fences.Element
	for _, s := range sites {
		set = append(set, fences.Element{Site: s, Kind: cs.FullFence})
	}
	return [][]fences.Element{set}
}

// The coarse program order of very large processes is sound: it never calls
// robust what the exact one does not, nor needs fewer fences.
func TestCoarseIsCoarser(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join("..", "benchmarks", "*.cs"))
	if len(files) < 19 { // 19 when this was written
		t.Fatalf("%d benchmarks in ../benchmarks, want at least 19", len(files))
	}
	defer func(v int) { MaxReachCells = v }(MaxReachCells)
	for _, f := range files {
		sys := parseFile(t, f)
		for _, m := range []memmodel.Model{memmodel.TSO, memmodel.PSO} {
			MaxReachCells = 50_000_000
			fine, _ := Analyze(sys, m).Robust(nil)
			ffs, _ := Analyze(sys, m).MinFences()
			MaxReachCells = 0
			coarse, _ := Analyze(sys, m).Robust(nil)
			cfs, _ := Analyze(sys, m).MinFences()
			if coarse && !fine || len(cfs.Sites) < len(ffs.Sites) {
				t.Errorf("%s %s: coarse robust %v (fine %v), fences %d (fine %d)", f, m, coarse, fine, len(cfs.Sites), len(ffs.Sites))
			}
		}
	}
}

// BenchmarkAnalyze: the analysis and the minimum robust fences of every
// benchmark under TSO and PSO.
func BenchmarkAnalyze(b *testing.B) {
	files, _ := filepath.Glob(filepath.Join("..", "benchmarks", "*.cs"))
	var systems []*cs.System
	for _, f := range files {
		sys, err := cs.ParseFile(f)
		if err != nil {
			b.Fatal(err)
		}
		systems = append(systems, sys)
	}
	for i := 0; i < b.N; i++ {
		for _, sys := range systems {
			for _, m := range []memmodel.Model{memmodel.TSO, memmodel.PSO} {
				if _, err := Analyze(sys, m).MinFences(); err != nil {
					b.Fatal(err)
				}
			}
		}
	}
}
