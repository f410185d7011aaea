package domains

import (
	"reflect"
	"testing"

	"fencer/cs"
)

func TestAnalyze(t *testing.T) {
	src := `
shared flag[2], turn, cnt, gs, ext = *;
process P[i in 0..1] {
  local r, c, h, k, g;
  flag[i] = 1;
  turn = 1 - i;
  r = flag[1 - i];
  h = *;
  while (true) { c = c + 1; cnt = c; if (h == 3) goto out; }
out:
  while (g < 2) { g = g + 1; }
  gs = g;
  k = r * 2 + turn;
  atomic { r = turn; turn = r; }
}
`
	sys, err := cs.Parse("t.cs", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	in := Analyze(sys)
	finite := map[string][]int64{
		"flag[0]": {0, 1}, "flag[1]": {0, 1}, "turn": {0, 1},
		"P[0].r": {0, 1}, "P[1].k": {0, 1, 2, 3},
		// a counter bounded by its loop guard
		"P[0].g": {0, 1, 2}, "gs": {0, 2},
	}
	for v, want := range finite {
		if got := in.Values(v); !reflect.DeepEqual(got, want) {
			t.Errorf("%s: %v, want %v", v, got, want)
		}
	}
	// an unguarded counter grows past MaxValues; a havoc and a nondeterministic
	// initial value are unbounded, and so is what is computed from them.
	for _, v := range []string{"P[0].c", "cnt", "P[1].h", "ext"} {
		if in.Finite(v) {
			t.Errorf("%s is finite: %v", v, in.Values(v))
		}
	}
}
