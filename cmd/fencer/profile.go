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
	cpuProfileFlag   = &cli.StringFlag{Name: "cpuprofile", Usage: "write a CPU profile (go tool pprof) of the run to `FILE`"}
	memProfileFlag   = &cli.StringFlag{Name: "memprofile", Usage: "write a heap profile (go tool pprof; allocations and what is live at the end) to `FILE`"}
	blockProfileFlag = &cli.StringFlag{Name: "blockprofile", Usage: "write a profile of where goroutines wait (locks, channels; go tool pprof) to `FILE`"}
)

// cpuProfile and blockProfile are the open CPU and wait profiles, nil when
// none is being written.
var cpuProfile, blockProfile *os.File

// startProfiles starts the CPU profile and the recording of waits if they
// were asked for.
func startProfiles(c *cli.Context) error {
	if name := c.String(blockProfileFlag.Name); name != "" {
		f, err := os.Create(name)
		if err != nil {
			return fail(exitInput, "--blockprofile: %v", err)
		}
		blockProfile = f
		// Every wait is recorded: the waits of the explorer's workers are
		// what this profile is for, and they are too many to sample.
		runtime.SetBlockProfileRate(1)
	}
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

// stopProfiles ends the CPU profile and writes the wait and heap profiles.
func stopProfiles(c *cli.Context) error {
	if cpuProfile != nil {
		pprof.StopCPUProfile()
		cpuProfile.Close()
		cpuProfile = nil
	}
	if blockProfile != nil {
		runtime.SetBlockProfileRate(0)
		err := pprof.Lookup("block").WriteTo(blockProfile, 0)
		blockProfile.Close()
		blockProfile = nil
		if err != nil {
			return fail(exitInput, "--blockprofile: %v", err)
		}
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
