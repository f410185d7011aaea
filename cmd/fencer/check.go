package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"
	"strings"
	"time"

	"github.com/urfave/cli/v2"

	"fencer/cegar"
	"fencer/cs"
	"fencer/formats"
	"fencer/svcomp"
)

// checkResult is the outcome of one expectation; it is also its entry in
// the JSON report of check (docs/report.md).
type checkResult struct {
	File        string       `json:"file"`
	Line        int          `json:"line"`
	Model       string       `json:"model"`
	Expected    string       `json:"expected"` // safe, bug or fences=N, as written
	Got         string       `json:"got"`      // safe, bug, fences=N, unknown or error
	Reason      string       `json:"reason,omitempty"`
	Pass        bool         `json:"pass"`
	Fences      []checkFence `json:"fences,omitempty"` // the fence sites found
	TimeSeconds float64      `json:"time_seconds"`

	wantFences int
}

type checkFence struct {
	Line      int    `json:"line"`
	Statement string `json:"statement"`
}

// fileResult is what check found in one file: the input errors (the file
// cannot be read or parsed, or an expectation is malformed: exit 2) and one
// result per expectation.
type fileResult struct {
	path     string
	errs     []string
	warnings []string
	results  []checkResult
	time     time.Duration
}

// checkFile runs every expectation of the file at path.
func checkFile(c *cli.Context, path string) fileResult {
	if svcomp.IsTask(path) {
		return checkTask(c, path)
	}
	start := time.Now()
	fr := checkFileResults(c, path)
	fr.time = time.Since(start)
	return fr
}

func checkFileResults(c *cli.Context, path string) fileResult {
	fr := fileResult{path: path}
	name, src, err := readInput(path)
	if err != nil {
		fr.errs = []string{err.Error()}
		return fr
	}
	fr.path = name
	f, err := formats.ForFile(name, c.String("format"))
	if err != nil {
		fr.errs = []string{err.Error()}
		return fr
	}
	exps, el := f.Expectations(name, src)
	var errs []string
	for _, e := range el {
		errs = append(errs, e.Error())
	}
	sys, warns, err := parseSource(c, name, src, c.String("format"), false)
	for _, w := range warns {
		fr.warnings = append(fr.warnings, w.String())
	}
	if err != nil {
		var el cs.ErrorList
		if errors.As(err, &el) {
			for _, e := range el {
				errs = append(errs, e.Error())
			}
		} else {
			errs = append(errs, fmt.Sprintf("%s: %v", name, err))
		}
	}
	if len(errs) > 0 {
		fr.errs = errs
		return fr
	}
	if w := noPropertyWarning(sys); w != nil && len(exps) > 0 {
		fr.warnings = append(fr.warnings, w.String())
	}
	for _, e := range exps {
		fr.results = append(fr.results, checkOne(c, sys, e))
	}
	return fr
}

// checkOne runs one expectation and describes what fencer found.
func checkOne(c *cli.Context, sys *cs.System, e formats.Expectation) checkResult {
	start := time.Now()
	res := checkResult{File: sys.File.Name, Line: e.Line, Model: e.Model.String(), Expected: e.What, wantFences: e.Fences}
	if axiomatic(e.Model) {
		return weakCheckOne(c, sys, e, res)
	}
	r, _, err := runEngine(c, sys, e.Model, true)
	res.TimeSeconds = time.Since(start).Seconds()
	if err != nil {
		res.Got, res.Reason = "error", err.Error()
		return res
	}
	switch r.Verdict {
	case cegar.SCBug:
		res.Got, res.Pass = "bug", e.Bug
	case cegar.Correct:
		var fs []checkFence
		for _, f := range r.Fences {
			fs = append(fs, checkFence{Line: sys.File.Line(f.Site.Pos()), Statement: f.Site.Text})
		}
		res.correct(e, fs)
	default:
		res.Got, res.Reason = "unknown", r.Reason
	}
	return res
}

