package robust

import (
	"errors"
	"path/filepath"
	"slices"
	"testing"

	"fencer/cs"
	"fencer/memmodel"
)

var weakModels = []memmodel.Model{memmodel.ARM, memmodel.RISCV, memmodel.RMO}

// The litmus shapes under the models with Axioms and the store-buffer
// ones: which are robust as written.
func TestWeakLitmus(t *testing.T) {
	const (
		mp = `shared x, y;
process W { x = 1; y = 1; }
process R { local r1, r2; r1 = y; r2 = x; }
`
		mpFences = `shared x, y;
process W { x = 1; fence store; y = 1; }
process R { local r1, r2; r1 = y; fence load; r2 = x; }
`
		mpRelAcq = `shared x, y;
process W { x = 1; release y = 1; }
process R { local r1, r2; acquire r1 = y; r2 = x; }
`
		// Only one side annotated: the other pair stays relaxed.
		mpRelOnly = `shared x, y;
process W { x = 1; release y = 1; }
process R { local r1, r2; r1 = y; r2 = x; }
`
		lb = `shared x, y;
process A { local r1; r1 = x; y = 1; }
process B { local r2; r2 = y; x = 1; }
`
		sb = `shared x, y;
process A { local r1; x = 1; r1 = y; }
process B { local r2; y = 1; r2 = x; }
`
		sbFences = `shared x, y;
process A { local r1; x = 1; fence; r1 = y; }
process B { local r2; y = 1; fence; r2 = x; }
`
		// A store fence does not keep a write before a later read.
		sbStore = `shared x, y;
process A { local r1; x = 1; fence store; r1 = y; }
process B { local r2; y = 1; fence store; r2 = x; }
`
	)
	arm, riscv, rmo := memmodel.ARM, memmodel.RISCV, memmodel.RMO
	tso, pso := memmodel.TSO, memmodel.PSO
	tests := []struct {
		name   string
		src    string
		robust []memmodel.Model
		not    []memmodel.Model
	}{
		{"mp", mp, []memmodel.Model{tso}, []memmodel.Model{arm, riscv, rmo, pso}},
		{"mp+fences", mpFences, []memmodel.Model{arm, riscv, rmo}, nil},
		{"mp+rel+acq", mpRelAcq, []memmodel.Model{arm, riscv}, nil},
		{"mp+rel", mpRelOnly, nil, []memmodel.Model{arm, riscv}},
		{"lb", lb, []memmodel.Model{tso, pso}, []memmodel.Model{arm, riscv, rmo}},
		{"sb", sb, nil, []memmodel.Model{arm, riscv, rmo, tso, pso}},
		{"sb+fences", sbFences, []memmodel.Model{arm, riscv, rmo, tso, pso}, nil},
		{"sb+store", sbStore, nil, []memmodel.Model{arm, riscv, rmo}},
	}
	for _, tc := range tests {
		sys := parseSrc(t, tc.src)
		for _, m := range tc.robust {
			if ok, p := Analyze(sys, m).Robust(nil); !ok {
				t.Errorf("%s: not robust under %s: %s", tc.name, m, Analyze(sys, m).Describe(p.Cycle))
			}
		}
		for _, m := range tc.not {
			if ok, _ := Analyze(sys, m).Robust(nil); ok {
				t.Errorf("%s: robust under %s", tc.name, m)
			}
		}
	}
}

// Under the weak models reads start relaxed pairs: MP's reader pair is
// critical as well as its writer pair, and LB's read→write pairs.
func TestWeakReadPairs(t *testing.T) {
	sys := parseSrc(t, `shared x, y;
process A { local r1; r1 = x; y = 1; }
process B { local r2; r2 = y; x = 1; }
`)
	an := Analyze(sys, memmodel.ARM)
	if len(an.Critical) != 2 {
		t.Fatalf("LB under arm: %d critical pairs, want 2", len(an.Critical))
	}
	for _, p := range an.Critical {
		if a, b := an.Graph.Acc[p.A], an.Graph.Acc[p.B]; a.Write || !b.Write {
			t.Errorf("LB pair %s", an.Describe(p.Cycle))
		}
	}
}

