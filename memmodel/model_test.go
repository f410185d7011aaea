package memmodel

import (
	"strings"
	"testing"

	"fencer/cs"
)

func TestRegistry(t *testing.T) {
	for _, m := range Models() {
		got, err := Parse(m.Name())
		if err != nil || got != m {
			t.Errorf("Parse(%q) = %v, %v", m.Name(), got, err)
		}
		if m.String() != m.Name() {
			t.Errorf("%v: String %q, Name %q", m, m.String(), m.Name())
		}
	}
	_, err := Parse("arm")
	if err == nil || !strings.Contains(err.Error(), "want sc, tso or pso") {
		t.Errorf("Parse(arm): %v", err)
	}
	if Names() != "sc, tso or pso" {
		t.Errorf("Names() = %q", Names())
	}
	if OrSC(nil) != SC || OrSC(PSO) != PSO {
		t.Error("OrSC")
	}
}

// What each model answers: the relaxed edges of robustness and the fence
// kinds that order anything.
func TestModelRules(t *testing.T) {
	tests := []struct {
		m                   Model
		layout              Layout
		wr, ww, full, store bool
	}{
		{SC, Unbuffered, false, false, false, false},
		{TSO, PerProcess, true, false, true, false},
		{PSO, PerVariable, true, true, true, true},
	}
	for _, tt := range tests {
		m := tt.m
		got := []bool{m.Relaxes(cs.OpRead), m.Relaxes(cs.OpWrite), m.Orders(cs.FullFence), m.Orders(cs.StoreFence)}
		want := []bool{tt.wr, tt.ww, tt.full, tt.store}
		for i := range got {
			if got[i] != want[i] {
				t.Errorf("%v: W→R, W→W, full, store = %v, want %v", m, got, want)
				break
			}
		}
		if m.Layout() != tt.layout || m.Layout().Buffered() != (m != SC) {
			t.Errorf("%v: layout %v", m, m.Layout())
		}
	}
}
