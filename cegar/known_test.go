package cegar

import (
	"slices"
	"testing"

	"fencer/cs"
	"fencer/fences"
	"fencer/memmodel"
)

// known lists, of the clean parts, those whose fences the fence set
// includes, drops a part with tails once an exploration missed a tail
// write, and keeps only the parts no other contains.
func TestKnownCleanParts(t *testing.T) {
	sys := &cs.System{Procs: []*cs.Process{{Name: "P[0]"}, {Name: "P[1]"}, {Name: "P[2]"}, {Name: "P[3]"}}}
	f1, f2 := fences.Element{Site: 1}, fences.Element{Site: 2}
	clean := func(active int, exactOnly bool, k int, fs []fences.Element, states int) cleanPart {
		return cleanPart{part: part{active: active, exactOnly: exactOnly}, k: k, fences: fs, run: partRun{states: states}}
	}
	e := &engine{opt: Options{Model: memmodel.TSO}, clean: []cleanPart{
		clean(2, true, 3, nil, 10),                  // inside the next one
		clean(2, false, 1, nil, 20),                 // kept
		clean(3, true, 1, []fences.Element{f1}, 30), // inside the next one (same fences or fewer, a larger bound)
		clean(3, true, 2, nil, 40),                  // kept
		clean(3, true, 2, []fences.Element{f2}, 50), // a fence outside the set: dropped
		clean(0, true, 1, []fences.Element{f1}, 60), // kept: every process moves
	}}
	names := func(xs []Explored) (out []int) {
		for _, x := range xs {
			out = append(out, x.States)
		}
		return out
	}
	o := &outcome{}
	k := e.known(sys, o, []fences.Element{f1})
	if got := names(k.Clean); !slices.Equal(got, []int{20, 40, 60}) {
		t.Fatalf("clean parts %v, want the states of 20, 40, 60", got)
	}
	if x := k.Clean[1]; !slices.Equal(x.Processes, []string{"P[0]", "P[1]", "P[2]"}) || x.MaxBuffered != 2 || x.Fenced {
		t.Errorf("part %+v", x)
	}
	if x := k.Clean[2]; x.Processes != nil || x.MaxBuffered != 1 || !x.Fenced {
		t.Errorf("part %+v", x)
	}
	if k.Stopped != nil {
		t.Errorf("stopped %+v outside an exploration", k.Stopped)
	}
	// After a miss the part with tails proves nothing; the exact-only one
	// it contained is listed again.
	e.missed = true
	if got := names(e.known(sys, o, []fences.Element{f1}).Clean); !slices.Equal(got, []int{10, 40, 60}) {
		t.Errorf("clean parts after a miss %v, want the states of 10, 40, 60", got)
	}
	// The stopped exploration is the last one noted, when the loop
	// stopped in a search and the engine's last run is it.
	e.lastRun = &exploredRun{part: part{active: 3}, k: 1, states: 70}
	e.last = partRun{states: 70}
	o.stoppedInSearch = true
	if s := e.known(sys, o, nil).Stopped; s == nil || s.States != 70 || len(s.Processes) != 3 || s.MaxBuffered != 0 {
		t.Errorf("stopped %+v", s)
	}
	e.last = partRun{} // an exploration that stopped before it stored a state
	if s := e.known(sys, o, nil).Stopped; s != nil {
		t.Errorf("stopped %+v, noted by an earlier exploration", s)
	}
}