// Installed fences with kinds (RobustFences): a store fence between MP's
// writes and a load fence between its reads make it robust under arm; a
// load fence between the writes or a store fence between the reads do
// not. The map-based API installs full fences.
func TestWeakInstalledKinds(t *testing.T) {
	sys := parseSrc(t, `shared x, y;
process W { x = 1; y = 1; }
process R { local r1, r2; r1 = y; r2 = x; }
`)
	sites := map[string]int{}
	for _, s := range sys.Sites {
		sites[s.Describe()] = s.ID
	}
	w, r := sites["after x = 1;"], sites["after r1 = y;"]
	an := Analyze(sys, memmodel.ARM)
	for _, tc := range []struct {
		kinds  map[int]cs.FenceKind
		robust bool
	}{
		{map[int]cs.FenceKind{w: cs.StoreFence, r: cs.LoadFence}, true},
		{map[int]cs.FenceKind{w: cs.FullFence, r: cs.FullFence}, true},
		{map[int]cs.FenceKind{w: cs.LoadFence, r: cs.LoadFence}, false},
		{map[int]cs.FenceKind{w: cs.StoreFence, r: cs.StoreFence}, false},
		{map[int]cs.FenceKind{w: cs.StoreFence}, false},
		{map[int]cs.FenceKind{r: cs.LoadFence}, false},
		{map[int]cs.FenceKind{w: cs.ReleaseFence, r: cs.MaskFence(cs.LoadLoad)}, true},
	} {
		if ok, p := an.RobustFences(tc.kinds); ok != tc.robust {
			t.Errorf("fences %v: robust %v, want %v (%v)", tc.kinds, ok, tc.robust, p)
		}
	}
	if ok, _ := an.Robust(map[int]bool{w: true, r: true}); !ok {
		t.Errorf("full fences at both sites: not robust")
	}
	if ok, _ := an.RobustKinds(map[int]bool{r: true}, map[int]bool{w: true}); !ok {
		t.Errorf("a store fence between the writes and a full one between the reads: not robust")
	}
	if ok, _ := an.RobustKinds(map[int]bool{w: true}, map[int]bool{r: true}); ok {
		t.Errorf("a store fence between the reads: robust")
	}
	// A store fence written in the program, a full fence installed.
	if ok, _ := Analyze(sys.WithFenceKinds(map[int]cs.FenceKind{w: cs.StoreFence}), memmodel.ARM).Robust(map[int]bool{r: true}); !ok {
		t.Errorf("fence store; in the program and a full fence installed: not robust")
	}
}

// A chain of preserved order cuts a pair: x = 1 then a release write then
// an acquire read keeps x = 1 before the read under arm (po;[L] then
// [L];po;[A]), not under riscv (plain loads and stores are not RCsc) nor
// rmo.
func TestWeakChain(t *testing.T) {
	sys := parseSrc(t, `shared x, y, z;
process A { local r; x = 1; release z = 1; acquire r = y; }
process B { local s; y = 1; fence; s = x; }
`)
	for _, tc := range []struct {
		m      memmodel.Model
		robust bool
	}{{memmodel.ARM, true}, {memmodel.RISCV, false}, {memmodel.RMO, false}} {
		an := Analyze(sys, tc.m)
		ok, p := an.Robust(nil)
		if ok != tc.robust {
			t.Errorf("%s: robust %v, want %v (%v)", tc.m, ok, tc.robust, p)
		}
	}
}

// Fence kinds on paths: the pair is cut only when every path passes a
// fence that keeps its kinds.
func TestWeakCutOnEveryPath(t *testing.T) {
	for _, tc := range []struct {
		src    string
		robust bool
	}{
		{`shared x, y, c;
process W { local k; x = 1; k = c; if (k == 0) { fence store; } y = 1; }
process R { local r1, r2; r1 = y; fence load; r2 = x; }
`, false},
		{`shared x, y, c;
process W { local k; x = 1; k = c; if (k == 0) { fence store; } else { fence; } y = 1; }
process R { local r1, r2; r1 = y; fence load; r2 = x; }
`, true},
	} {
		sys := parseSrc(t, tc.src)
		if ok, _ := Analyze(sys, memmodel.ARM).Robust(nil); ok != tc.robust {
			t.Errorf("robust %v, want %v:\n%s", ok, tc.robust, tc.src)
		}
	}
}

// setAtomicAnn gives every atomic step of sys the annotation a (a .cs
// atomic step is seq_cst, Acquire|Release; a reader's relaxed RMW has 0).
func setAtomicAnn(sys *cs.System, a cs.Ann) {
	for _, p := range sys.Procs {
		for i := range p.Edges {
			if p.Edges[i].Op.Kind == cs.OpAtomic {
				p.Edges[i].Op.Ann = a
			}
		}
	}
}

