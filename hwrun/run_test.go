package hwrun

import (
	"context"
	"errors"
	"os/exec"
	"runtime"
	"testing"

	"fencer/cgen"
	"fencer/cs"
)

// A host is refused for more threads than CPUs, with the reason.
func TestHostCheck(t *testing.T) {
	var he *HostError
	if err := HostCheck(runtime.NumCPU() + 1); !errors.As(err, &he) {
		t.Errorf("HostCheck(%d CPUs + 1) = %v, want a HostError", runtime.NumCPU(), err)
	}
	if runtime.GOARCH == "amd64" {
		if err := HostCheck(1); err != nil {
			t.Errorf("HostCheck(1) = %v", err)
		}
	}
}

// Run runs exactly the rounds asked for and counts a bad state that every
// round reaches (a failed assert of a single thread) in every round.
func TestRounds(t *testing.T) {
	if runtime.GOARCH != "amd64" {
		t.Skip("the harness runs on x86-64 only")
	}
	if _, err := exec.LookPath(CC); err != nil {
		t.Skip("no " + CC)
	}
	sys, err := cs.Parse("t.cs", []byte(`shared x;
process P { local r; x = 1; r = x; assert(r == 0); }`))
	if err != nil {
		t.Fatal(err)
	}
	h, err := cgen.NewHarness(sys)
	if err != nil {
		t.Fatal(err)
	}
	bin, err := Build(context.Background(), h, t.TempDir(), "t")
	if err != nil {
		t.Fatal(err)
	}
	res, err := Run(context.Background(), h, bin, Options{Rounds: 777, Iterations: 1})
	if err != nil {
		t.Fatal(err)
	}
	if res.Rounds != 777 || res.Hits != 777 || len(res.Bad) != 1 || res.Bad[0].Hits != 777 {
		t.Errorf("result %+v, want 777 rounds, every one reaching the failed assert", res)
	}
}

// runSrc builds and runs the .cs program src for rounds rounds.
func runSrc(t *testing.T, src string, rounds int64) *Result {
	t.Helper()
	if runtime.GOARCH != "amd64" {
		t.Skip("the harness runs on x86-64 only")
	}
	if _, err := exec.LookPath(CC); err != nil {
		t.Skip("no " + CC)
	}
	sys, err := cs.Parse("t.cs", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if err := HostCheck(len(sys.Procs)); err != nil {
		t.Skip(err)
	}
	h, err := cgen.NewHarness(sys)
	if err != nil {
		t.Fatal(err)
	}
	bin, err := Build(context.Background(), h, t.TempDir(), "t")
	if err != nil {
		t.Fatal(err)
	}
	res, err := Run(context.Background(), h, bin, Options{Rounds: rounds, Iterations: 10})
	if err != nil {
		t.Fatal(err)
	}
	if res.Rounds != rounds {
		t.Errorf("%d rounds run, want %d", res.Rounds, rounds)
	}
	return res
}

// A process at a label it then leaves with a write is at it in every
// round: the interval between the stamps is recorded and found.
func TestIntervalFound(t *testing.T) {
	res := runSrc(t, `shared x;
process P { local r; r = x; a: x = 1; x = 2; }
forbidden P@a;`, 500)
	if res.Hits != 500 {
		t.Errorf("P@a reached in %d of 500 rounds, want all", res.Hits)
	}
}

// Two processes that cannot be at their labels together (Q reaches b
// only after P's write that leaves a is visible) are never reported
// together: the intervals lie inside the time each thread was there.
func TestNoFalseOverlap(t *testing.T) {
	res := runSrc(t, `shared x;
process P { a: x = 1; }
process Q { local r; r = x; while (r == 0) { r = x; } b: skip; }
forbidden P@a, Q@b;
forbidden Q@b;`, 2000)
	if res.Bad[0].Hits != 0 {
		t.Errorf("P@a, Q@b reported in %d rounds; it is unreachable", res.Bad[0].Hits)
	}
	// The zero above is not for want of Q at b: Q reaches b in most
	// rounds, not in all, as a busy-wait gives up after a million spins,
	// which a descheduled P can take; a tenth of the rounds is asked for.
	if res.Bad[1].Hits < 200 {
		t.Errorf("Q@b reported in %d of 2000 rounds, want many", res.Bad[1].Hits)
	}
}
