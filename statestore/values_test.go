package statestore

import (
	"math"
	"testing"

	"pgregory.net/rapid"
)

// Slots are equal exactly when the values are, and decode to them.
func TestValuesExact(t *testing.T) {
	var v Values
	seen := map[uint32]int64{}
	check := func(t interface {
		Fatalf(string, ...any)
	}, x int64) {
		w, err := v.Slot(x)
		if err != nil {
			t.Fatalf("Slot(%d): %v", x, err)
		}
		if got := v.Value(w); got != x {
			t.Fatalf("Value(Slot(%d)) = %d", x, got)
		}
		if y, ok := seen[w]; ok && y != x {
			t.Fatalf("%d and %d share slot %#x", x, y, w)
		}
		seen[w] = x
	}
	for _, x := range []int64{0, 1, -1, 1<<30 - 1, -1 << 30, 1 << 30, -1<<30 - 1, math.MaxInt64, math.MinInt64, 1 << 31, -1 << 31} {
		check(t, x)
	}
	rapid.Check(t, func(rt *rapid.T) {
		check(rt, rapid.Int64().Draw(rt, "x"))
		check(rt, int64(rapid.IntRange(-100, 100).Draw(rt, "small")))
	})
}

// A Table interns records as a map of their contents would.
func TestTableInterns(t *testing.T) {
	tb := NewTable(3)
	ref := map[[3]uint32]uint32{}
	for i := 0; i < 5000; i++ {
		r := [3]uint32{uint32(i % 7), uint32(i % 11), uint32(i % 13)}
		idx, fresh, err := tb.Intern(r[:])
		if err != nil {
			t.Fatal(err)
		}
		want, ok := ref[r]
		if ok == fresh || ok && want != idx {
			t.Fatalf("record %v: index %d fresh %v, want %d seen %v", r, idx, fresh, want, ok)
		}
		ref[r] = idx
		if got := tb.At(idx); got[0] != r[0] || got[1] != r[1] || got[2] != r[2] {
			t.Fatalf("At(%d) = %v, want %v", idx, got, r)
		}
	}
	if tb.Len() != len(ref) {
		t.Errorf("Len %d, want %d", tb.Len(), len(ref))
	}
	if _, _, err := tb.Intern([]uint32{1}); err == nil {
		t.Error("a record of the wrong width was accepted")
	}
}
