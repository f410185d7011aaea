package progen

import (
	"fmt"
	"strings"
)

// SBRing is store buffering around a ring of n processes, written out
// process by process (no template): Q<i> writes x<i>, reads x<i+1 mod n>
// and reaches cs on 0; the bad state is every process at cs, so each
// process needs its fence under TSO and PSO. change, if not nil, edits the
// text of one process's body (a test that breaks the ring's symmetry).
func SBRing(n int, change func(i int, body string) string) string {
	var b strings.Builder
	b.WriteString("shared ")
	for i := 0; i < n; i++ {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "x%d", i)
	}
	b.WriteString(";\n")
	var bad []string
	for i := 0; i < n; i++ {
		body := fmt.Sprintf("  local r;\n  x%d = 1;\n  r = x%d;\n  if (r == 0) {\ncs: skip;\n  }\n", i, (i+1)%n)
		if change != nil {
			body = change(i, body)
		}
		fmt.Fprintf(&b, "process Q%d {\n%s}\n", i, body)
		bad = append(bad, fmt.Sprintf("Q%d@cs", i))
	}
	fmt.Fprintf(&b, "forbidden %s;\n", strings.Join(bad, ", "))
	return b.String()
}

// TwoSBPairs is two independent store-buffering pairs (Q0, Q1 on x, y and
// Q2, Q3 on u, v) whose bad state needs all four to read 0: every run to
// it delays a write in each pair, and fencing one pair entirely is the
// minimum (2 fences).
const TwoSBPairs = `shared x, y, u, v;
process Q0 { local r; x = 1; r = y; if (r == 0) { cs: skip; } }
process Q1 { local r; y = 1; r = x; if (r == 0) { cs: skip; } }
process Q2 { local r; u = 1; r = v; if (r == 0) { cs: skip; } }
process Q3 { local r; v = 1; r = u; if (r == 0) { cs: skip; } }
forbidden Q0@cs, Q1@cs, Q2@cs, Q3@cs;
`
