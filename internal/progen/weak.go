package progen

import (
	"fmt"
	"math/rand"
	"strings"
)

// Weak writes a random loop-free .cs program for the differential suite of
// the axiomatic models (arm, riscv, rmo): 2–3 processes over 2–3 shared
// variables, each a few reads and writes, with barriers of every kind
// (fence; fence load; fence store; fence release; fence tso; membar
// masks), acquire reads and release writes, data dependencies (a write of
// a value read), control dependencies (an if on a value read) and
// read-modify-writes of one variable; the property is an assert over the
// values each process read, so that the shapes of litmus tests (MP, SB,
// LB, WRC, IRIW, 2+2W and their mixes) come up. The same seed gives the
// same program.
func Weak(seed int64) string {
	r := rand.New(rand.NewSource(seed))
	nShared := 2 + r.Intn(2)
	nProcs := 2
	if r.Intn(3) == 0 {
		nProcs = 3
	}
	var b strings.Builder
	fmt.Fprintf(&b, "// generated, seed %d\n", seed)
	var sh []string
	for i := 0; i < nShared; i++ {
		sh = append(sh, fmt.Sprintf("x%d", i))
	}
	fmt.Fprintf(&b, "shared %s;\n", strings.Join(sh, ", "))
	var conds []string
	for p := 0; p < nProcs; p++ {
		g := &weakGen{r: r, shared: sh, b: &b, p: p}
		fmt.Fprintf(&b, "process P%d {\n  local r0, r1, r2;\n", p)
		n := 2 + r.Intn(3)
		for i := 0; i < n; i++ {
			g.stmt()
		}
		if len(g.reads) > 0 {
			// the last reads' values: a bad outcome to look for
			var cs []string
			for _, rd := range g.reads {
				cs = append(cs, fmt.Sprintf("%s == %d", rd, r.Intn(3)))
			}
			fmt.Fprintf(&b, "  assume(%s);\nend%d: skip;\n", strings.Join(cs, " && "), p)
			conds = append(conds, fmt.Sprintf("P%d@end%d", p, p))
		}
		b.WriteString("}\n")
	}
	if len(conds) > 0 {
		fmt.Fprintf(&b, "forbidden %s;\n", strings.Join(conds, ", "))
	}
	return b.String()
}

type weakGen struct {
	r      *rand.Rand
	shared []string
	b      *strings.Builder
	p      int
	reads  []string // locals that hold a read value
	nread  int
}

func (g *weakGen) x() string { return g.shared[g.r.Intn(len(g.shared))] }

func (g *weakGen) line(format string, args ...any) {
	fmt.Fprintf(g.b, "  "+format+"\n", args...)
}

var weakFences = []string{"fence;", "fence load;", "fence store;", "fence release;", "fence tso;",
	"fence loadload;", "fence storeload;", "fence loadstore storestore;"}

func (g *weakGen) stmt() {
	switch k := g.r.Intn(10); {
	case k < 3: // a write: a constant, or a value read (data dependency)
		ann := ""
		if g.r.Intn(4) == 0 {
			ann = "release "
		}
		val := fmt.Sprint(1 + g.r.Intn(2))
		if len(g.reads) > 0 && g.r.Intn(3) == 0 {
			val = g.reads[g.r.Intn(len(g.reads))]
		}
		if len(g.reads) > 0 && g.r.Intn(4) == 0 {
			// a control dependency
			g.line("if (%s == 1) { %s%s = %s; }", g.reads[g.r.Intn(len(g.reads))], ann, g.x(), val)
			return
		}
		g.line("%s%s = %s;", ann, g.x(), val)
	case k < 6: // a read
		if g.nread == 3 {
			g.line("%s = 1;", g.x())
			return
		}
		loc := fmt.Sprintf("r%d", g.nread)
		g.nread++
		ann := ""
		if g.r.Intn(4) == 0 {
			ann = "acquire "
		}
		g.line("%s%s = %s;", ann, loc, g.x())
		g.reads = append(g.reads, loc)
	case k < 8:
		g.line("%s", weakFences[g.r.Intn(len(weakFences))])
	default: // a read-modify-write
		if g.nread == 3 {
			g.line("fence;")
			return
		}
		loc := fmt.Sprintf("r%d", g.nread)
		g.nread++
		switch g.r.Intn(3) {
		case 0:
			g.line("%s = fetch_add(%s, 1);", loc, g.x())
		case 1:
			g.line("%s = swap(%s, 2);", loc, g.x())
		default:
			g.line("%s = cas(%s, 0, 1);", loc, g.x())
		}
		g.reads = append(g.reads, loc)
	}
}
