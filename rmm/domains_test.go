package rmm

import (
	"context"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"fencer/cegar"
	"fencer/memmodel"
)

// verdict runs insert on the model under m and says "safe", "bug",
// "fences=N", "unknown", or "error" when the model is refused.
func verdict(t *testing.T, sol *cegar.Z3Solver, path string, opt Options, m memmodel.Model) string {
	t.Helper()
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	sys, err := ParseWith(path, src, opt)
	if err != nil {
		return "error"
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	r, _, err := cegar.Insert(ctx, sys, sol, cegar.Options{Model: m})
	if err != nil {
		t.Fatal(err)
	}
	switch {
	case r.Verdict == cegar.SCBug:
		return "bug"
	case r.Verdict == cegar.Correct && len(r.Fences) == 0:
		return "safe"
	case r.Verdict == cegar.Correct:
		return "fences=" + strconv.Itoa(len(r.Fences))
	}
	return "unknown"
}

// Memorax's semantics of domains (issue 26, item 12): a write, an
// assignment, a cas or an assigning read whose value leaves the domain is
// not enabled, and a register "= *" starts inside its domain. The same
// models read with StrictDomains (the check fencer made before: a write
// that would leave the domain is a bad state; register domains are not
// enforced) are sc bugs: the difference is the semantics, not the models.
func TestDomainSemantics(t *testing.T) {
	sol, err := cegar.NewZ3Solver()
	if err != nil {
		t.Fatal(err)
	}
	defer sol.Close()
	for _, tc := range []struct {
		file            string
		memorax, strict string // the SC verdicts
	}{
		{"dom_write_block.rmm", "safe", "bug"},
		{"dom_assign_block.rmm", "safe", "bug"},
		{"dom_cas_block.rmm", "safe", "error"}, // a constant outside: refused
		{"dom_read_block.rmm", "safe", "bug"},
		{"dom_read_wait.rmm", "bug", "bug"},
	} {
		path := "../benchmarks/rmm/constructs/" + tc.file
		if got := verdict(t, sol, path, Options{}, memmodel.SC); got != tc.memorax {
			t.Errorf("%s: %s, want %s", tc.file, got, tc.memorax)
		}
		if got := verdict(t, sol, path, Options{StrictDomains: true}, memmodel.SC); got != tc.strict {
			t.Errorf("%s with StrictDomains: %s, want %s", tc.file, got, tc.strict)
		}
	}
	// Under TSO the blocked write of dom_write_block stays blocked: P
	// reads its own buffered 1.
	if got := verdict(t, sol, "../benchmarks/rmm/constructs/dom_write_block.rmm", Options{}, memmodel.TSO); got != "safe" {
		t.Errorf("dom_write_block under TSO: %s", got)
	}
}

// A constant written outside the domain: with Memorax's semantics the
// write is never enabled (the model reads); with StrictDomains it is an
// error at the write.
func TestStrictDomainsConstant(t *testing.T) {
	src := []byte("forbidden A data x = 0 : [0:1] process text A: write: x := 2")
	if _, err := Parse("t.rmm", src); err != nil {
		t.Errorf("Memorax semantics: %v", err)
	}
	_, err := ParseWith("t.rmm", src, Options{StrictDomains: true})
	if err == nil || !strings.HasPrefix(err.Error(), "t.rmm:1:48: the write of 2 to x leaves its domain [0:1]") {
		t.Errorf("StrictDomains: %v", err)
	}
	// The reader keeps its options: what cegar re-parses (a patched
	// model) is read the same way.
	sys, err := ParseWith("t.rmm", []byte("forbidden A data x = 0 : [0:1] process text A: write: x := 1"), Options{StrictDomains: true})
	if err != nil {
		t.Fatal(err)
	}
	if r, ok := sys.Reader.(Reader); !ok || !r.Options.StrictDomains {
		t.Errorf("reader %#v", sys.Reader)
	}
}

// llfence is accepted (a skip: it orders nothing under SC, TSO and PSO),
// not inside a locked block.
func TestLLFence(t *testing.T) {
	src := "forbidden A B data x = 0 y = 0 process text write: x := 1; llfence; read: y = 0; A: nop process text write: y := 1; read: x = 0; B: nop"
	sys, err := Parse("t.rmm", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if len(sys.WriteSites()) != 2 {
		t.Errorf("%d write sites", len(sys.WriteSites()))
	}
	if _, err := Parse("t.rmm", []byte("forbidden A process text locked { llfence; write: x := 1 } ; A: nop")); err == nil {
		t.Error("llfence in a locked block accepted")
	}
}