// An atomic step orders by its annotation only under the weak models: a
// .cs atomic step (seq_cst: Acquire|Release) keeps everything around it,
// a relaxed one nothing; under TSO any atomic step drains the buffer.
func TestWeakAtomicStep(t *testing.T) {
	src := `shared x, y, z;
process A { local r; x = 1; atomic { z = z + 1; } r = y; }
process B { local s; y = 1; fence; s = x; }
`
	sys := parseSrc(t, src)
	for _, m := range append([]memmodel.Model{memmodel.TSO}, weakModels...) {
		if ok, p := Analyze(sys, m).Robust(nil); !ok {
			t.Errorf("%s: a seq_cst atomic step does not cut: %s", m, Analyze(sys, m).Describe(p.Cycle))
		}
	}
	setAtomicAnn(sys, 0)
	if ok, _ := Analyze(sys, memmodel.TSO).Robust(nil); !ok {
		t.Errorf("TSO: a relaxed atomic step does not cut")
	}
	for _, m := range weakModels {
		if ok, _ := Analyze(sys, m).Robust(nil); ok {
			t.Errorf("%s: a relaxed atomic step cuts", m)
		}
	}
	// Release only: x = 1 stays before the step, r = y may pass it.
	setAtomicAnn(sys, cs.Release)
	if ok, _ := Analyze(sys, memmodel.ARM).Robust(nil); ok {
		t.Errorf("arm: a release atomic step keeps a later read after it")
	}
}

// Two instances of one relaxed atomic step in a loop are two events: the
// write of one and the read of the next form a relaxed pair.
func TestWeakAtomicLoop(t *testing.T) {
	sys := parseSrc(t, `shared x, y;
process A { local r; while (1) { atomic { r = x; y = 1; } } }
process B { x = 1; fence; y = 2; }
`)
	setAtomicAnn(sys, 0)
	an := Analyze(sys, memmodel.ARM)
	found := false
	for _, p := range an.Critical {
		a, b := an.Graph.Acc[p.A], an.Graph.Acc[p.B]
		if a.Edge == b.Edge && a.Write && !b.Write {
			if _, ok := an.Graph.FreePath(p.A, p.B, nil); ok {
				found = true
			}
		}
	}
	if !found {
		t.Errorf("no relaxed pair across two instances of the atomic step")
	}
	// Without the loop, the two accesses of one step are one event.
	sys = parseSrc(t, `shared x, y;
process A { local r; atomic { r = x; y = 1; } }
process B { x = 1; fence; y = 2; }
`)
	setAtomicAnn(sys, 0)
	if ok, p := Analyze(sys, memmodel.ARM).Robust(nil); !ok {
		t.Errorf("one atomic step: not robust: %s", Analyze(sys, memmodel.ARM).Describe(p.Cycle))
	}
}

// MinFences under arm on MP: two fences, dmb ishst between the writes and
// dmb ishld between the reads; under the other weak models the cheapest
// kinds that keep write→write and read→read.
func TestWeakMinFences(t *testing.T) {
	sys := parseSrc(t, `shared x, y;
process W { x = 1; y = 1; }
process R { local r1, r2; r1 = y; r2 = x; }
`)
	sites := map[string]int{}
	for _, s := range sys.Sites {
		sites[s.Describe()] = s.ID
	}
	w, r := sites["after x = 1;"], sites["after r1 = y;"]
	for _, tc := range []struct {
		m      memmodel.Model
		ww, rr cs.FenceKind
	}{
		{memmodel.ARM, cs.StoreFence, cs.LoadFence},
		{memmodel.RISCV, cs.StoreFence, cs.LoadFence},
		{memmodel.RMO, cs.StoreFence, cs.MaskFence(cs.LoadLoad)},
	} {
		an := Analyze(sys, tc.m)
		fs, err := an.MinFences()
		if err != nil {
			t.Fatal(err)
		}
		if !fs.Minimal || !slices.Equal(fs.Sites, []int{w, r}) {
			t.Fatalf("%s: sites %v (%v), minimal %v, want %v", tc.m, siteTexts(sys, fs.Sites), fs.Sites, fs.Minimal, []int{w, r})
		}
		if fs.Kinds[w] != tc.ww || fs.Kinds[r] != tc.rr {
			t.Errorf("%s: kinds %v, want %v after x = 1 and %v after r1 = y", tc.m, fs.Kinds, tc.ww, tc.rr)
		}
		els := fs.Elements()
		if len(els) != 2 || els[0].Site != w || els[0].Kind != tc.ww || els[1].Site != r || els[1].Kind != tc.rr {
			t.Errorf("%s: elements %v", tc.m, els)
		}
		if ok, p := an.RobustFences(fs.Kinds); !ok {
			t.Errorf("%s: not robust with its fences: %s", tc.m, an.Describe(p.Cycle))
		}
		if ok, _ := Analyze(sys.WithFenceKinds(fs.Kinds), tc.m).Robust(nil); !ok {
			t.Errorf("%s: the program with its fences written is not robust", tc.m)
		}
	}
	// TSO: nothing to do; PSO: one full fence between the writes, as before.
	if fs, err := Analyze(sys, memmodel.TSO).MinFences(); err != nil || len(fs.Sites) != 0 || fs.Kinds != nil {
		t.Errorf("TSO: %v %v", fs, err)
	}
	if fs, err := Analyze(sys, memmodel.PSO).MinFences(); err != nil || !slices.Equal(fs.Sites, []int{w}) || fs.Kinds != nil {
		t.Errorf("PSO: %v %v", fs, err)
	}
}

