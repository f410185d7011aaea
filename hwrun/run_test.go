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
