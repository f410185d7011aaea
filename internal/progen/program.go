package progen

import (
	"fmt"
	"math/rand"
	"strings"
)

// Program writes a random finite-state .cs program of the kind users
// write: 2–3 processes over 2–4 shared variables, built around a litmus
// shape (store buffering, message passing, a Dekker-style mutex) so that
// many programs need fences, with random statements mixed in: writes,
// reads, nested if/else, assume, atomics, while loops and backward gotos
// bounded by a local counter, forward gotos, and labels on skip and on other
// statements in branches, loop bodies and goto targets. The property is a
// forbidden combination or a mutex over those labels, or an assert. The
// same seed gives the same program.
func Program(seed int64) string {
	r := rand.New(rand.NewSource(seed))
	nShared := 2 + r.Intn(3)
	nProcs := 2
	if r.Intn(6) == 0 {
		nProcs = 3
	}
	nShared = max(nShared, nProcs)
	var sh []string
	for i := 0; i < nShared; i++ {
		sh = append(sh, fmt.Sprintf("x%d", i))
	}
	var b strings.Builder
	fmt.Fprintf(&b, "// generated, seed %d\n", seed)
	fmt.Fprintf(&b, "shared %s;\n", strings.Join(sh, ", "))
	var props []string
	switch k := r.Intn(20); {
	case k < 3:
		props = genTemplate(r, &b, sh)
	case k < 11:
		props = genSB(r, &b, sh, nProcs, r.Intn(3) == 0 && nProcs == 2)
	case k < 16:
		props = genMP(r, &b, sh)
	default:
		props = genFree(r, &b, sh, nProcs)
	}
	for _, p := range props {
		b.WriteString(p + "\n")
	}
	return b.String()
}

// gen writes the statements of one process.
type gen struct {
	r        *rand.Rand
	shared   []string
	b        *strings.Builder
	labels   int      // labels used so far in this process
	counters int      // loop counters c0, c1, ... declared at the end
	marks    []string // labels inside the guarded region (candidates for the property)
	free     []string // other labels
	guarded  bool     // generating inside the guarded region
	small    bool     // three processes: no random statements (the engine is slow on big ones)
	arrays   bool     // in a template: statements over the array a[2] too
}

func newGen(r *rand.Rand, sh []string, b *strings.Builder) *gen {
	return &gen{r: r, shared: sh, b: b}
}

// process writes "process name { local ...; body }": the body is generated
// first because it decides which counters are needed.
func (g *gen) process(name string, body func()) {
	var inner strings.Builder
	out := g.b
	g.b = &inner
	body()
	g.b = out
	locals := []string{"r0", "r1"}
	for k := 0; k < g.counters; k++ {
		locals = append(locals, fmt.Sprintf("c%d", k))
	}
	fmt.Fprintf(g.b, "process %s {\n  local %s;\n%s}\n", name, strings.Join(locals, ", "), inner.String())
}

func (g *gen) x() string { return g.shared[g.r.Intn(len(g.shared))] }
func (g *gen) c() int    { return g.r.Intn(3) }

// val is a value to write: never 0 (the initial value), so that reading 0
// always means "not written yet", as in the litmus shapes.
func (g *gen) val() string {
	if g.r.Intn(2) == 0 {
		return fmt.Sprintf("r1 + %d", 1+g.r.Intn(2))
	}
	return fmt.Sprint(1 + g.r.Intn(2))
}

func (g *gen) cond() string {
	ops := []string{"==", "!=", "<=", ">"}
	loc := "r1"
	if g.r.Intn(3) == 0 {
		loc = "r0"
	}
	return fmt.Sprintf("%s %s %d", loc, ops[g.r.Intn(len(ops))], g.c())
}

func (g *gen) line(depth int, format string, args ...any) {
	g.b.WriteString(strings.Repeat("  ", depth) + fmt.Sprintf(format, args...) + "\n")
}

