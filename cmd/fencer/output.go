package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"os"
	"time"

	"github.com/urfave/cli/v2"

	"fencer/cegar"
	"fencer/cs"
	"fencer/memmodel"
	"fencer/races"
	"fencer/report"
	"fencer/report/htmlpage"
)

// This file is the wiring between the commands and package report: the
// flags about what is printed (--explain, --layout, -q, --json) and where
// reports go.

// explainFlag is the --explain of insert and verify.
var explainFlag = &cli.BoolFlag{Name: "explain", Usage: "say why: for each fence the reordering it forbids and a run that goes wrong without it; " +
	"for a trace to a bad state the reorderings it depends on"}

// quiet is -q of the running command: no statistics line.
var quiet bool

// humanOut is where verify prints its verdict: standard output, or
// standard error when --json - or --html - has standard output.
func humanOut(c *cli.Context) io.Writer {
	if c.String("json") == "-" || c.String("html") == "-" {
		return os.Stderr
	}
	return os.Stdout
}

// oneStdout refuses --json - together with --html -: one standard output.
func oneStdout(c *cli.Context) error {
	if c.String("json") == "-" && c.String("html") == "-" {
		return fail(exitInput, "%s: --json - and --html - both want standard output: write one of them to a file", c.Command.Name)
	}
	return nil
}

var layoutFlag = &cli.StringFlag{Name: "layout", Value: "auto", Usage: "trace tables as `MODE`: rows (one column per field), columns (one column per process), " +
	"or auto (columns on a terminal wide enough, else rows)"}

var traceFlag = &cli.StringFlag{Name: "trace", Value: "touched", Usage: "what a row of a trace table shows: `WHAT` is touched (the buffers of the process " +
	"that moves, the memory cells the step reads, writes or flushes and those the property reads) or full (every buffer and every cell)"}

// traceLayout is the --layout of the running command, fullTrace its
// --trace full.
var (
	traceLayout = "auto"
	fullTrace   bool
)

// setLayout reads --layout and --trace; an unknown value is a usage error.
func setLayout(c *cli.Context) error {
	switch tr := c.String("trace"); tr {
	case "", "touched":
		fullTrace = false
	case "full":
		fullTrace = true
	default:
		return fail(exitInput, "%s: --trace %q: want touched or full", c.Command.Name, tr)
	}
	switch l := c.String("layout"); l {
	case "", "auto", "rows", "columns":
		if l != "" {
			traceLayout = l
		}
		return nil
	default:
		return fail(exitInput, "%s: --layout %q: want rows, columns or auto", c.Command.Name, l)
	}
}

// layoutFor is the layout of a trace printed to w under --layout: rows,
// columns, or with auto columns when w is a terminal (as wide as it).
func layoutFor(w io.Writer) report.Layout {
	switch traceLayout {
	case "rows":
		return report.Layout{Full: fullTrace}
	case "columns":
		return report.Layout{Columns: true, Full: fullTrace}
	}
	f, ok := w.(*os.File)
	if !ok || !isTerminal(f.Fd()) {
		return report.Layout{Full: fullTrace}
	}
	width := termWidth(f.Fd())
	return report.Layout{Columns: width > 0, Width: width, Full: fullTrace}
}

// printTrace prints tr to w in the layout of --layout.
func printTrace(w io.Writer, file string, tr *report.Trace) {
	report.PrintTrace(w, file, tr, layoutFor(w))
}

// htmlFlag is the --html of insert and verify.
var htmlFlag = &cli.StringFlag{Name: "html", Usage: "write the witnesses as one self-contained page to `FILE` (\"-\": standard output; HTML with inline SVG, no script): " +
	"per fence and per trace to a bad state, one lane per process, the buffered writes, the reordering marked; " +
	"under arm, riscv and rmo the execution graph (docs/report.md)"}

// writeJSON writes the report of command to the --json file ("-":
// standard output) and the page of --html, if asked.
func writeJSON(c *cli.Context, sys *cs.System, r *cegar.Result) error {
	return writeReport(c, sys, func() *report.Report { return report.New(c.Command.Name, sys, r) })
}

// writeReport is writeJSON with the report made by rep, called only when
// --json or --html is given (insert shares one report with --explain).
func writeReport(c *cli.Context, sys *cs.System, rep func() *report.Report) error {
	if path := c.String("html"); path != "" {
		var src []byte // none when no program was read (a task with no property)
		if sys != nil && sys.File != nil {
			src = sys.File.Src
		}
		if err := writePage(path, htmlpage.FromReport(rep(), src)); err != nil {
			return err
		}
	}
	if c.String("json") == "" {
		return nil
	}
	out := rep()
	out.Warnings, out.Races = reportWarnings()
	return emitReport(c.String("json"), out)
}

// writePage writes the page p of --html to path ("-": standard output).
func writePage(path string, p *htmlpage.Page) error {
	var b bytes.Buffer
	if err := htmlpage.Write(&b, p); err != nil {
		return err
	}
	if path == "-" {
		_, err := os.Stdout.Write(b.Bytes())
		return err
	}
	return writeFile(path, b.Bytes())
}

// reportWarnings are the warnings of the reader on the command's program
// as the JSON report lists them, and the races among them.
func reportWarnings() (ws []string, rs []races.Entry) {
	for _, w := range inputWarnings {
		ws = append(ws, w.String())
		if w.Race != nil {
			rs = append(rs, *w.Race)
		}
	}
	return ws, rs
}

func emitReport(path string, rep any) error {
	b, err := json.MarshalIndent(rep, "", "  ")
	if err != nil {
		return err
	}
	b = append(b, '\n')
	if path == "-" {
		_, err := os.Stdout.Write(b)
		return err
	}
	return writeFile(path, b)
}

// inputError writes, with --json, a report of verdict "error" for input
// that could not be read or parsed, then returns err unchanged.
func inputError(c *cli.Context, err error) error {
	path := c.String("json")
	if path == "" || err == nil {
		return err
	}
	var el cs.ErrorList
	var msgs []string
	if errors.As(err, &el) {
		for _, e := range el {
			msgs = append(msgs, e.Error())
		}
	} else {
		msgs = append(msgs, err.Error())
	}
	file := c.Args().First()
	if file == "-" {
		file = stdinName
	}
	if werr := emitReport(path, report.ErrorReport(c.Command.Name, file, c.String("model"), msgs)); werr != nil {
		return werr
	}
	return err
}

// writeExploreJSON writes the report of fencer explore, if asked.
func writeExploreJSON(c *cli.Context, sys *cs.System, m memmodel.Model, res *memmodel.Result, tr *report.Trace, elapsed time.Duration) error {
	if c.String("json") == "" {
		return nil
	}
	rep := report.NewExplore(sys, m, res, tr, elapsed)
	rep.Warnings, rep.Races = reportWarnings()
	return emitReport(c.String("json"), rep)
}
