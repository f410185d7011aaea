package domains

import (
	"os"
	"slices"
	"testing"

	"fencer/cs"
)

// TestLocalSkeleton: every arc of the skeleton of each process of the
// Burns lock written with a restart flag is a step from its node's values
// (skelStep gives the target's values, dead locals 0), so a node's values
// are not changed by the arcs made from it; and the flag's loop is no
// cycle: no arc by the loop's exit assume leaves a node where the flag is 1.
func TestLocalSkeleton(t *testing.T) {
	src, err := os.ReadFile("../benchmarks/scale/forms/burns_loops.cs")
	if err != nil {
		t.Fatal(err)
	}
	sys, err := cs.ParseWith("burns_loops.cs", src, cs.Options{Consts: map[string]int64{"N": 3}})
	if err != nil {
		t.Fatal(err)
	}
	in := Analyze(sys)
	for _, p := range sys.Procs {
		sk := in.LocalSkeleton(p)
		if sk == nil {
			t.Fatalf("%s: no skeleton", p.Name)
		}
		idx := map[string]int{}
		var doms [][]int64
		for i, v := range sk.Vars {
			idx[v] = i
			doms = append(doms, in.dom[v])
		}
		again := slices.Index(sk.Vars, p.Name+".again")
		if again < 0 {
			t.Fatalf("%s: again is not tracked: %v", p.Name, sk.Vars)
		}
		for _, a := range sk.Arcs {
			e := p.Edges[a.Edge]
			found := false
			for _, v := range skelStep(e.Op, idx, doms, [][]int64{slices.Clone(sk.vals[a.From])}) {
				n, ok, _ := sk.Node(e.To, zeroDead(p, sk, e.To, v), nil)
				found = found || ok && n == a.To
			}
			if !found {
				t.Errorf("%s: arc %d -> %d by %v is no step from %v", p.Name, a.From, a.To, e.Op, sk.vals[a.From])
			}
			if e.Op.Kind == cs.OpAssume && e.Op.Val.String() == "!("+p.Name+".again == 1)" && sk.vals[a.From][again] == 1 {
				t.Errorf("%s: the loop exits with again = 1", p.Name)
			}
		}
	}
}

// zeroDead returns v with the tracked locals dead at loc set to 0.
func zeroDead(p *cs.Process, sk *LocalSkeleton, loc cs.Loc, v []int64) []int64 {
	live := p.Live()[loc]
	for i, n := range sk.Vars {
		if !live[n] {
			v[i] = 0
		}
	}
	return v
}
