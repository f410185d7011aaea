package main

import (
	"context"
	"fmt"
	"os"
	"runtime"
	"strings"
	"time"

	"github.com/urfave/cli/v2"

	"fencer/cegar"
	"fencer/cs"
	"fencer/memmodel"
	"fencer/report"
	"fencer/statestore"
	"fencer/svcomp"
)

// engineFlags are the flags of the commands that run the abstract engine.
func engineFlags() []cli.Flag {
	return []cli.Flag{
		modelFlag,
		&cli.DurationFlag{Name: "timeout", Value: 10 * time.Minute, Usage: "give up (verdict unknown) after this long (0: no limit)"},
		&cli.IntFlag{Name: "max-k", Value: 10, Usage: "largest number of exact writes kept per store buffer"},
		&cli.IntFlag{Name: "max-predicates", Value: 400, Usage: "largest number of predicates"},
		&cli.IntFlag{Name: "max-states", Value: statestore.MaxStates, Usage: "largest number of abstract states in one exploration", DefaultText: "no limit but --max-memory"},
		maxMemoryFlag,
		&cli.IntFlag{Name: "workers", Value: defaultWorkers(), Usage: "goroutines that expand the states of an exploration (the states stored and the answer do not depend on it)", DefaultText: "the number of CPUs, at most 4"},
		verboseFlag,
		unrollFlag,
	}
}

// defaultWorkers is the number of CPUs, at most 4 (the merge of the
// expanded states is sequential: more do not pay).
func defaultWorkers() int { return min(runtime.NumCPU(), 4) }

// jsonFlag is the --json of insert and verify (docs/report.md).
func jsonFlag() cli.Flag {
	return &cli.StringFlag{Name: "json", Usage: "write a JSON report to `FILE` (\"-\": standard output; whatever the verdict; docs/report.md)"}
}

// reportFlags are the flags of insert and verify about what they print
// (report.go, explain.go, progress.go).
func reportFlags() []cli.Flag {
	return []cli.Flag{jsonFlag(), explainFlag, quietFlag, layoutFlag, traceFlag, htmlFlag}
}

func engineOptions(c *cli.Context, m memmodel.Model) (cegar.Options, error) {
	opt := cegar.Options{
		Model:         m,
		MaxK:          c.Int("max-k"),
		MaxPredicates: c.Int("max-predicates"),
		MaxStates:     c.Int("max-states"),
		Workers:       c.Int("workers"),
		Reconsider:    c.Bool("reconsider"), // insert only
		All:           allOf(c),
		Log: func(format string, args ...any) {
			log.Debugf(format, args...)
		},
	}
	mem, err := maxMemoryOf(c)
	if err != nil {
		return opt, err
	}
	opt.MaxMemory = mem
	// The soft memory limit follows the live heap, up to what mem leaves it (gclimit.go).
	followMemory(mem)
	if k := c.String("kinds"); k != "" { // insert only
		store, err := kindsOf(k)
		if err != nil {
			return opt, err
		}
		opt.StoreFences = store
	}
	return opt, nil
}

// kindsOf reads --kinds: "full" or "full,store" (in any order); it reports
// whether store fences may be used.
func kindsOf(s string) (bool, error) {
	full, store := false, false
	for _, k := range strings.Split(s, ",") {
		switch strings.TrimSpace(k) {
		case "full":
			full = true
		case "store":
			store = true
		default:
			return false, fail(exitInput, "--kinds: unknown fence kind %q (want full or full,store)", k)
		}
	}
	if !full {
		return false, fail(exitInput, "--kinds must include full (full fences are needed wherever a write must not pass a read)")
	}
	return store, nil
}

// runEngine runs insert (or verify) on sys under model m with a fresh
// solver, under the command's timeout and SIGINT.
func runEngine(c *cli.Context, sys *cs.System, m memmodel.Model, insert bool) (*cegar.Result, []byte, error) {
	opt, err := engineOptions(c, m)
	if err != nil {
		return nil, nil, err
	}
	setVerbose(c)
	quiet = c.Bool("quiet")
	if err := setLayout(c); err != nil {
		return nil, nil, err
	}
	status, stopProgress := startProgress(c)
	defer stopProgress()
	opt.Status = status
	ctx, stop := interruptible(c.Context)
	defer stop()
	if d := c.Duration("timeout"); d > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, d)
		defer cancel()
	}
	sol, err := cegar.NewZ3Solver()
	if err != nil {
		return nil, nil, fail(exitUnknown, "cannot start the SMT solver: %v", err)
	}
	defer sol.Close()
	stopWatch := sol.InterruptOn(ctx)
	defer stopWatch()
	var r *cegar.Result
	var patched []byte
	if insert {
		r, patched, err = cegar.Insert(ctx, sys, sol, opt)
	} else {
		r, err = cegar.Verify(ctx, sys, sol, opt)
	}
	if r != nil {
		r.Reason += limitFlagHint(r.Limit)
	}
	return r, patched, err
}

