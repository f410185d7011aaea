package main

import (
	"fmt"
	"os"
	"time"

	"github.com/urfave/cli/v2"

	"fencer/cs"
	"fencer/fences"
	"fencer/memmodel"
	"fencer/report"
	"fencer/robust"
)

func robustCommand() *cli.Command {
	return &cli.Command{
		Name:      "robust",
		Usage:     "decide statically whether every run under the model is equivalent to an SC run",
		ArgsUsage: "FILE",
		Description: "A static critical-cycle analysis (program order and conflicts between processes; the\n" +
			"model's relaxed pairs: TSO a write then a read of another variable, PSO also a write then\n" +
			"a write of another variable, with no fence or atomic step between on some path). With no\n" +
			"critical cycle every run under the model is equivalent to an SC run, so the program is\n" +
			"correct under the model exactly when it is correct under SC. No property is needed. The\n" +
			"analysis is sound, not complete: it may report a cycle that no run follows.\n" +
			"Exit codes: 0 robust, 1 not robust (a critical cycle is printed), 2 bad input.",
		Flags: append([]cli.Flag{modelFlag, verboseFlag}, formatFlags()...),
		Action: func(c *cli.Context) error {
			sys, m, err := parseArgModel(c)
			if err != nil {
				return err
			}
			an := robust.Analyze(sys, m)
			ok, p := an.Robust(nil)
			name := sys.File.Name
			if ok {
				fmt.Printf("%s: robust under %s: every %s run is equivalent to an SC run\n", name, m, report.Upper(m))
				return nil
			}
			a := an.Graph.Acc[p.A]
			fmt.Printf("%s:%d: not robust under %s: a critical cycle:\n  %s\n", name, sys.File.Line(a.Pos), m, an.Describe(p.Cycle))
			return fail(exitBad, "")
		},
	}
}

// insertRobust is `fencer insert --robust`: the minimum set of fence sites
// that makes the program robust under the model, patched into the source.
func insertRobust(c *cli.Context, sys *cs.System, m memmodel.Model) error {
	name := sys.File.Name
	start := time.Now()
	an := robust.Analyze(sys, m)
	fs, err := an.MinFences()
	if err != nil {
		if c.String("json") != "" {
			rep := &report.Report{Version: report.Version, Command: "insert", File: name, Verdict: "unknown", Model: m.String(), Reason: err.Error(), Fences: []report.Fence{},
				Stats: &report.Stats{Refinements: map[string]int{"predicates": 0, "k": 0, "fences": 0}, States: an.States, TimeSeconds: time.Since(start).Seconds()}}
			if werr := emitReport(c.String("json"), rep); werr != nil {
				return werr
			}
		}
		return fail(exitUnknown, "%s: %v", name, err)
	}
	var sites []*cs.Site
	for _, id := range fs.Sites {
		sites = append(sites, sys.Sites[id])
	}
	// Final check: the patched text, parsed and analysed from scratch.
	patched, psys, err := fences.PatchAndParse(sys, sites)
	if err != nil {
		return fail(exitUnknown, "internal error: %v", err)
	}
	if ok, p := robust.Analyze(psys, m).Robust(nil); !ok {
		return fail(exitUnknown, "internal error: the patched program is not robust: %s", robust.Analyze(psys, m).Describe(p.Cycle))
	}
	if err := writeOutput(c, name, sys.File.Src, patched); err != nil {
		return err
	}
	rep := report.NewRobust(sys, m, an, fs, time.Since(start))
	if c.String("json") != "" {
		if err := emitReport(c.String("json"), rep); err != nil {
			return err
		}
	}
	switch {
	case len(sites) == 0:
		fmt.Fprintf(os.Stderr, "%s: robust under %s, no fence needed\n", name, m)
	default:
		what := "a minimum"
		if !fs.Minimal {
			what = "not proved minimum: the search hit its limit"
		}
		fmt.Fprintf(os.Stderr, "%s: robust under %s with %s (%s; SC-equivalence, not a property):\n", name, m, plural(len(sites), "fence"), what)
		report.PrintRobust(os.Stderr, sys, rep)
	}
	return nil
}