// label returns a fresh label, recorded as a property candidate when it is
// in the guarded region.
func (g *gen) label() string {
	g.labels++
	l := fmt.Sprintf("l%d", g.labels)
	if g.guarded {
		g.marks = append(g.marks, l)
	} else {
		g.free = append(g.free, l)
	}
	return l
}

func (g *gen) counter() string {
	g.counters++
	return fmt.Sprintf("c%d", g.counters-1)
}

// block writes n random statements at depth; budget bounds the nesting.
func (g *gen) block(depth, n, budget int) {
	if g.small {
		return
	}
	for i := 0; i < n; i++ {
		g.stmt(depth, budget)
	}
}

// stmt writes one random statement (possibly compound).
func (g *gen) stmt(depth, budget int) {
	switch k := g.r.Intn(32); {
	case k < 7:
		g.line(depth, "%s = %s;", g.x(), g.val())
	case k < 8:
		if g.arrays && g.r.Intn(2) == 0 {
			g.line(depth, "for (k in 0..1) a[k] = %s;", g.val())
		} else {
			g.line(depth, "fence;")
		}
	case k < 14:
		if g.arrays && g.r.Intn(3) == 0 {
			g.line(depth, "r1 = a[1 - i];")
		} else {
			g.line(depth, "r1 = %s;", g.x())
		}
	case k < 16 && budget > 0:
		g.line(depth, "if (%s) {", g.cond())
		g.block(depth+1, 1+g.r.Intn(2), budget-1)
		if g.r.Intn(2) == 0 {
			g.line(depth, "} else {")
			g.block(depth+1, 1, budget-1)
		}
		g.line(depth, "}")
	case k < 17:
		g.line(depth, "assume(%s);", g.cond())
	case k < 18:
		g.line(depth, "r1 = fetch_add(%s, 1);", g.x())
	case k < 19:
		g.line(depth, "r1 = cas(%s, %d, %d);", g.x(), g.c(), 1+g.c())
	case k < 20:
		g.line(depth, "r1 = swap(%s, %d);", g.x(), 1+g.c())
	case k < 21:
		g.line(depth, "atomic { r1 = %s; %s = r1 + 1; }", g.x(), g.x())
	case k < 22:
		g.line(depth, "r1 = r1 + 1;")
	case k < 24 && budget > 0:
		// a while loop bounded by its own counter
		c := g.counter()
		g.line(depth, "while (%s < %d) {", c, 1+g.r.Intn(2))
		g.line(depth+1, "%s = %s + 1;", c, c)
		g.block(depth+1, 1+g.r.Intn(2), budget-1)
		g.line(depth, "}")
	case k < 25 && budget > 0:
		// a backward goto bounded by its own counter
		c, l := g.counter(), g.label()
		g.b.WriteString(l + ":\n")
		g.block(depth, 1+g.r.Intn(2), budget-1)
		g.line(depth, "%s = %s + 1;", c, c)
		g.line(depth, "if (%s < %d) goto %s;", c, 1+g.r.Intn(2), l)
	case k < 27 && budget > 0:
		// a forward goto over a few statements to a labelled statement
		l := g.label()
		g.line(depth, "if (%s) goto %s;", g.cond(), l)
		g.block(depth, 1+g.r.Intn(2), budget-1)
		g.labelled(depth, l)
	case k < 30:
		g.labelled(depth, g.label())
	default:
		g.line(depth, "%s = %s;", g.x(), g.val())
	}
}

// labelled writes "l: S" with S a skip or a simple statement.
func (g *gen) labelled(depth int, l string) {
	switch g.r.Intn(4) {
	case 0:
		g.line(depth, "%s: %s = %s;", l, g.x(), g.val())
	case 1:
		g.line(depth, "%s: r1 = %s;", l, g.x())
	default:
		g.line(depth, "%s: skip;", l)
	}
}

