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
	_, err := Parse("power")
	if err == nil || !strings.Contains(err.Error(), "want sc, tso, pso, arm, riscv or rmo") {
		t.Errorf("Parse(power): %v", err)
	}
	if Names() != "sc, tso, pso, arm, riscv or rmo" {
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

// The preserved program order of each model on two plain or annotated
// accesses to different variables, against the cat files' ppo/lob: TSO
// keeps all but W→R, PSO keeps R→*, the weak models keep only what an
// annotation keeps (and an RCsc release→acquire on arm and riscv).
func TestKeeps(t *testing.T) {
	r, w := Access{Kind: cs.OpRead}, Access{Kind: cs.OpWrite}
	acq, rel := Access{Kind: cs.OpRead, Ann: cs.Acquire}, Access{Kind: cs.OpWrite, Ann: cs.Release}
	q := Access{Kind: cs.OpRead, Ann: cs.AcquirePC}
	rmw := Access{Kind: cs.OpWrite, Atomic: true}
	tests := []struct {
		m    Model
		a, b Access
		want bool
	}{
		{TSO, w, r, false}, {TSO, w, w, true}, {TSO, r, r, true}, {TSO, rmw, r, true},
		{PSO, w, w, false}, {PSO, r, w, true}, {PSO, w, rmw, true},
		{ARM, r, r, false}, {ARM, r, w, false}, {ARM, w, w, false}, {ARM, w, r, false},
		{ARM, acq, r, true}, {ARM, q, w, true}, {ARM, r, rel, true}, {ARM, rel, acq, true}, {ARM, rel, q, false},
		{ARM, rmw, r, false}, {ARM, Access{Kind: cs.OpWrite, Atomic: true, Ann: cs.Acquire | cs.Release}, r, true},
		{RISCV, rel, acq, false}, {RISCV, Access{Kind: cs.OpWrite, Ann: cs.Release, Atomic: true}, Access{Kind: cs.OpRead, Ann: cs.Acquire, Atomic: true}, true},
		{RISCV, w, r, false},
		{RMO, rel, acq, false}, {RMO, acq, w, true},
	}
	for _, tt := range tests {
		if got := tt.m.Keeps(tt.a, tt.b); got != tt.want {
			t.Errorf("%v.Keeps(%+v, %+v) = %v", tt.m, tt.a, tt.b, got)
		}
	}
	for _, m := range []Model{ARM, RISCV, RMO} {
		if m.Axioms() == nil || len(m.Barriers()) == 0 {
			t.Errorf("%v: no axioms or barriers", m)
		}
		bs := m.Barriers()
		for i := 1; i < len(bs); i++ {
			if bs[i].Cost < bs[i-1].Cost {
				t.Errorf("%v: barriers not cheapest first: %v", m, bs)
			}
		}
		if b, ok := BarrierOf(m, cs.FullFence); !ok || b.Cost != bs[len(bs)-1].Cost {
			t.Errorf("%v: the full barrier is not the dearest", m)
		}
	}
}
