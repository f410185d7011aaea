package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"time"

	"github.com/urfave/cli/v2"

	"fencer/memmodel"
	"fencer/report"
)

var modelFlag = &cli.StringFlag{Name: "model", Value: "tso", Usage: "memory model: " + memmodel.Names()}

func modelOf(c *cli.Context) (memmodel.Model, error) {
	m, err := memmodel.Parse(c.String("model"))
	if err != nil {
		return nil, fail(exitInput, "%v", err)
	}
	return m, nil
}

// interruptible returns a context cancelled by SIGINT.
func interruptible(parent context.Context) (context.Context, context.CancelFunc) {
	return signal.NotifyContext(parent, os.Interrupt)
}

func exploreCommand() *cli.Command {
	return &cli.Command{
		Name:      "explore",
		Usage:     "run the explicit-state checker (concrete values, real buffers)",
		ArgsUsage: "FILE",
		Description: "Breadth-first search over concrete states. Prints a shortest trace to a bad state,\n" +
			"or says the program is safe when the whole state space was explored. Nondeterministic\n" +
			"values are tried from a finite set, so a program with unbounded `*` values is never called\n" +
			"safe (a `*` within a declared range, as in Memorax's `* : [0:1]`, is tried whole).\n" +
			"Exit codes: 0 safe, 1 bad state found, 2 bad input, 3 bounds hit.",
		Flags: append([]cli.Flag{
			modelFlag,
			&cli.IntFlag{Name: "max-states", Value: 1_000_000, Usage: "stop after this many distinct states"},
			&cli.IntFlag{Name: "max-depth", Value: 0, Usage: "stop at this many steps (0: no limit)"},
			jsonFlag(),
			layoutFlag,
			traceFlag,
			verboseFlag,
		}, formatFlags()...),
		Action: func(c *cli.Context) error {
			sys, m, err := parseArgModel(c)
			if err != nil {
				return inputError(c, err)
			}
			if err := checkCreatable(c.String("json")); err != nil {
				return err
			}
			if err := setLayout(c); err != nil {
				return err
			}
			warnNoProperty(sys)
			out := humanOut(c)
			start := time.Now()
			ctx, stop := interruptible(c.Context)
			defer stop()
			if _, err := memmodel.ForBuffers(sys, m); err != nil {
				return fail(exitInput, "explore: %v (the explicit checker runs SC and the store-buffer models; use verify under %s)", err, m)
			}
			conc := memmodel.NewConcrete(sys, m)
			res, err := conc.Explore(ctx, memmodel.Limits{MaxStates: c.Int("max-states"), MaxDepth: c.Int("max-depth")})
			if err != nil {
				return fail(exitUnknown, "%s: %v", sys.File.Name, err)
			}
			var tr *report.Trace
			if res.Verdict == memmodel.Unsafe {
				states, err := conc.Replay(res.Trace)
				if err != nil {
					return fail(exitUnknown, "internal error: %v", err)
				}
				tr = report.BuildTrace(sys, m, res.Trace, states)
			}
			if err := writeExploreJSON(c, sys, m, res, tr, time.Since(start)); err != nil {
				return err
			}
			switch res.Verdict {
			case memmodel.Safe:
				fmt.Fprintf(out, "%s: safe under %s (%s)\n", sys.File.Name, m, plural(res.States, "state"))
				return nil
			case memmodel.Unsafe:
				fmt.Fprintf(out, "%s: bad state reachable under %s in %s (%s explored)\n", sys.File.Name, m, plural(len(tr.Steps), "step"), plural(res.States, "state"))
				printTrace(out, sys.File.Name, tr)
				return fail(exitBad, "")
			}
			fmt.Fprintf(out, "%s: no bug within bounds under %s: %s (%s, depth %d)\n", sys.File.Name, m, res.Reason, plural(res.States, "state"), res.Depth)
			return fail(exitUnknown, "")
		},
	}
}
