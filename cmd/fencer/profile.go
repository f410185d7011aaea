package main

import (
	"os"
	"runtime"
	"runtime/pprof"

	"github.com/urfave/cli/v2"
)

// Profiles for `go tool pprof`: "measure, don't guess". They are global
// flags, given before the command: fencer --cpuprofile cpu.out insert x.cs.
var (
	cpuProfileFlag = &cli.StringFlag{Name: "cpuprofile", Usage: "write a CPU profile (go tool pprof) of the run to `FILE`"}
	memProfileFlag = &cli.StringFlag{Name: "memprofile", Usage: "write a heap profile (go tool pprof; allocations and what is live at the end) to `FILE`"}
)

// cpuProfile is the open CPU profile, nil when none is being written.
var cpuProfile *os.File

// startProfiles starts the CPU profile if one was asked for.
func startProfiles(c *cli.Context) error {
	name := c.String(cpuProfileFlag.Name)
	if name == "" {
		return nil
	}
	f, err := os.Create(name)
	if err != nil {
		return fail(exitInput, "--cpuprofile: %v", err)
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		f.Close()
		return fail(exitInput, "--cpuprofile: %v", err)
	}
	cpuProfile = f
	return nil
}

// stopProfiles ends the CPU profile and writes the heap profile.
func stopProfiles(c *cli.Context) error {
	if cpuProfile != nil {
		pprof.StopCPUProfile()
		cpuProfile.Close()
		cpuProfile = nil
	}
	name := c.String(memProfileFlag.Name)
	if name == "" {
		return nil
	}
	f, err := os.Create(name)
	if err != nil {
		return fail(exitInput, "--memprofile: %v", err)
	}
	defer f.Close()
	runtime.GC()
	if err := pprof.WriteHeapProfile(f); err != nil {
		return fail(exitInput, "--memprofile: %v", err)
	}
	return nil
}
