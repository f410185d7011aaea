package memmodel

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"fencer/cs"
)

func parse(t *testing.T, name, src string) *cs.System {
	t.Helper()
	sys, err := cs.Parse(name, []byte(src))
	if err != nil {
		t.Fatalf("parse %s: %v", name, err)
	}
	return sys
}

func explore(t *testing.T, sys *cs.System, m Model) *Result {
	t.Helper()
	c := NewConcrete(sys, m)
	r, err := c.Explore(context.Background(), Limits{MaxStates: 200000})
	if err != nil {
		t.Fatalf("explore: %v", err)
	}
	if r.Verdict == Unsafe {
		states, err := c.Replay(r.Trace)
		if err != nil {
			t.Fatalf("the checker's own trace does not replay: %v", err)
		}
		if !c.IsBadState(states[len(states)-1]) {
			t.Fatalf("trace does not end in a bad state")
		}
	}
	return r
}

// Litmus tests: the verdict of the explicit checker per memory model.
func TestLitmus(t *testing.T) {
	cases := []struct {
		file         string
		sc, tso, pso Verdict
	}{
		{"sb.cs", Safe, Unsafe, Unsafe},
		{"mp.cs", Safe, Safe, Unsafe},
		{"lb.cs", Safe, Safe, Safe},
		{"sc_bug.cs", Unsafe, Unsafe, Unsafe},
	}
	for _, c := range cases {
		src, err := os.ReadFile(filepath.Join("..", "benchmarks", c.file))
		if err != nil {
			t.Fatal(err)
		}
		sys := parse(t, c.file, string(src))
		for m, want := range map[Model]Verdict{SC: c.sc, TSO: c.tso, PSO: c.pso} {
			if got := explore(t, sys, m).Verdict; got != want {
				t.Errorf("%s under %s: %s, want %s", c.file, m, got, want)
			}
		}
	}
}

func TestShortestTrace(t *testing.T) {
	sys := parse(t, "sb.cs", sbSrc)
	r := explore(t, sys, TSO)
	// P0 writes, P1 writes, both read 0 from memory, then each reaches its
	// label: no shorter trace exists (4 ops + 2 assume steps).
	if r.Verdict != Unsafe || len(r.Trace.Steps) != 6 {
		t.Fatalf("got %s with %d steps, want unsafe in 6", r.Verdict, len(r.Trace.Steps))
	}
	for _, st := range r.Trace.Steps {
		if st.IsFlush() {
			t.Errorf("a shortest SB trace flushes nothing, got %+v", st)
		}
	}
}

const sbSrc = `
shared x, y;
process A { local r; x = 1; r = y; assume(r == 0); a: skip; }
process B { local r; y = 1; r = x; assume(r == 0); b: skip; }
forbidden A@a, B@b;
`

func TestFenceAndAtomic(t *testing.T) {
	fenced := parse(t, "sbf.cs", `
shared x, y;
process A { local r; x = 1; fence; r = y; assume(r == 0); a: skip; }
process B { local r; y = 1; fence; r = x; assume(r == 0); b: skip; }
forbidden A@a, B@b;
`)
	if got := explore(t, fenced, TSO).Verdict; got != Safe {
		t.Errorf("SB with fences under TSO: %s, want safe", got)
	}
	if got := explore(t, fenced, PSO).Verdict; got != Safe {
		t.Errorf("SB with fences under PSO: %s, want safe", got)
	}
	swapped := parse(t, "sbx.cs", `
shared x, y;
process A { local r, t; t = swap(x, 1); r = y; assume(r == 0); a: skip; }
process B { local r, t; t = swap(y, 1); r = x; assume(r == 0); b: skip; }
forbidden A@a, B@b;
`)
	if got := explore(t, swapped, TSO).Verdict; got != Safe {
		t.Errorf("SB with swap under TSO: %s, want safe", got)
	}
}

func TestOwnBufferForwarding(t *testing.T) {
	// A process reads its own buffered write, not memory.
	sys := parse(t, "fw.cs", `
shared x;
process A { local r; x = 1; r = x; assert(r == 1); }
`)
	for _, m := range []Model{SC, TSO, PSO} {
		if got := explore(t, sys, m).Verdict; got != Safe {
			t.Errorf("forwarding under %s: %s, want safe", m, got)
		}
	}
}

func TestNondetIsNeverSafe(t *testing.T) {
	sys := parse(t, "nd.cs", `
shared x = *;
process A { local r; r = x; assert(r * r >= 0); }
`)
	if got := explore(t, sys, SC).Verdict; got != Bounded {
		t.Errorf("nondet: %s, want no bug within bounds", got)
	}
	found := parse(t, "nd2.cs", `
process A { local r; r = *; assert(r != 1); }
`)
	if got := explore(t, found, SC).Verdict; got != Unsafe {
		t.Errorf("havoc hitting a constant: %s, want unsafe", got)
	}
}

func TestLimits(t *testing.T) {
	sys := parse(t, "loop.cs", `
shared x;
process A { while (true) { x = x + 1; } }
`)
	c := NewConcrete(sys, TSO)
	r, err := c.Explore(context.Background(), Limits{MaxStates: 500})
	if err != nil {
		t.Fatal(err)
	}
	if r.Verdict != Bounded || r.States > 500 {
		t.Errorf("got %s with %d states, want bounded at 500", r.Verdict, r.States)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	r, err = c.Explore(ctx, Limits{})
	if err != nil || r.Verdict != Bounded || r.Reason != "interrupted" {
		t.Errorf("cancelled: %+v %v", r, err)
	}
}
