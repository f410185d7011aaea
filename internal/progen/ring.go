package progen

import (
	"fmt"
	"math/rand"
	"strings"
)

// Ring writes a small finite program of 3 or 4 processes, of the kind
// that made fencer answer unknown at its state limit (issue 25): a
// template P[i in 0..N-1] over a ring of flags (each process sets its own
// flag and reads its neighbour's before a critical point), a prefix of 0
// to 4 statements per process from a menu of counters and
// read-modify-writes, and a forbidden or mutex property. The programs are
// loop-free, so package refsem decides them exactly. The same seed gives
// the same program.
func Ring(seed int64) string {
	rnd := rand.New(rand.NewSource(seed))
	n := 3 + rnd.Intn(2)
	var b strings.Builder
	fmt.Fprintf(&b, "const N = %d;\nshared flag[N], x, turn, z, a[2];\n", n)
	b.WriteString("process P[i in 0..N-1] {\n  local r, k, s1, s2, s3;\n")
	menu := []string{
		"k = fetch_add(a[0], 1);",
		"if (k == 0) { a[0] = 1; } else { k = a[0]; }",
		"a[0] = 1;",
		"s1 = cas(a[1], 0, 1);",
		"if (s1 == 1) { a[1] = 0; }",
		"s2 = swap(z, i);",
		"x = i;",
		"s3 = x;",
		"turn = (i + 1) % N;",
		"s3 = turn;",
		"k = a[1]; if (k < 2) { a[1] = k + 1; }",
		"z = 1;",
		"s2 = z;",
	}
	for j, m := 0, rnd.Intn(5); j < m; j++ {
		fmt.Fprintf(&b, "  %s\n", menu[rnd.Intn(len(menu))])
	}
	next := "(i+1)%N"
	if rnd.Intn(3) == 0 {
		next = "(i+N-1)%N"
	}
	b.WriteString("  flag[i] = 1;\n")
	if rnd.Intn(4) == 0 {
		b.WriteString("  x = i;\n")
	}
	fmt.Fprintf(&b, "  r = flag[%s];\n", next)
	guard := "r == 0"
	if rnd.Intn(4) == 0 {
		guard = "r == 0 && s3 != i"
	}
	fmt.Fprintf(&b, "  if (%s) {\ncs: skip;\n  }\n}\n", guard)
	if rnd.Intn(3) == 0 {
		b.WriteString("mutex cs;\n")
	} else {
		var ps []string
		for i := 0; i < n; i++ {
			ps = append(ps, fmt.Sprintf("P[%d]@cs", i))
		}
		fmt.Fprintf(&b, "forbidden %s;\n", strings.Join(ps, ", "))
	}
	return b.String()
}