// limitFlagHint is what the command adds to the reason of an unknown
// verdict that a limit caused: the flag that raises it.
func limitFlagHint(l cegar.Limit) string {
	flag := map[cegar.Limit]string{
		cegar.StateLimit:     "--max-states",
		cegar.MemoryLimit:    "--max-memory",
		cegar.TimeLimit:      "--timeout",
		cegar.KLimit:         "--max-k",
		cegar.PredicateLimit: "--max-predicates",
	}[l]
	if flag == "" {
		return ""
	}
	return " (" + flag + ")"
}

func verifyCommand() *cli.Command {
	return &cli.Command{
		Name:      "verify",
		Usage:     "decide whether a program is correct under a memory model (no fences added)",
		ArgsUsage: "FILE",
		Description: "Prints the verdict in the words of the JSON report: \"correct\" (no bad state is reachable),\n" +
			"\"unsafe\" (or \"sc-bug\" under --model sc) with a shortest real trace to a bad state, or\n" +
			"\"unknown\" with the reason.\n" +
			"Under arm, riscv and rmo (docs/models.md) the executions of the program are explored with each\n" +
			"loop unrolled --unroll times: unsafe comes with the execution (its events, rf, co and the cycle\n" +
			"SC forbids); correct says what proves it (every execution explored, or correct under SC and\n" +
			"robust); no bad execution within the bound alone is not a proof and exits 3.\n" +
			"A task definition of SV-COMP (TASK.yml, docs/svcomp.md) is checked for its unreach-call property\n" +
			"under sc: the answer is true, false (with the trace to the call of reach_error) or unknown.\n" +
			"Exit codes: 0 correct (true), 1 unsafe or sc-bug (false), 2 bad input, 3 unknown.",
		Flags: append(append(engineFlags(), reportFlags()...), formatFlags()...),
		Action: func(c *cli.Context) error {
			if c.NArg() == 1 && svcomp.IsTask(c.Args().First()) {
				return verifyTask(c)
			}
			sys, m, err := parseArgModel(c)
			if err != nil {
				return inputError(c, err)
			}
			for _, out := range []string{c.String("json"), c.String("html")} {
				if err := checkCreatable(out); err != nil {
					return err
				}
			}
			if err := oneStdout(c); err != nil {
				return err
			}
			warnNoProperty(sys)
			if axiomatic(m) {
				return weakVerify(c, sys, m)
			}
			r, _, err := runEngine(c, sys, m, false)
			if err != nil {
				return engineError(err)
			}
			if err := writeJSON(c, sys, r); err != nil {
				return err
			}
			return reportVerify(c, sys, r)
		},
	}
}

// reportVerify prints the verdict with the word the JSON report uses
// (correct, unsafe, sc-bug, unknown).
// With --json - the report has standard output, and this goes to stderr.
func reportVerify(c *cli.Context, sys *cs.System, r *cegar.Result) error {
	out := humanOut(c)
	switch r.Verdict {
	case cegar.Correct:
		fmt.Fprintf(out, "%s: %s under %s: no bad state is reachable\n", sys.File.Name, r.Verdict, r.Model)
		if c.Bool("explain") {
			report.ExplainCorrect(out, sys, r)
		}
		printStats(os.Stderr, r)
		return nil
	case cegar.Unsafe, cegar.SCBug:
		tr := report.WitnessTrace(r.Trace)
		fmt.Fprintf(out, "%s: %s under %s: a bad state is reachable in %s\n", sys.File.Name, r.Verdict, r.Model, plural(len(tr.Steps), "step"))
		printTrace(out, sys.File.Name, tr)
		if c.Bool("explain") {
			report.PrintTraceExplanation(out, tr.Model, tr.Reorderings)
		}
		printStats(os.Stderr, r)
		return fail(exitBad, "")
	}
	fmt.Fprintf(out, "%s: %s under %s: %s\n", sys.File.Name, r.Verdict, r.Model, r.Reason)
	report.PrintKnown(out, r)
	printStats(os.Stderr, r)
	return fail(exitUnknown, "")
}

// engineError maps an engine failure to exit code 3 (fencer could not
// decide), keeping the message.
func engineError(err error) error {
	if _, ok := err.(*exitError); ok {
		return err
	}
	return fail(exitUnknown, "%v", err)
}

func printStats(w *os.File, r *cegar.Result) {
	if quiet {
		return
	}
	s := r.Stats
	ref := []string{fmt.Sprintf("predicates %d", s.Refinements.Predicates), fmt.Sprintf("k %d", s.Refinements.K), fmt.Sprintf("fences %d", s.Refinements.Fences)}
	queries := pluralForm(s.Queries, "SMT query", "SMT queries")
	if s.QueriesInGo > 0 {
		queries += fmt.Sprintf(" (%d in Go)", s.QueriesInGo)
	}
	fmt.Fprintf(w, "k=%d, %s, refinements: %s; %s, %s, %s, %.2fs\n",
		s.K, plural(s.Predicates, "predicate"), strings.Join(ref, ", "), plural(s.States, "abstract state"),
		queries, plural(s.Interpolations, "interpolation"), s.Time.Seconds())
}

// allOf reads --all (insert only): 0 when absent.
func allOf(c *cli.Context) int {
	if v, ok := c.Generic("all").(*allValue); ok && v != nil {
		return v.n
	}
	return 0
}