// correct records a correct answer with fences fs against e.
func (res *checkResult) correct(e formats.Expectation, fs []checkFence) {
	res.Got = fmt.Sprintf("fences=%d", len(fs))
	if len(fs) == 0 {
		res.Got = "safe"
	}
	res.Pass = !e.Bug && e.Fences == len(fs)
	res.Fences = fs
}

// printResult writes the line of one expectation, and for a failure what
// was found.
func printResult(w io.Writer, r checkResult) {
	status := "FAIL"
	if r.Pass {
		status = "ok  "
	}
	got := r.Got
	switch {
	case r.Reason != "":
		got += ": " + r.Reason
	case r.Got == "safe":
		got = "safe (fences=0)"
	case r.Got == "bug":
		got = "sc bug"
	}
	fmt.Fprintf(w, "%s %s:%d: expect %s %s: got %s (%.1fs)\n", status, r.File, r.Line, r.Model, r.Expected, got, r.TimeSeconds)
	if r.Pass || (r.Got != "safe" && !strings.HasPrefix(r.Got, "fences=")) {
		return
	}
	if r.Expected == "bug" {
		fmt.Fprintf(w, "     expected an SC bug, found %s", plural(len(r.Fences), "fence"))
	} else {
		fmt.Fprintf(w, "     expected %s, found %d", plural(r.wantFences, "fence"), len(r.Fences))
	}
	if len(r.Fences) == 0 {
		fmt.Fprintln(w)
		return
	}
	fmt.Fprintln(w, ":")
	for _, f := range r.Fences {
		fmt.Fprintf(w, "       %s:%d: after %s\n", r.File, f.Line, f.Statement)
	}
}

func checkCommand() *cli.Command {
	flags := append(append(engineFlags()[1:], formatFlags()...), // every flag but --model: each expectation names its model
		&cli.StringFlag{Name: "json", Usage: "write the results as JSON to `FILE` (docs/report.md)"},
		&cli.StringFlag{Name: "junit", Usage: "write the results as JUnit XML to `FILE` (one test case per expectation)"},
		&cli.IntFlag{Name: "jobs", Aliases: []string{"j"}, Value: runtime.NumCPU(), Usage: "check `N` files at a time"},
		&cli.BoolFlag{Name: "allow-empty", Usage: "let a file without expectation lines pass (without it, such a file fails: check must not pass by checking nothing)"},
	)
	return &cli.Command{
		Name:      "check",
		Usage:     "run every \"// fencer: expect\" line of the given files",
		ArgsUsage: "FILE...",
		Description: "For each expectation, runs fencer insert under its model and compares the verdict and\n" +
			"the number of fences; a failure shows the fence sites found. Files run -j at a time; the\n" +
			"output keeps their order. The last line is \"N passed, N failed\".\n" +
			"A task definition of SV-COMP (TASK.yml, docs/svcomp.md) has one expectation: the\n" +
			"expected_verdict of its unreach-call property, checked under sc.\n" +
			"A file with no expectation line fails (unless --allow-empty); a comment that looks like a\n" +
			"misspelled expectation (\"// Fencer: expect\", \"// fencer expect\", \"/* fencer: expect */\" in\n" +
			".cs, \"// fencer: expct\") is an input error at its file:line:col.\n" +
			"Exit codes: 2 when any file cannot be read or parsed or has a malformed expectation (every\n" +
			"file still runs), else 3 when interrupted, else 1 when any expectation fails or cannot be\n" +
			"decided, else 0.",
		Flags: flags,
		Action: func(c *cli.Context) error {
			if c.NArg() == 0 {
				return fail(exitInput, "check: no files given (see fencer check --help)")
			}
			for _, out := range []string{c.String("json"), c.String("junit")} {
				if err := checkCreatable(out); err != nil {
					return err
				}
			}
			// Ctrl-C stops the running expectations and the files not started.
			ctx, stop := interruptible(c.Context)
			defer stop()
			c.Context = ctx
			paths := c.Args().Slice()
			files := make([]fileResult, 0, len(paths))
			passed, failed, inputErr := 0, 0, false
			var emptyFiles []string
			forEachOrdered(len(paths), c.Int("jobs"), func(i int) fileResult {
				return checkFile(c, paths[i])
			}, func(fr fileResult) {
				files = append(files, fr)
				for _, e := range fr.errs {
					fmt.Fprintln(os.Stderr, e)
				}
				for _, w := range fr.warnings {
					fmt.Fprintln(os.Stderr, w)
				}
				if len(fr.errs) > 0 {
					inputErr = true
					return
				}
				if len(fr.results) == 0 {
					if c.Bool("allow-empty") {
						fmt.Printf("%s: no expectations\n", fr.path)
						return
					}
					fmt.Printf("FAIL %s: no expectations: nothing was checked (want a line %s; --allow-empty lets such a file pass)\n", fr.path, expectSyntax(fr.path, c.String("format")))
					failed++
					emptyFiles = append(emptyFiles, fr.path)
					return
				}
				for _, r := range fr.results {
					printResult(os.Stdout, r)
					if r.Pass {
						passed++
					} else {
						failed++
					}
				}
			})
			fmt.Printf("%d passed, %d failed\n", passed, failed)
			if err := writeCheckJSON(c.String("json"), files, emptyFiles, passed, failed); err != nil {
				return err
			}
			if err := writeJUnit(c.String("junit"), files, !c.Bool("allow-empty")); err != nil {
				return err
			}
			switch {
			case inputErr:
				return fail(exitInput, "")
			case ctx.Err() != nil:
				return fail(exitUnknown, "check: interrupted")
			case failed > 0:
				return fail(exitBad, "")
			}
			return nil
		},
	}
}

