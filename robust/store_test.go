package robust

import (
	"testing"

	"fencer/cs"
	"fencer/memmodel"
)

// A store fence cuts the write→write pairs it lies between and not the
// write→read ones (issue 26, item 7): installed at sites (RobustKinds) or
// written in the program (`fence store;`), with the same answers.
func TestStoreFenceCuts(t *testing.T) {
	mp := `shared x, y;
process W { x = 1; y = 1; }
process R { local a, b; a = y; b = x; assert(!(a == 1 && b == 0)); }
`
	sb := `shared x, y;
process A { local r; x = 1; r = y; }
process B { local s; y = 1; s = x; }
`
	tests := []struct {
		name, src string
		// whether the program is robust under PSO with a store fence
		// after every write
		robust bool
	}{
		{"mp", mp, true},  // W→W: the store fence orders x = 1 before y = 1
		{"sb", sb, false}, // W→R: a store fence lets the read pass
	}
	for _, tc := range tests {
		sys := parseSrc(t, tc.src)
		an := Analyze(sys, memmodel.PSO)
		if ok, _ := an.Robust(nil); ok {
			t.Fatalf("%s: robust under PSO without fences", tc.name)
		}
		store := map[int]bool{}
		for _, s := range sys.Sites {
			store[s.ID] = true
		}
		if ok, _ := an.RobustKinds(nil, store); ok != tc.robust {
			t.Errorf("%s: RobustKinds with store fences everywhere %v, want %v", tc.name, ok, tc.robust)
		}
		kinds := map[int]cs.FenceKind{}
		for id := range store {
			kinds[id] = cs.StoreFence
		}
		if ok, _ := Analyze(sys.WithFenceKinds(kinds), memmodel.PSO).Robust(nil); ok != tc.robust {
			t.Errorf("%s: the program with fence store; everywhere robust %v, want %v", tc.name, ok, tc.robust)
		}
		// A full fence cuts both kinds.
		if ok, _ := an.RobustKinds(store, nil); !ok {
			t.Errorf("%s: not robust with full fences everywhere", tc.name)
		}
	}
}

// The seqlock of benchmarks/seqlock.cs under PSO: store fences after the
// odd seq write and after y = v (the two sites insert chooses) make it
// robust; either one alone does not.
func TestStoreFenceSeqlock(t *testing.T) {
	sys := parseFile(t, "../benchmarks/seqlock.cs")
	an := Analyze(sys, memmodel.PSO)
	sites := map[string]int{}
	for _, s := range sys.Sites {
		sites[s.Describe()] = s.ID
	}
	odd, okOdd := sites["after seq = s + 1;"]
	rec, okRec := sites["after y = v;"]
	if !okOdd || !okRec {
		t.Fatalf("sites %v", sites)
	}
	for _, tc := range []struct {
		store  []int
		robust bool
	}{{[]int{odd, rec}, true}, {[]int{odd}, false}, {[]int{rec}, false}, {nil, false}} {
		store := map[int]bool{}
		for _, s := range tc.store {
			store[s] = true
		}
		if ok, p := an.RobustKinds(nil, store); ok != tc.robust {
			t.Errorf("store fences at %v: robust %v, want %v (%v)", siteTexts(sys, tc.store), ok, tc.robust, p)
		}
	}
}
