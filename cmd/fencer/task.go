package main

import (
	"errors"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/urfave/cli/v2"

	"fencer/cegar"
	"fencer/cfront"
	"fencer/cs"
	"fencer/formats"
	"fencer/memmodel"
	"fencer/report"
	"fencer/svcomp"
)

// SV-COMP tasks (docs/svcomp.md): fencer verify TASK.yml answers true,
// false or unknown for the task's unreach-call property, under SC (the
// semantics of the tasks); fencer check TASK.yml compares the answer with
// the task's expected_verdict.

// taskOutcome is what fencer found on one task.
type taskOutcome struct {
	task     *svcomp.Task
	prop     svcomp.Property // the unreach-call property (Line 0: none)
	sys      *cs.System      // the program, nil when it could not be read
	verdict  svcomp.Verdict
	reason   string        // why unknown
	result   *cegar.Result // the run the verdict rests on (nil when none ran)
	errs     []string      // the task or its program cannot be read
	warnings []formats.Warning
	engine   error // the engine failed (unknown)
	time     time.Duration
}

// runTask reads the task at path and checks its unreach-call property
// under SC. strict refuses format options that C does not read (verify; check
// is not strict, as for other files).
func runTask(c *cli.Context, path string, strict bool) taskOutcome {
	start := time.Now()
	out := runTaskOnce(c, path, strict)
	out.time = time.Since(start)
	return out
}

func runTaskOnce(c *cli.Context, path string, strict bool) taskOutcome {
	var out taskOutcome
	t, err := svcomp.Read(path)
	if err != nil {
		var pe *os.PathError
		if errors.As(err, &pe) {
			err = fmt.Errorf("%s: %v", path, pe.Err)
		}
		out.errs = strings.Split(err.Error(), "\n")
		return out
	}
	out.task = t
	prop, ok := t.UnreachCall()
	if !ok {
		var names []string
		for _, p := range t.Properties {
			names = append(names, p.Name())
		}
		out.reason = fmt.Sprintf("the task's properties (%s) do not include %s, the one fencer checks", strings.Join(names, ", "), svcomp.UnreachCall)
		return out
	}
	out.prop = prop
	name, src, err := readInput(t.Input)
	if err != nil {
		out.errs = []string{err.Error()}
		return out
	}
	f, err := formats.ForFile(name, "")
	if err != nil || f.Name != "c" {
		out.errs = []string{fmt.Sprintf("%s: the task's program %s is not C (.c or .i)", path, name)}
		return out
	}
	opt, err := formatOptions(c, f, strict)
	if err != nil {
		out.errs = []string{err.Error()}
		return out
	}
	// Under SC (a task's semantics) large atomic sections may run as
	// steps under a lock (cfront.Reader.SplitAtomic).
	opt[formats.SplitAtomic] = []string{"true"}
	// What linear integers cannot say is any integer: a true verdict
	// still holds, a false one then is unknown (cfront.Reader.Approximate).
	opt[formats.Approximate] = []string{"true"}
	sys, err := parseTaskProgram(f, name, src, opt, &out)
	if err != nil {
		return out
	}
	out.sys = sys
	r, _, err := runEngine(c, sys, memmodel.SC, false)
	if err != nil {
		out.engine, out.reason = err, err.Error()
		return out
	}
	out.result = r
	switch r.Verdict {
	case cegar.Correct:
		out.verdict = svcomp.True
	case cegar.Unsafe, cegar.SCBug:
		out.verdict = svcomp.False
		fr, ok := sys.Reader.(interface {
			Facts(string, []byte) (cfront.Facts, error)
		})
		if !ok {
			break
		}
		facts, err := fr.Facts(name, src)
		if err != nil {
			out.verdict, out.reason = svcomp.Unknown, err.Error()
			break
		}
		if len(facts.Approximations) > 0 {
			// The run may go through an operation computed as any
			// integer: it may not be a run of the program.
			out.verdict = svcomp.Unknown
			out.reason = fmt.Sprintf("a call of reach_error is reachable once %s %s computed as any integer (%s), which may not be a run of the C program",
				plural(len(facts.Approximations), "operation"), map[bool]string{true: "is", false: "are"}[len(facts.Approximations) == 1], approxList(facts.Approximations))
			break
		}
		if facts.BoundsChecks == 0 {
			break
		}
		// A reachable index out of bounds is a bad state of fencer's
		// but no call of reach_error: read the program again with such
		// runs cut, and say false only for a run that calls reach_error
		// without undefined behaviour on the way.
		cut := formats.Options{}
		for k, v := range opt {
			cut[k] = v
		}
		cut[formats.CutOutOfBounds] = []string{"true"}
		csys, err := parseTaskProgram(f, name, src, cut, nil)
		if err != nil {
			out.verdict, out.reason = svcomp.Unknown, "reading the program with out-of-bounds runs cut: "+err.Error()
			break
		}
		r2, _, err := runEngine(c, csys, memmodel.SC, false)
		switch {
		case err != nil:
			out.verdict, out.engine, out.reason = svcomp.Unknown, err, err.Error()
		case r2.Verdict == cegar.Correct:
			out.verdict = svcomp.Unknown
			out.reason = "an array index out of bounds (or a null pointer dereference) is reachable: undefined behaviour in C; no call of reach_error is reachable without one"
		case r2.Verdict == cegar.Unsafe || r2.Verdict == cegar.SCBug:
			out.sys, out.result = csys, r2
		default:
			out.verdict, out.result, out.reason = svcomp.Unknown, r2, "an array index out of bounds (or a null pointer dereference) is reachable: undefined behaviour in C; without it: "+r2.Reason
		}
	default:
		out.reason = r.Reason
	}
	return out
}

