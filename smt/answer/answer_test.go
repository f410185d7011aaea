package answer

import "testing"

func TestString(t *testing.T) {
	for a, want := range map[Answer]string{Sat: "sat", Unsat: "unsat", Unknown: "unknown", 9: "Answer(9)"} {
		if got := a.String(); got != want {
			t.Errorf("%d: %q, want %q", a, got, want)
		}
	}
	var zero Answer
	if zero != Unknown {
		t.Errorf("the zero Answer is %v: an answer nobody gave must not read as sat", zero)
	}
}
