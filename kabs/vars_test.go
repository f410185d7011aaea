package kabs

import "testing"

func TestParseVarRoundTrip(t *testing.T) {
	tests := []struct {
		name string
		want VarInfo
	}{
		{SlotVar("P[1]", 3), VarInfo{Kind: VarSlot, Proc: "P[1]", Slot: 3}},
		{SlotVarX("T0", "flag[0]", 12), VarInfo{Kind: VarSlotX, Proc: "T0", Shared: "flag[0]", Slot: 12}},
		{LWVar("P[0]", "number[1]"), VarInfo{Kind: VarLW, Proc: "P[0]", Shared: "number[1]"}},
		{StepVar(0), VarInfo{Kind: VarStep}},
		{"P[0].t", VarInfo{Kind: VarLocal, Proc: "P[0]"}},
		{"turn", VarInfo{Kind: VarProgram}},
		{"x[2]", VarInfo{Kind: VarProgram}},
		{"P#junk", VarInfo{Kind: VarProgram}},
	}
	for _, tc := range tests {
		if got := ParseVar(tc.name); got != tc.want {
			t.Errorf("ParseVar(%q) = %+v, want %+v", tc.name, got, tc.want)
		}
	}
}
