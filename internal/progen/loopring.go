package progen

import (
	"fmt"
	"math/rand"
	"strings"
)

// LoopRing writes a small program of 3 or 4 copies of one process of
// about ten lines, the shape of issue 38: a loop bounded by a counter
// that writes (and reads) shared variables, a write of the process's own
// flag, a read of its neighbour's flag, an increment of a shared counter
// guarded by that read, and a forbidden state with every process at the
// increment. The loops are bounded, so every run is finite and the
// concrete system under SC, TSO and PSO has finitely many states: package
// refsem decides it exactly (BenchmarkLoopRing compares the two). The
// same seed gives the same program.
func LoopRing(seed int64) string {
	rnd := rand.New(rand.NewSource(seed))
	n := 3 + rnd.Intn(2)
	var b strings.Builder
	fmt.Fprintf(&b, "const N = %d;\nshared flag[N], x, y, z, c;\n", n)
	b.WriteString("process P[i in 0..N-1] {\n  local r, j, t;\n")
	bound := 2 + rnd.Intn(3)
	menu := []string{"x = j;", "x = i;", "x = i + j;", "y = j;", "t = y;", "t = x;", "z = t;"}
	fmt.Fprintf(&b, "  while (j < %d) {\n", bound)
	for k, m := 0, 1+rnd.Intn(2); k < m; k++ {
		fmt.Fprintf(&b, "    %s\n", menu[rnd.Intn(len(menu))])
	}
	b.WriteString("    j = j + 1;\n  }\n")
	if rnd.Intn(3) == 0 {
		b.WriteString("  y = i;\n")
	}
	b.WriteString("  flag[i] = 1;\n")
	next := "(i+1)%N"
	if rnd.Intn(3) == 0 {
		next = "(i+N-1)%N"
	}
	fmt.Fprintf(&b, "  r = flag[%s];\n", next)
	guard := "r == 0"
	if rnd.Intn(4) == 0 {
		guard = "r == 0 && t < 2"
	}
	inc := []string{"c = c + 1;", "t = c; c = t + 1;", "t = fetch_add(c, 1);"}
	fmt.Fprintf(&b, "  if (%s) {\ninc: %s\n  }\n}\n", guard, inc[rnd.Intn(len(inc))])
	var ps []string
	for i := 0; i < n; i++ {
		ps = append(ps, fmt.Sprintf("P[%d]@inc", i))
	}
	fmt.Fprintf(&b, "forbidden %s;\n", strings.Join(ps, ", "))
	return b.String()
}
