package domains

import (
	"testing"

	"fencer/cs"
	"fencer/memmodel"
)

// The most writes a buffer holds: counter-bounded loops count each
// iteration, a fence or an atomic step empties the buffer, a loop that
// writes with no fence has no bound.
func TestBufferBound(t *testing.T) {
	for _, c := range []struct {
		name, body string
		tso, pso   int // -1: no bound
	}{
		{"bounded loop", "local j; while (j < 3) { x = j; j = j + 1; } y = 1;", 4, 3},
		{"fence", "x = 1; x = 2; fence; y = 1; y = 2; y = 3;", 3, 3},
		{"atomic", "local r; x = 1; x = 2; x = 3; r = fetch_add(y, 1); y = 2;", 3, 3},
		{"store fence", "x = 1; fence store; x = 2;", 2, 2},
		{"branches", "local r; r = y; if (r == 0) { x = 1; x = 2; } else { y = 1; } x = 3;", 3, 3},
		{"unbounded", "while (true) { x = 1; }", -1, -1},
		{"fenced loop", "while (true) { x = 1; y = 2; fence; }", 2, 1},
		{"spin", "local r; x = 1; r = y; while (r == 1) { r = y; } y = 1;", 2, 1},
	} {
		src := "shared x, y;\nprocess P[i in 0..1] { " + c.body + " }\n"
		sys, err := cs.Parse("t.cs", []byte(src))
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		in := Analyze(sys)
		for _, m := range []struct {
			lay  memmodel.Layout
			want int
		}{{memmodel.PerProcess, c.tso}, {memmodel.PerVariable, c.pso}} {
			k, ok := in.BufferBound(sys, m.lay, 10)
			if !ok {
				k = -1
			}
			if k != m.want {
				t.Errorf("%s, layout %v: bound %d, want %d", c.name, m.lay, k, m.want)
			}
		}
		if k, ok := in.BufferBound(sys, memmodel.Unbuffered, 10); !ok || k != 0 {
			t.Errorf("%s, SC: %d %v, want 0", c.name, k, ok)
		}
	}
}