// SB under the weak models needs a full fence after each write (store→load
// order): the cheapest barrier that keeps write→read.
func TestWeakMinFencesSB(t *testing.T) {
	sys := parseSrc(t, `shared x, y;
process A { local r1; x = 1; r1 = y; }
process B { local r2; y = 1; r2 = x; }
`)
	for _, m := range weakModels {
		an := Analyze(sys, m)
		fs, err := an.MinFences()
		if err != nil {
			t.Fatal(err)
		}
		if len(fs.Sites) != 2 {
			t.Fatalf("%s: sites %v", m, siteTexts(sys, fs.Sites))
		}
		for _, s := range fs.Sites {
			if k := fs.Kinds[s]; !k.Keeps(cs.OpWrite, cs.OpRead) {
				t.Errorf("%s: a %v fence %s", m, k, sys.Sites[s].Describe())
			}
		}
		want := cs.FullFence
		if m == memmodel.RMO {
			want = cs.MaskFence(cs.StoreLoad)
		}
		if k := fs.Kinds[fs.Sites[0]]; k != want {
			t.Errorf("%s: kind %v, want %v", m, k, want)
		}
		if ok, _ := an.RobustFences(fs.Kinds); !ok {
			t.Errorf("%s: not robust with its fences", m)
		}
	}
}

// Every benchmark under the weak models: MinFences makes it robust, the
// program with its fences written in is robust, and the weak models never
// find fewer critical pairs than PSO (they relax more).
func TestWeakBenchmarks(t *testing.T) {
	for _, f := range benchFiles(t) {
		sys := parseFile(t, f)
		pso := Analyze(sys, memmodel.PSO)
		for _, m := range weakModels {
			an := Analyze(sys, m)
			if len(an.Critical) < len(pso.Critical) {
				t.Errorf("%s %s: %d critical pairs, PSO %d", f, m, len(an.Critical), len(pso.Critical))
			}
			if ok, _ := pso.Robust(nil); !ok {
				if ok, _ := an.Robust(nil); ok {
					t.Errorf("%s: robust under %s, not under PSO", f, m)
				}
			}
			if testing.Short() {
				continue
			}
			fs, err := an.MinFences()
			if errors.Is(err, ErrUncuttable) {
				// A pair with no site between its accesses on some path:
				// Peterson's two reads in one loop condition. Even full
				// fences everywhere leave it relaxed.
				all := map[int]bool{}
				for _, s := range sys.Sites {
					all[s.ID] = true
				}
				if ok, _ := an.Robust(all); ok {
					t.Errorf("%s %s: uncuttable, but full fences everywhere make it robust", f, m)
				}
				continue
			}
			if err != nil {
				t.Errorf("%s %s: %v", f, m, err)
				continue
			}
			if ok, p := an.RobustFences(fs.Kinds); !ok {
				t.Errorf("%s %s: not robust with %v: %s", f, m, fs.Elements(), an.Describe(p.Cycle))
			}
		}
	}
}

func benchFiles(t *testing.T) []string {
	t.Helper()
	var out []string
	for _, g := range []string{"../benchmarks/*.cs", "../benchmarks/litmus/*.cs"} {
		fs, err := filepath.Glob(g)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, fs...)
	}
	return out
}
