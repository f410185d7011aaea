package main

import (
	"bytes"
	"fmt"
	"os"
	"strconv"
	"sync"

	"github.com/urfave/cli/v2"

	"fencer/cegar"
	"fencer/cs"
	"fencer/formats"
	"fencer/report"
)

func insertCommand() *cli.Command {
	flags := append(append(append(engineFlags(), reportFlags()...), formatFlags()...),
		&cli.StringFlag{Name: "output", Aliases: []string{"o"}, Usage: "write the patched program to `FILE` instead of stdout"},
		&cli.BoolFlag{Name: "write", Aliases: []string{"w"}, Usage: "overwrite the input file with the patched program"},
		&cli.BoolFlag{Name: "diff", Usage: "print the fences as a unified diff of the input instead of the whole program"},
		&cli.GenericFlag{Name: "all", Value: &allValue{}, Usage: "also list the other minimum fence sets, each verified, up to N sets in all " +
			"(--all: 10, --all=N); the patched program uses the first"},
		&cli.StringFlag{Name: "kinds", Value: "full", Usage: "the fence kinds insert may use: full, or full,store to also use " +
			"store fences (fence store;, cheaper; under PSO they keep writes in order): fewest fences first, then fewest full ones"},
		&cli.BoolFlag{Name: "reconsider", Usage: "treat the fence; statements already in the program as candidates like any other point: " +
			"keep those a minimum set needs, remove the others (without it they stay as they are)"},
		&cli.BoolFlag{Name: "robust", Usage: "insert instead the fewest fences that make every run under the model equivalent to an SC run " +
			"(static critical cycles; about SC-equivalence, not the program's property: no SC check, and it may place more fences than insert)"},
	)
	return &cli.Command{
		Name:      "insert",
		Usage:     "insert a minimum set of fences that makes the program correct",
		ArgsUsage: "FILE",
		Description: "Checks the program under SC first (an SC bug cannot be fixed by fences: its trace is\n" +
			"printed), then finds a minimum set of fences for the model, checks the patched program (read\n" +
			"again, it must lower to the automata the last exploration found correct, or it is verified\n" +
			"again from scratch) and prints it on stdout (or as a unified diff with --diff: empty when no\n" +
			"fence is needed; apply it with patch -p0), with a summary on stderr.\n" +
			"When the program (with the fences found so far) is robust (see fencer robust), its verdict\n" +
			"is the SC verdict; when raising k does not end, the least fence set that also makes it\n" +
			"robust is the answer, and the fences no counterexample needs are marked \"for robustness only\".\n" +
			"With --robust it ignores the property and inserts the fewest fences that cut every critical\n" +
			"cycle (see fencer robust): every run under the model is then equivalent to an SC run. That is\n" +
			"SC-equivalence, not correctness, and may need more fences than the property does.\n" +
			"A fence can go at any point between two statements (after a write, after an if/else, before a\n" +
			"loop or a read, at the start of a body); ties between minimum sets prefer fewer enclosing loops,\n" +
			"then fewer unrolled for copies, then the point right after a write. With --reconsider the fences already in the program are\n" +
			"candidates too: the answer is the minimum over all points, and the summary lists the fences kept\n" +
			"(with the counterexample that needs each) and those removed.\n" +
			"Under arm, riscv and rmo (docs/models.md) the answer is the fewest changes, then the cheapest:\n" +
			"barriers of the model's kinds (dmb ishld/ishst/ish; fence r,rw ... fence rw,rw; membar masks) and,\n" +
			"under arm, accesses raised to acquire or release; each is verified by exploring the patched\n" +
			"program with loops unrolled --unroll times, and the summary says how far the proof goes.\n" +
			"Exit codes: 0 correct (fences inserted or none needed), 1 SC bug, 2 bad input, 3 unknown.",
		Flags: flags,
		Action: func(c *cli.Context) error {
			sys, m, err := parseArgModel(c)
			if err != nil {
				return inputError(c, err)
			}
			if err := canWrite(c, sys); err != nil {
				return inputError(c, err)
			}
			switch {
			case c.Bool("write") && c.String("output") != "":
				return fail(exitInput, "insert: use either -o or -w, not both")
			case c.Bool("write") && c.Bool("diff"):
				return fail(exitInput, "insert: use either --diff or -w, not both")
			case c.Bool("write") && sys.File.Name == stdinName:
				return fail(exitInput, "insert: -w needs a file, not standard input")
			case c.String("json") == "-" && !c.Bool("write") && c.String("output") == "":
				return fail(exitInput, "insert: --json - writes the report on standard output, where the patched program goes: add -o FILE or -w")
			case c.String("html") == "-" && !c.Bool("write") && c.String("output") == "":
				return fail(exitInput, "insert: --html - writes the page on standard output, where the patched program goes: add -o FILE or -w")
			}
			if err := oneStdout(c); err != nil {
				return err
			}
			target := c.String("output")
			if c.Bool("write") {
				target = sys.File.Name
			}
			for _, out := range []string{c.String("json"), c.String("html"), target} {
				if err := checkCreatable(out); err != nil {
					return err
				}
			}
			if axiomatic(m) {
				warnNoProperty(sys)
				return weakInsert(c, sys, m)
			}
			if c.Bool("robust") {
				return insertRobust(c, sys, m)
			}
			warnNoProperty(sys)
			r, patched, err := runEngine(c, sys, m, true)
			if err != nil {
				return engineError(err)
			}
			// One report for --json and --explain.
			rep := sync.OnceValue(func() *report.Report { return report.New("insert", sys, r) })
			if err := writeReport(c, sys, rep); err != nil {
				return err
			}
			return reportInsert(c, sys, r, patched, rep)
		},
	}
}

