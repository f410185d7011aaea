package cegar

import (
	"fmt"
	"math/rand"
	"strings"
)

// genProgram writes a random loop-free .cs program: 2–3 processes over 1–4
// shared variables, with writes, reads, if/else, assume, atomics and now and
// then a fence, and a property (a forbidden combination of end labels, or an
// assert). The same seed gives the same program.
func genProgram(seed int64) string {
	r := rand.New(rand.NewSource(seed))
	nShared := 2 + r.Intn(3)
	nProcs := 2 + r.Intn(2)
	if r.Intn(3) > 0 {
		nProcs = 2
	}
	var b strings.Builder
	fmt.Fprintf(&b, "// generated, seed %d\n", seed)
	var sh []string
	for i := 0; i < nShared; i++ {
		sh = append(sh, fmt.Sprintf("x%d", i))
	}
	fmt.Fprintf(&b, "shared %s;\n", strings.Join(sh, ", "))
	useAssert := r.Intn(5) == 0
	sbShape := r.Intn(3) > 0
	assertProc := r.Intn(nProcs)
	for p := 0; p < nProcs; p++ {
		g := &gen{r: r, shared: sh, b: &b, locals: []string{"r0", "r1"}}
		fmt.Fprintf(&b, "process P%d {\n  local r0, r1;\n", p)
		if sbShape {
			// a store-buffering shape: write one's own variable, read the next one's
			x, y := sh[p%len(sh)], sh[(p+1)%len(sh)]
			g.line(1, "%s = %d;", x, 1+r.Intn(2))
			g.line(1, "r0 = %s;", y)
			if r.Intn(4) > 0 {
				g.locals = []string{"r1"} // keep the read's value for the property
			}
		}
		n := 1 + r.Intn(4)
		for i := 0; i < n; i++ {
			g.stmt(1, 1)
		}
		switch {
		case useAssert && p == assertProc:
			fmt.Fprintf(&b, "  assert(%s);\n", g.cond())
		case sbShape && r.Intn(4) > 0 || r.Intn(2) == 0:
			// the store-buffering outcome: the read saw the initial value
			fmt.Fprintf(&b, "  assume(r0 == 0);\nend: skip;\n")
		default:
			fmt.Fprintf(&b, "  assume(%s);\nend: skip;\n", g.cond())
		}
		b.WriteString("}\n")
	}
	if !useAssert || nProcs > 1 {
		var parts []string
		for p := 0; p < nProcs; p++ {
			if useAssert && p == assertProc {
				continue
			}
			parts = append(parts, fmt.Sprintf("P%d@end", p))
		}
		if !useAssert || r.Intn(2) == 0 {
			fmt.Fprintf(&b, "forbidden %s;\n", strings.Join(parts, ", "))
		}
	}
	return b.String()
}

type gen struct {
	r      *rand.Rand
	shared []string
	b      *strings.Builder
	locals []string // the locals statements may assign
}

func (g *gen) x() string   { return g.shared[g.r.Intn(len(g.shared))] }
func (g *gen) loc() string { return g.locals[g.r.Intn(len(g.locals))] }
func (g *gen) c() int      { return g.r.Intn(3) }

func (g *gen) val() string {
	switch g.r.Intn(4) {
	case 0:
		return g.loc()
	case 1:
		return fmt.Sprintf("%s + %d", g.loc(), 1+g.r.Intn(2))
	}
	return fmt.Sprint(1 + g.r.Intn(2))
}

func (g *gen) cond() string {
	ops := []string{"==", "!=", "<=", ">"}
	return fmt.Sprintf("%s %s %d", g.loc(), ops[g.r.Intn(len(ops))], g.c())
}

func (g *gen) line(depth int, format string, args ...any) {
	g.b.WriteString(strings.Repeat("  ", depth) + fmt.Sprintf(format, args...) + "\n")
}

func (g *gen) stmt(depth, budget int) {
	switch k := g.r.Intn(20); {
	case k < 7:
		g.line(depth, "%s = %s;", g.x(), g.val())
	case k < 13:
		g.line(depth, "%s = %s;", g.loc(), g.x())
	case k < 14 && budget > 0:
		g.line(depth, "if (%s) {", g.cond())
		g.stmt(depth+1, budget-1)
		g.line(depth, "} else {")
		g.stmt(depth+1, budget-1)
		g.line(depth, "}")
	case k < 15:
		g.line(depth, "assume(%s);", g.cond())
	case k < 16:
		g.line(depth, "%s = fetch_add(%s, 1);", g.loc(), g.x())
	case k < 17:
		g.line(depth, "%s = cas(%s, %d, %d);", g.loc(), g.x(), g.c(), g.c())
	case k < 18:
		g.line(depth, "%s = swap(%s, %d);", g.loc(), g.x(), g.c())
	case k < 19:
		g.line(depth, "atomic { %s = %s; %s = %s + 1; }", g.loc(), g.x(), g.x(), g.loc())
	default:
		g.line(depth, "%s = %s + 1;", g.loc(), g.loc())
	}
}
