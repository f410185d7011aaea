package main

import (
	"github.com/urfave/cli/v2"
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