func reportInsert(c *cli.Context, sys *cs.System, r *cegar.Result, patched []byte, rep func() *report.Report) error {
	name := sys.File.Name
	switch r.Verdict {
	case cegar.Correct:
		if err := writeOutput(c, name, sys.File.Src, patched); err != nil {
			return err
		}
		if len(r.Fences) == 0 {
			fmt.Fprintf(os.Stderr, "%s: correct under %s, no fence needed\n", name, r.Model)
		} else {
			what := "a minimum"
			if r.Stats.NotMinimum {
				what = "verified, not proved a minimum"
			}
			fmt.Fprintf(os.Stderr, "%s: correct under %s with %s (%s):\n", name, r.Model, plural(len(r.Fences), "fence"), what)
			for _, f := range report.SourceOrder(r.Fences) {
				note := ""
				if f.Witness == nil {
					note = " (for robustness only: no counterexample needs it)"
				}
				fmt.Fprintf(os.Stderr, "  %s%s\n", report.FenceLine(name, sys, f), note)
			}
		}
		for _, s := range r.Removed {
			fmt.Fprintf(os.Stderr, "  %s:%d: fence removed\n", name, sys.File.Line(s.Pos()))
		}
		for i, alt := range r.Alternatives {
			fmt.Fprintf(os.Stderr, "other minimum set %d of %d (verified):\n", i+2, len(r.Alternatives)+1)
			for _, f := range report.SourceOrder(alt) {
				fmt.Fprintf(os.Stderr, "  %s\n", report.FenceLine(name, sys, f))
			}
		}
		report.PrintProof(os.Stderr, r)
		printStats(os.Stderr, r)
		if c.Bool("explain") {
			report.PrintFenceExplanations(os.Stderr, name, rep(), layoutFor(os.Stderr))
		}
		return nil
	case cegar.SCBug:
		tr := report.WitnessTrace(r.Trace)
		fmt.Fprintf(os.Stderr, "%s: sc-bug: wrong under SC, no fence can help; a trace of %s:\n", name, plural(len(tr.Steps), "step"))
		printTrace(os.Stderr, name, tr)
		if c.Bool("explain") {
			report.PrintTraceExplanation(os.Stderr, tr.Model, tr.Reorderings)
		}
		printStats(os.Stderr, r)
		return fail(exitBad, "")
	}
	fmt.Fprintf(os.Stderr, "%s: unknown under %s: %s\n", name, r.Model, r.Reason)
	report.PrintPartial(os.Stderr, sys, r)
	report.PrintKnown(os.Stderr, r)
	printStats(os.Stderr, r)
	return fail(exitUnknown, "")
}

// canWrite refuses (exit 2) what the format of the program cannot
// express: --reconsider where its fences cannot be removed, --kinds store
// where it has no store fence (formats.Format).
func canWrite(c *cli.Context, sys *cs.System) error {
	f := formats.OfSystem(sys)
	if c.Bool("reconsider") && !f.RemovesFences {
		return fail(exitInput, "insert: --reconsider: fencer cannot remove the fences of %s input (%s)", f.Name, f.Doc)
	}
	if store, err := kindsOf(c.String("kinds")); err == nil && store && !f.CanFence("store") {
		if f.NoStoreFence != "" {
			return fail(exitInput, "insert: --kinds store: %s (use --kinds full)", f.NoStoreFence)
		}
		return fail(exitInput, "insert: --kinds store: %s input (%s) cannot express a store fence (use --kinds full)", f.Name, f.Doc)
	}
	return nil
}

// writeOutput writes the patched program (or with --diff the patch) to
// stdout, the -o file, or over the input with -w.
func writeOutput(c *cli.Context, name string, src, text []byte) error {
	if c.Bool("diff") {
		var buf bytes.Buffer
		if err := unifiedDiff(&buf, name, name, src, text); err != nil {
			return err
		}
		text = buf.Bytes()
	}
	switch {
	case c.Bool("write"):
		return writeFile(name, text)
	case c.String("output") != "":
		return writeFile(c.String("output"), text)
	}
	_, err := os.Stdout.Write(text)
	return err
}

// allValue is the value of --all: a flag that may stand alone (10 sets) or
// take a number (--all=N), like a boolean flag of package flag.
type allValue struct{ n int }

func (v *allValue) IsBoolFlag() bool { return true }

func (v *allValue) String() string {
	if v == nil || v.n == 0 {
		return ""
	}
	return strconv.Itoa(v.n)
}

func (v *allValue) Set(s string) error {
	switch s {
	case "true":
		v.n = 10
		return nil
	case "false":
		v.n = 0
		return nil
	}
	n, err := strconv.Atoi(s)
	if err != nil || n < 1 {
		return fmt.Errorf("want a number of fence sets of at least 1 (--all=N)")
	}
	v.n = n
	return nil
}