// guard writes the region entered only when the signature read r0 saw
// zero (for want == 0) or one, in one of the forms users write; the mark
// label ends it. It returns the label to use in the property.
func (g *gen) guard(depth int, test, neg, mark string) string {
	g.guarded = true
	defer func() { g.guarded = false }()
	inner := func(d int) {
		if g.r.Intn(2) == 0 {
			g.block(d, 1, 1)
		}
	}
	switch g.r.Intn(6) {
	case 0: // if (test) { ...; mark: skip; }
		g.line(depth, "if (%s) {", test)
		inner(depth + 1)
		g.line(depth+1, "%s: skip;", mark)
		g.line(depth, "}")
	case 1: // if (!test) goto out; ...; mark: skip; out: skip;
		g.line(depth, "if (%s) goto out;", neg)
		inner(depth)
		g.line(depth, "%s: skip;", mark)
		g.b.WriteString("out: skip;\n")
	case 2: // assume(test); ...; mark: skip;
		g.line(depth, "assume(%s);", test)
		inner(depth)
		g.line(depth, "%s: skip;", mark)
	case 3: // if (test) { mark: a write }
		g.line(depth, "if (%s) {", test)
		inner(depth + 1)
		g.line(depth+1, "%s: %s = %s;", mark, g.x(), g.val())
		g.line(depth, "}")
	case 4: // a loop body entered once
		c := g.counter()
		g.line(depth, "while (%s && %s < 1) {", test, c)
		g.line(depth+1, "%s = %s + 1;", c, c)
		inner(depth + 1)
		g.line(depth+1, "%s: skip;", mark)
		g.line(depth, "}")
	default: // nested if, mark in the else branch
		g.line(depth, "if (%s) {", neg)
		g.line(depth+1, "skip;")
		g.line(depth, "} else {")
		inner(depth + 1)
		g.line(depth+1, "%s: skip;", mark)
		g.line(depth, "}")
	}
	g.marks = append(g.marks, mark)
	// Usually the mark; now and then another label of the region.
	if g.r.Intn(4) == 0 {
		return g.marks[g.r.Intn(len(g.marks))]
	}
	return mark
}

// genSB: process p writes its variable, reads the next one's into r0, and
// marks the outcome "read 0"; forbidden over all marks (store buffering),
// or mutex with two processes (Dekker's entry). In one program of four the
// first process writes its variable only after the marked region, a bug
// even under SC.
func genSB(r *rand.Rand, b *strings.Builder, sh []string, nProcs int, mutex bool) []string {
	var parts []string
	late := r.Intn(4) == 0
	for p := 0; p < nProcs; p++ {
		g := newGen(r, sh, b)
		g.small = nProcs > 2
		var mark string
		g.process(fmt.Sprintf("P%d", p), func() {
			if r.Intn(3) == 0 {
				g.block(1, 1, 1)
			}
			write := fmt.Sprintf("%s = %d;", sh[p], 1+r.Intn(2))
			if !late || p > 0 {
				g.line(1, "%s", write)
			}
			if r.Intn(2) == 0 {
				g.block(1, 1, 1)
			}
			g.line(1, "r0 = %s;", sh[(p+1)%nProcs])
			if r.Intn(2) == 0 {
				g.block(1, 1, 1)
			}
			name := "cs"
			if !mutex {
				name = g.label()
			}
			mark = g.guard(1, "r0 == 0", "r0 != 0", name)
			if late && p == 0 {
				g.line(1, "%s", write)
			}
			if r.Intn(3) == 0 {
				g.block(1, 1, 1)
			}
		})
		parts = append(parts, fmt.Sprintf("P%d@%s", p, mark))
		if mutex && mark != "cs" {
			mutex = false // the property names another label: use forbidden
		}
	}
	if mutex {
		return []string{"mutex cs;"}
	}
	return []string{"forbidden " + strings.Join(parts, ", ") + ";"}
}

