package cegar

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"fencer/cs"
	"fencer/internal/progen"
	"fencer/litmus"
)

func parseCS(t *testing.T, src string) *cs.System {
	t.Helper()
	sys, err := cs.Parse("t.cs", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	return sys
}

// groupProcs returns the process permutations of g, as strings.
func groupProcs(g *group) map[string]bool {
	out := map[string]bool{}
	if g == nil {
		return out
	}
	for _, a := range g.elems {
		out[fmt.Sprint(a.proc)] = true
	}
	return out
}

func TestGroupRingWrittenOut(t *testing.T) {
	for n := 3; n <= 6; n++ {
		g := findGroup(parseCS(t, progen.SBRing(n, nil)))
		got := groupProcs(g)
		if len(got) != n-1 {
			t.Fatalf("n=%d: %d automorphisms %v, want the %d rotations", n, len(got), got, n-1)
		}
		for r := 1; r < n; r++ {
			p := make([]int, n)
			for i := range p {
				p[i] = (i + r) % n
			}
			if !got[fmt.Sprint(p)] {
				t.Errorf("n=%d: rotation %v missing from %v", n, p, got)
			}
		}
		// The renaming of a rotation by one: x_i -> x_{i+1}, Q_i's r -> Q_{i+1}'s.
		for _, a := range g.elems {
			if a.proc[0] != 1 {
				continue
			}
			if a.vars["x0"] != "x1" || a.vars[fmt.Sprintf("x%d", n-1)] != "x0" || a.vars["Q0.r"] != "Q1.r" {
				t.Errorf("n=%d: renaming %v", n, a.vars)
			}
		}
	}
}

func TestGroupTemplate(t *testing.T) {
	ring := `const N = 4;
shared flag[N];
process P[i in 0..N-1] {
  local r;
  flag[i] = 1;
  r = flag[(i+1)%N];
  if (r == 0) {
cs: skip;
  }
}
forbidden P[0]@cs, P[1]@cs, P[2]@cs, P[3]@cs;
`
	if got := groupProcs(findGroup(parseCS(t, ring))); len(got) != 3 || !got["[1 2 3 0]"] || !got["[3 0 1 2]"] {
		t.Errorf("ring of 4: %v, want the 3 rotations", got)
	}
	// No order of the indices: the symmetric group (4! - 1 elements).
	sym := `const N = 4;
shared flag[N], lock;
process P[i in 0..N-1] {
  local r;
  flag[i] = 1;
  r = lock;
  if (r == 0) {
cs: skip;
  }
}
mutex cs;
`
	if got := groupProcs(findGroup(parseCS(t, sym))); len(got) != 23 {
		t.Errorf("symmetric template of 4: %d automorphisms, want 23", len(got))
	}
	// Six instances of it: more than maxGroup, the rotations only.
	six := strings.Replace(sym, "const N = 4", "const N = 6", 1)
	if got := groupProcs(findGroup(parseCS(t, six))); len(got) != 5 || !got["[1 2 3 4 5 0]"] {
		t.Errorf("symmetric template of 6: %v, want the 5 rotations", got)
	}
}

// Programs that are not symmetric: no automorphism but the identity.
func TestGroupAsymmetric(t *testing.T) {
	cases := map[string]string{
		"constant": progen.SBRing(4, func(i int, body string) string {
			if i == 2 {
				return strings.Replace(body, "x2 = 1", "x2 = 2", 1)
			}
			return body
		}),
		"local init": progen.SBRing(4, func(i int, body string) string {
			if i == 1 {
				return strings.Replace(body, "local r;", "local r = 1;", 1)
			}
			return body
		}),
		"shared init": strings.Replace(progen.SBRing(4, nil), "x3;", "x3 = 1;", 1),
		"bad state":   strings.Replace(progen.SBRing(4, nil), "forbidden Q0@cs, Q1@cs, Q2@cs, Q3@cs;", "forbidden Q0@cs, Q1@cs;", 1),
		"index order": `const N = 3;
shared flag[N];
process P[i in 0..N-1] {
  local r;
  flag[i] = 1;
  for (j in 0..N-1) {
    if (j < i) { r = flag[j]; }
  }
cs: skip;
}
forbidden P[0]@cs, P[1]@cs, P[2]@cs;
`,
	}
	for name, src := range cases {
		if g := findGroup(parseCS(t, src)); g != nil {
			t.Errorf("%s: %d automorphisms, e.g. %v", name, len(g.elems), g.elems[0].proc)
		}
	}
	// A bad state invariant under a part of the rotations only: Q0 and Q2
	// at cs, or Q1 and Q3 (rotation by two, by one, by three all keep it).
	half := strings.Replace(progen.SBRing(4, nil), "forbidden Q0@cs, Q1@cs, Q2@cs, Q3@cs;", "forbidden Q0@cs, Q2@cs;\nforbidden Q1@cs, Q3@cs;", 1)
	if got := groupProcs(findGroup(parseCS(t, half))); len(got) != 3 {
		t.Errorf("two bad pairs: %v, want 3 rotations", got)
	}
	only := strings.Replace(progen.SBRing(4, nil), "forbidden Q0@cs, Q1@cs, Q2@cs, Q3@cs;", "forbidden Q0@cs, Q2@cs;", 1)
	if got := groupProcs(findGroup(parseCS(t, only))); len(got) != 1 || !got["[2 3 0 1]"] {
		t.Errorf("one bad pair: %v, want the rotation by two", got)
	}
}

// A litmus test of n threads written as columns is found symmetric, and
// its fence sites are mapped process to process.
func TestGroupLitmus(t *testing.T) {
	file := filepath.Join("..", "benchmarks", "litmus", "x86", "3sb.litmus")
	src, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	sys, err := litmus.Parse(file, src)
	if err != nil {
		t.Fatal(err)
	}
	g := findGroup(sys)
	if got := groupProcs(g); len(got) != 2 || !got["[1 2 0]"] {
		t.Fatalf("3sb.litmus: %v, want the rotations", got)
	}
	// The site after each thread's write goes to the image thread's.
	after := func(p int) int { return sys.Procs[p].Edges[0].Points[0] }
	for _, a := range g.elems {
		for p := range sys.Procs {
			if got, want := a.sites[after(p)], after(a.proc[p]); got != want {
				t.Errorf("%v maps the site after P%d's write to %d, want %d", a.proc, p, got, want)
			}
		}
	}
}

// badWithPrefix: the ring needs every process at cs; a mutex is bad with
// two; an assert makes any prefix that holds its process a candidate.
func TestBadWithPrefix(t *testing.T) {
	ring := parseCS(t, progen.SBRing(4, nil))
	for m := 1; m < 4; m++ {
		if badWithPrefix(ring, m) {
			t.Errorf("ring of 4: bad with the first %d processes", m)
		}
	}
	if !badWithPrefix(ring, 4) {
		t.Errorf("ring of 4: not bad with all four")
	}
	mutex := parseCS(t, "shared x;\nprocess P[i in 0..2] {\n  x = i;\ncs: skip;\n}\nmutex cs;\n")
	if badWithPrefix(mutex, 1) || !badWithPrefix(mutex, 2) {
		t.Errorf("mutex of 3: bad with 1 %v, with 2 %v; want false, true", badWithPrefix(mutex, 1), badWithPrefix(mutex, 2))
	}
	assert := parseCS(t, "shared x;\nprocess A { x = 1; }\nprocess B { local r; r = x; assert(r == 0); }\nprocess C { x = 2; }\n")
	if badWithPrefix(assert, 1) || !badWithPrefix(assert, 2) {
		t.Errorf("assert in the second process: bad with 1 %v, with 2 %v; want false, true", badWithPrefix(assert, 1), badWithPrefix(assert, 2))
	}
}