// expectSyntax is an expectation line in the syntax of the format of the
// file path: "// fencer: expect MODEL safe|bug|fences=N".
func expectSyntax(path, format string) string {
	f, err := formats.ForFile(path, format)
	if err != nil {
		return "fencer: expect MODEL safe|bug|fences=N"
	}
	s := f.Expect.Open + " fencer: expect MODEL safe|bug|fences=N"
	if f.Expect.Close != "" {
		s += " " + f.Expect.Close
	}
	return "`" + s + "`"
}

// forEachOrdered runs work(0..n-1) on at most jobs goroutines and hands
// each result to done in index order, as soon as it and all before it are
// ready. done runs on the calling goroutine.
func forEachOrdered[T any](n, jobs int, work func(int) T, done func(T)) {
	if jobs < 1 {
		jobs = 1
	}
	results := make([]chan T, n)
	for i := range results {
		results[i] = make(chan T, 1)
	}
	next := make(chan int)
	go func() {
		for i := 0; i < n; i++ {
			next <- i
		}
		close(next)
	}()
	for w := 0; w < jobs && w < n; w++ {
		go func() {
			for i := range next {
				results[i] <- work(i)
			}
		}()
	}
	for _, ch := range results {
		done(<-ch)
	}
}

// checkReport is the JSON document of check --json.
type checkReport struct {
	Expectations []checkResult `json:"expectations"`
	Errors       []string      `json:"errors"`
	// Empty lists the files without an expectation line; each counts as
	// failed (absent with --allow-empty or when none).
	Empty []string `json:"empty,omitempty"`
	// Warnings are the warnings on the files (a reader's, a program with
	// no property); absent when none.
	Warnings []string `json:"warnings,omitempty"`
	Passed   int      `json:"passed"`
	Failed   int      `json:"failed"`
}

func writeCheckJSON(path string, files []fileResult, empty []string, passed, failed int) error {
	if path == "" {
		return nil
	}
	rep := checkReport{Expectations: []checkResult{}, Errors: []string{}, Empty: empty, Passed: passed, Failed: failed}
	for _, fr := range files {
		rep.Expectations = append(rep.Expectations, fr.results...)
		rep.Errors = append(rep.Errors, fr.errs...)
		rep.Warnings = append(rep.Warnings, fr.warnings...)
	}
	b, err := json.MarshalIndent(rep, "", "  ")
	if err != nil {
		return err
	}
	return writeFile(path, append(b, '\n'))
}