// genTemplate: Dekker's entry (or store buffering) as one template over a
// flag array, the way the benchmarks are written: one fence site serves
// both instances. The random statements may use a for loop over the array
// a[2].
func genTemplate(r *rand.Rand, b *strings.Builder, sh []string) []string {
	b.WriteString("shared f[2], a[2];\n")
	g := newGen(r, sh, b)
	g.arrays = true
	var mark string
	g.process("P[i in 0..1]", func() {
		if r.Intn(3) == 0 {
			g.block(1, 1, 1)
		}
		g.line(1, "f[i] = 1;")
		if r.Intn(2) == 0 {
			g.block(1, 1, 1)
		}
		g.line(1, "r0 = f[1 - i];")
		mark = g.guard(1, "r0 == 0", "r0 != 0", "cs")
		if r.Intn(2) == 0 {
			g.line(1, "f[i] = 0;")
		}
	})
	if mark == "cs" && r.Intn(2) == 0 {
		return []string{"mutex cs;"}
	}
	return []string{fmt.Sprintf("forbidden P[0]@%s, P[1]@%s;", mark, mark)}
}

// genMP: the writer writes data then flag; the reader reads flag then data
// and marks (or asserts against) "flag seen, data not".
func genMP(r *rand.Rand, b *strings.Builder, sh []string) []string {
	data, flag := sh[0], sh[1]
	w := newGen(r, sh, b)
	w.process("W", func() {
		w.line(1, "%s = 1;", data)
		if r.Intn(2) == 0 {
			w.block(1, 1, 1)
		}
		w.line(1, "%s = 1;", flag)
		if r.Intn(2) == 0 {
			w.block(1, 1, 1)
		}
	})
	rd := newGen(r, sh, b)
	useAssert := r.Intn(3) == 0
	var mark string
	rd.process("R", func() {
		rd.line(1, "r0 = %s;", flag)
		if r.Intn(2) == 0 {
			rd.block(1, 1, 1)
		}
		rd.line(1, "r1 = %s;", data)
		if useAssert {
			rd.line(1, "assert(r0 == 0 || r1 == 1);")
			return
		}
		// keep r1 for the test: the region uses r0 and r1 only in its guard
		rd.guarded = true
		mark = rd.label()
		rd.guarded = false
		switch r.Intn(3) {
		case 0:
			rd.line(1, "if (r0 == 1) {")
			rd.line(2, "if (r1 == 0) {")
			rd.line(3, "%s: skip;", mark)
			rd.line(2, "}")
			rd.line(1, "}")
		case 1:
			rd.line(1, "if (r0 != 1 || r1 != 0) goto out;")
			rd.line(1, "%s: skip;", mark)
			rd.b.WriteString("out: skip;\n")
		default:
			rd.line(1, "assume(r0 == 1 && r1 == 0);")
			rd.line(1, "%s: r1 = %s;", mark, flag)
		}
	})
	if useAssert {
		return nil
	}
	return []string{fmt.Sprintf("forbidden R@%s;", mark)}
}

// genFree: random processes with labels everywhere; the property is a
// forbidden combination of labels, a mutex over a label every process has,
// or an assert.
func genFree(r *rand.Rand, b *strings.Builder, sh []string, nProcs int) []string {
	var labels [][]string
	mutex := r.Intn(3) == 0
	for p := 0; p < nProcs; p++ {
		g := newGen(r, sh, b)
		g.small = nProcs > 2
		g.process(fmt.Sprintf("P%d", p), func() {
			g.line(1, "%s = %d;", sh[p%len(sh)], 1+r.Intn(2))
			g.block(1, 2+r.Intn(3), 2)
			g.line(1, "r0 = %s;", sh[(p+1)%nProcs])
			if mutex {
				g.guard(1, "r0 == 0", "r0 != 0", "cs")
			} else if r.Intn(4) == 0 {
				g.line(1, "assert(%s);", g.cond())
			}
			g.block(1, r.Intn(2), 1)
		})
		labels = append(labels, append(g.marks, g.free...))
	}
	if mutex {
		return []string{"mutex cs;"}
	}
	var parts []string
	for p, ls := range labels {
		if len(ls) > 0 {
			parts = append(parts, fmt.Sprintf("P%d@%s", p, ls[r.Intn(len(ls))]))
		}
	}
	if len(parts) < 2 {
		return nil
	}
	return []string{"forbidden " + strings.Join(parts, ", ") + ";"}
}
