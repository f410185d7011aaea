package progen

import (
	"fmt"
	"math/rand"
	"strings"
)

// Accesses writes a random .cs program for robust's differential suite: 2–3
// processes over 2–3 shared variables with writes, reads, fences, atomic
// forms, if/else and bounded while loops (a local counter, so the explicit
// checker's state space stays finite while the automaton has a back edge).
// Some processes only write or only read, which makes robust programs
// common. The same seed gives the same program.
func Accesses(seed int64) string {
	r := rand.New(rand.NewSource(seed))
	nShared := 2 + r.Intn(2)
	nProcs := 2
	if r.Intn(4) == 0 {
		nProcs = 3
	}
	var b strings.Builder
	fmt.Fprintf(&b, "// generated, seed %d\n", seed)
	var sh []string
	for i := 0; i < nShared; i++ {
		sh = append(sh, fmt.Sprintf("x%d", i))
	}
	fmt.Fprintf(&b, "shared %s;\n", strings.Join(sh, ", "))
	for p := 0; p < nProcs; p++ {
		g := &accessGen{gen: gen{r: r, shared: sh, b: &b}, mode: r.Intn(4)}
		fmt.Fprintf(&b, "process P%d {\n  local r0, r1, c0, c1;\n", p)
		n := 2 + r.Intn(3)
		for i := 0; i < n; i++ {
			g.stmt(1, 2)
		}
		b.WriteString("}\n")
	}
	return b.String()
}

// accessGen writes the statements of one process of Accesses: Program's
// gen (its shared variables, x and line) with the statement mix of this
// shape.
type accessGen struct {
	gen
	mode  int // 0: writes only, 1: reads only, else both
	loops int
}

func (g *accessGen) loc() string { return []string{"r0", "r1"}[g.r.Intn(2)] }

func (g *accessGen) val() string {
	switch g.r.Intn(3) {
	case 0:
		return g.loc()
	case 1:
		return g.loc() + " + 1"
	}
	return fmt.Sprint(1 + g.r.Intn(2))
}

func (g *accessGen) cond() string {
	ops := []string{"==", "!=", "<="}
	return fmt.Sprintf("%s %s %d", g.loc(), ops[g.r.Intn(len(ops))], g.r.Intn(2))
}

func (g *accessGen) stmt(depth, budget int) {
	k := g.r.Intn(20)
	switch {
	case g.mode == 0 && k < 10, g.mode > 1 && k < 6:
		g.line(depth, "%s = %s;", g.x(), g.val())
	case g.mode == 1 && k < 10, g.mode > 1 && k < 11:
		g.line(depth, "%s = %s;", g.loc(), g.x())
	case k < 12:
		g.line(depth, "fence;")
	case k < 14 && budget > 0:
		g.line(depth, "if (%s) {", g.cond())
		g.stmt(depth+1, budget-1)
		g.line(depth, "} else {")
		g.stmt(depth+1, budget-1)
		g.line(depth, "}")
	case k < 16 && budget > 0 && g.loops < 2:
		c := fmt.Sprintf("c%d", g.loops)
		g.loops++
		g.line(depth, "%s = 0;", c)
		g.line(depth, "while (%s < 2) {", c)
		g.stmt(depth+1, budget-1)
		g.stmt(depth+1, budget-1)
		g.line(depth+1, "%s = %s + 1;", c, c)
		g.line(depth, "}")
	case k < 17:
		g.line(depth, "%s = fetch_add(%s, 1);", g.loc(), g.x())
	case k < 18:
		g.line(depth, "%s = swap(%s, %d);", g.loc(), g.x(), g.r.Intn(2))
	case k < 19 && g.r.Intn(2) == 0:
		g.line(depth, "%s = cas(%s, 0, 1);", g.loc(), g.x())
	case k < 19:
		// a locked step over two variables: entered through one, left
		// through the other
		g.line(depth, "atomic { %s = %s; %s = %s + 1; }", g.loc(), g.x(), g.x(), g.loc())
	default:
		g.line(depth, "%s = %s;", g.x(), g.val())
	}
}
