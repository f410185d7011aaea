package main

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/urfave/cli/v2"

	"fencer/statestore"
)

// flagMinimum is the least value of each numeric flag whose least value is
// not 0. A limit of 0 that would silently mean "the default" is refused
// rather than accepted; where 0 means "no limit" (--timeout, --max-depth)
// the flag's usage says so.
var flagMinimum = map[string]int64{
	"runs":           1,
	"max-k":          1,
	"max-predicates": 1,
	"max-states":     1,
	"jobs":           1,
	"workers":        1,
	"iterations":     1,
}

// checkLimits refuses (exit 2) a numeric flag of the command below its
// minimum: 0 for every number and duration unless flagMinimum says more.
func checkLimits(c *cli.Context) error {
	for _, f := range c.Command.Flags {
		name := f.Names()[0]
		min := flagMinimum[name]
		var v int64
		var shown any
		switch f.(type) {
		case *cli.IntFlag:
			v = int64(c.Int(name))
			shown = v
		case *cli.Int64Flag:
			v = c.Int64(name)
			shown = v
		case *cli.Float64Flag:
			x := c.Float64(name)
			if x < 0 {
				v = -1
			}
			shown = x
		case *cli.DurationFlag:
			d := c.Duration(name)
			v = int64(d)
			shown = d
		default:
			continue
		}
		if v >= min {
			continue
		}
		if min == 0 {
			return fail(exitInput, "--%s must not be negative (got %v)", name, shown)
		}
		return fail(exitInput, "--%s must be at least %d (got %v)", name, min, shown)
	}
	return nil
}

// withLimits makes every command check its numeric flags before it runs.
func withLimits(cmds []*cli.Command) {
	for _, cmd := range cmds {
		before := cmd.Before
		cmd.Before = func(c *cli.Context) error {
			if err := checkLimits(c); err != nil {
				return err
			}
			if before != nil {
				return before(c)
			}
			return nil
		}
		withLimits(cmd.Subcommands)
	}
}

// memoryUnits are the units --max-memory accepts (case-insensitive), all
// binary: 1 KB = 1 KiB = 1024 bytes.
var memoryUnits = []struct {
	suffix string
	mult   int64
}{
	{"tib", 1 << 40}, {"gib", 1 << 30}, {"mib", 1 << 20}, {"kib", 1 << 10},
	{"tb", 1 << 40}, {"gb", 1 << 30}, {"mb", 1 << 20}, {"kb", 1 << 10},
	{"t", 1 << 40}, {"g", 1 << 30}, {"m", 1 << 20}, {"k", 1 << 10}, {"b", 1},
}

// parseMemory reads an amount of memory: a number, possibly with a
// fraction, and a unit of memoryUnits (none: bytes), as in 512MB or 1.5GB.
func parseMemory(s string) (int64, error) {
	t := strings.ToLower(strings.TrimSpace(s))
	mult := int64(1)
	for _, u := range memoryUnits {
		if strings.HasSuffix(t, u.suffix) {
			t, mult = strings.TrimSpace(strings.TrimSuffix(t, u.suffix)), u.mult
			break
		}
	}
	x, err := strconv.ParseFloat(t, 64)
	if err != nil || math.IsNaN(x) || math.IsInf(x, 0) || x <= 0 || x*float64(mult) >= math.MaxInt64 {
		return 0, fmt.Errorf("%q is not an amount of memory (e.g. 512MB, 2GB)", s)
	}
	return max(int64(x*float64(mult)), 1), nil
}

// defaultMaxMemory is --max-memory's default: half the memory the machine
// (or the process's cgroup) has, or 4 GB where that cannot be read.
func defaultMaxMemory() int64 {
	if m := statestore.MachineMemory(); m > 0 {
		return m / 2
	}
	return 4 << 30
}

// maxMemoryFlag is --max-memory, an engine flag.
var maxMemoryFlag = &cli.StringFlag{Name: "max-memory",
	Usage:       "keep the process's memory within this: an exploration stops (verdict unknown) when its live Go heap and state stores come near it: 512MB, 2GB (binary units)",
	DefaultText: "half the machine's memory"}

// maxMemoryOf reads --max-memory (exit 2 on a bad value).
func maxMemoryOf(c *cli.Context) (int64, error) {
	s := c.String("max-memory")
	if s == "" {
		return defaultMaxMemory(), nil
	}
	n, err := parseMemory(s)
	if err != nil {
		return 0, fail(exitInput, "--max-memory: %v", err)
	}
	return n, nil
}