// parseTaskProgram reads the program of a task; an error goes to
// out.errs (when out is not nil), its warnings to out.warnings.
func parseTaskProgram(f *formats.Format, name string, src []byte, opt formats.Options, out *taskOutcome) (*cs.System, error) {
	sys, warns, err := f.Parse(name, src, opt)
	if out == nil {
		return sys, err
	}
	out.warnings = append(out.warnings, warns...)
	if err != nil {
		var el cs.ErrorList
		if errors.As(err, &el) {
			for _, e := range el {
				out.errs = append(out.errs, e.Error())
			}
		} else {
			out.errs = append(out.errs, fmt.Sprintf("%s: %v", name, err))
		}
	}
	return sys, err
}

// verifyTask is fencer verify TASK.yml.
func verifyTask(c *cli.Context) error {
	path := c.Args().First()
	if c.IsSet("model") && c.String("model") != "sc" {
		return fail(exitInput, "%s: a task is checked under sc, the semantics of SV-COMP's tasks (to check its program under --model %s, verify the program's file)", path, c.String("model"))
	}
	if err := checkCreatable(c.String("json")); err != nil {
		return err
	}
	out := runTask(c, path, true)
	inputWarnings = out.warnings
	for _, w := range out.warnings {
		fmt.Fprintln(os.Stderr, w)
	}
	printNotes(c, out.sys)
	w := humanOut(c)
	if len(out.errs) > 0 {
		for _, e := range out.errs {
			fmt.Fprintln(os.Stderr, e)
		}
		if out.task != nil {
			fmt.Fprintf(w, "%s: unknown (fencer cannot read the task's program: %s)\n", path, firstLine(out.errs))
		}
		return inputError(c, errors.New(strings.Join(out.errs, "\n")))
	}
	if out.engine != nil {
		return engineError(out.engine)
	}
	if out.result == nil {
		// Nothing ran (no unreach-call property): an unknown report.
		rep := &report.Report{Version: report.Version, Command: "verify", File: path, Verdict: "unknown", Model: "sc", Reason: out.reason,
			Fences: []report.Fence{}, Stats: &report.Stats{Refinements: map[string]int{"predicates": 0, "k": 0, "fences": 0}}}
		if err := writeReport(c, nil, func() *report.Report { return rep }); err != nil {
			return err
		}
	}
	if out.sys != nil && out.result != nil {
		r := out.result
		if out.verdict == svcomp.Unknown && r.Verdict != cegar.Unknown {
			// A bad run that may not be one of the C program's (through
			// an approximation or undefined behaviour): the report says
			// unknown and why, without the run.
			u := *r
			u.Verdict, u.Reason, u.Trace = cegar.Unknown, out.reason, nil
			r = &u
		}
		if err := writeJSON(c, out.sys, r); err != nil {
			return err
		}
	}
	input := out.task.Input
	switch out.verdict {
	case svcomp.True:
		fmt.Fprintf(w, "%s: true (%s holds under sc: no call of reach_error is reachable in %s)\n", path, svcomp.UnreachCall, input)
		printStats(os.Stderr, out.result)
		return nil
	case svcomp.False:
		tr := report.WitnessTrace(out.result.Trace)
		fmt.Fprintf(w, "%s: false (%s is violated under sc: a call of reach_error is reachable in %s, %s)\n", path, svcomp.UnreachCall, input, plural(len(tr.Steps), "step"))
		printTrace(w, out.sys.File.Name, tr)
		printStats(os.Stderr, out.result)
		return fail(exitBad, "")
	}
	fmt.Fprintf(w, "%s: unknown (%s)\n", path, out.reason)
	if out.result != nil {
		printStats(os.Stderr, out.result)
	}
	return fail(exitUnknown, "")
}

func firstLine(errs []string) string {
	if len(errs) == 0 {
		return ""
	}
	return errs[0]
}

// checkTask is fencer check on a task: one expectation, the task's
// expected verdict of unreach-call.
func checkTask(c *cli.Context, path string) fileResult {
	start := time.Now()
	fr := fileResult{path: path}
	out := runTask(c, path, false)
	fr.time = time.Since(start)
	for _, w := range out.warnings {
		fr.warnings = append(fr.warnings, w.String())
	}
	if len(out.errs) > 0 {
		fr.errs = out.errs
		return fr
	}
	res := checkResult{File: path, Model: "sc", TimeSeconds: out.time.Seconds(), Got: out.verdict.String(), Reason: out.reason}
	if out.prop.Line == 0 {
		// No unreach-call property: one result that cannot pass.
		var names []string
		for _, p := range out.task.Properties {
			names = append(names, p.Name())
			if res.Line == 0 {
				res.Line = p.Line
			}
		}
		res.Expected = strings.Join(names, ", ")
		fr.results = append(fr.results, res)
		return fr
	}
	if out.prop.Expected == nil {
		return fr // no expected verdict: no expectation
	}
	res.Line = out.prop.Line
	res.Expected = svcomp.Of(*out.prop.Expected).String()
	if out.verdict != svcomp.Unknown {
		res.Reason = ""
	}
	res.Pass = res.Got == res.Expected
	fr.results = append(fr.results, res)
	return fr
}

// approxList names the first approximations, "a.c:3:5: %s ...; and 2 more".
func approxList(list []string) string {
	const shown = 2
	if len(list) <= shown {
		return strings.Join(list, "; ")
	}
	return strings.Join(list[:shown], "; ") + fmt.Sprintf("; and %d more", len(list)-shown)
}
