package ordview

import (
	"fmt"
	"math/rand"
	"strings"
	"testing"

	"fencer/cs"
	"fencer/internal/refsem"
)

// genProgram writes a small program over counter-like data: 2 or 3
// processes, two shared counters c and d, locals r, s, k, statements that
// copy, move by constants (1 or 2, up and down), set to constants, compare
// (with offsets and constants), fetch_add and cas, in straight-line code,
// branches and compile-time loops, and an assertion or a forbidden
// combination of labels. Every run is finite, so the concrete state space
// is.
func genProgram(rnd *rand.Rand) string {
	var b strings.Builder
	nproc := 2
	if rnd.Intn(4) == 0 {
		nproc = 3
	}
	fmt.Fprintf(&b, "shared c, d = %d;\n", rnd.Intn(2))
	atoms := []string{"r < s", "r == s", "r != 0", "r <= s + 1", "s > r - 2", "r == 2", "s != r + 1", "k < r"}
	stmts := []string{
		"r = c;", "s = d;", "r = d;", "s = c;",
		"c = r + 1;", "d = s + 1;", "c = s - 1;", "d = r + 2;",
		"r = r + 1;", "s = r + 1;", "k = s;", "for (j in 0..4) { r = r + 2; }", "for (j in 0..3) { s = s - 2; }", "for (j in 0..5) { k = k + 1; }",
		"c = 0;", "r = 1;", "d = 2;",
		"k = fetch_add(c, 1);", "k = fetch_add(d, 2);",
		"k = cas(c, r, r + 1);",
	}
	var stmt func(depth int) string
	stmt = func(depth int) string {
		switch x := rnd.Intn(10); {
		case x < 6 || depth > 1:
			return stmts[rnd.Intn(len(stmts))]
		case x < 8:
			return fmt.Sprintf("if (%s) { %s } else { %s }", atoms[rnd.Intn(len(atoms))], stmt(depth+1), stmt(depth+1))
		default:
			return fmt.Sprintf("for (j in 0..1) { %s %s }", stmt(depth+1), stmt(depth+1))
		}
	}
	forbidden := rnd.Intn(2) == 0
	for p := 0; p < nproc; p++ {
		fmt.Fprintf(&b, "process P%d {\n  local r, s, k;\n", p)
		for i, n := 0, 2+rnd.Intn(4); i < n; i++ {
			fmt.Fprintf(&b, "  %s\n", stmt(0))
		}
		if forbidden {
			fmt.Fprintf(&b, "  if (%s) {\nL: skip;\n  }\n", atoms[rnd.Intn(len(atoms))])
		} else if p == 0 {
			fmt.Fprintf(&b, "  assert(!(%s));\n", atoms[rnd.Intn(len(atoms))])
		}
		b.WriteString("}\n")
	}
	if forbidden {
		var ls []string
		for p := 0; p < nproc; p++ {
			ls = append(ls, fmt.Sprintf("P%d@L", p))
		}
		fmt.Fprintf(&b, "forbidden %s;\n", strings.Join(ls, ", "))
	}
	return b.String()
}

// keys canonicalises every state of states with the view of vin and
// returns the set of their keys.
func viewKeys(vin *interp, states map[string]istate) map[string]bool {
	out := map[string]bool{}
	for _, s := range states {
		t := s.clone()
		vin.view(&t)
		out[t.key()] = true
	}
	return out
}

// TestViewAgainstConcrete: on generated programs, under SC and TSO, the
// reachable states of the concrete system, canonicalised, are exactly the
// reachable states of the system explored through the view, whenever that
// exploration met no step that Exact rejects; the verdicts agree, and the
// concrete verdict agrees with the reference semantics (refsem).
func TestViewAgainstConcrete(t *testing.T) {
	n := 25
	if soak() {
		n = 400
	}
	var compared, inexact, shrunk, viewed int
	for seed := 0; seed < n; seed++ {
		rnd := rand.New(rand.NewSource(int64(seed)))
		src := genProgram(rnd)
		sys, err := cs.Parse("gen.cs", []byte(src))
		if err != nil {
			t.Fatalf("seed %d: %v\n%s", seed, err, src)
		}
		base := Analyze(sys)
		viewed += len(base.Classes)
		// The default cap, and the least sound one (E + 1), which cuts
		// more gaps and rejects more steps.
		small := Analyze(sys)
		for _, c := range small.Classes {
			c.Cap = c.Offset + 1
		}
		for _, run := range []struct {
			model string
			info  *Info
		}{{"sc", base}, {"tso", base}, {"sc", small}, {"tso", small}} {
			model, info := run.model, run.info
			tso := model == "tso"
			conc := newInterp(sys, tso, nil)
			cStates, cBad, cDone := conc.explore(10000)
			if conc.err != nil || !cDone {
				continue
			}
			ref, err := refsem.Check([]byte(src), model)
			if err != nil {
				t.Fatalf("seed %d: refsem: %v", seed, err)
			}
			if ref.Complete && ref.Bad != cBad {
				t.Fatalf("seed %d %s: refsem bad=%v, the test's interpreter bad=%v\n%s", seed, model, ref.Bad, cBad, src)
			}
			vin := newInterp(sys, tso, info)
			vStates, vBad, vDone := vin.explore(10000)
			if vin.inexact != "" {
				inexact++
				continue
			}
			if vin.err != nil || !vDone {
				t.Fatalf("seed %d %s: exact view exploration did not finish (%v) where the concrete one did", seed, model, vin.err)
			}
			compared++
			want := viewKeys(newInterp(sys, tso, info), cStates)
			got := map[string]bool{}
			for k := range vStates {
				got[k] = true
			}
			for k := range want {
				if !got[k] {
					t.Fatalf("seed %d %s: canonical form of a concrete state not reached through the view: %s\n%s\nclasses %v", seed, model, k, src, info.Classes)
				}
			}
			for k := range got {
				if !want[k] {
					t.Fatalf("seed %d %s: a state reached through the view is no concrete state's: %s\n%s\nclasses %v", seed, model, k, src, info.Classes)
				}
			}
			if vBad != cBad {
				t.Fatalf("seed %d %s: view bad=%v, concrete bad=%v\n%s", seed, model, vBad, cBad, src)
			}
			if len(vStates) < len(cStates) {
				shrunk++
			}
			if len(vStates) > len(cStates) {
				t.Fatalf("seed %d %s: %d states through the view, %d concrete", seed, model, len(vStates), len(cStates))
			}
		}
	}
	t.Logf("%d programs, %d classes; %d explorations compared (%d with fewer states through the view), %d with an inexact step", n, viewed, compared, shrunk, inexact)
	if compared < n || shrunk == 0 {
		t.Errorf("only %d of %d explorations compared, %d with fewer states", compared, 4*n, shrunk)
	}
}
