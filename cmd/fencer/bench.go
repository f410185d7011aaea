package main

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/urfave/cli/v2"

	"fencer/formats"
	"fencer/memmodel"
	"fencer/report"
)

// fencer bench runs `fencer insert --json` on each program under each model
// in a child process of this very binary, so that every run is isolated and
// its peak memory (the child's maximum resident set size, from wait4's
// rusage) belongs to that run alone. It prints medians over --runs runs.

// paperTimesFile is looked up in the directory of each benchmark: the times
// of Table 1 of the SAS 2012 paper, with their source.
const paperTimesFile = "paper_times.json"

// killGrace is how long the child may overrun its own --timeout before the
// parent kills it.
const killGrace = 30 * time.Second

// benchRow is one program under one model: the JSON format's object.
type benchRow struct {
	Program     string   `json:"program"`
	Model       string   `json:"model"`
	Verdict     string   `json:"verdict"` // correct, sc-bug, unsafe, unknown, timeout, error
	Reason      string   `json:"reason,omitempty"`
	Fences      *int     `json:"fences"` // null unless the verdict is correct
	K           int      `json:"k"`
	Predicates  int      `json:"predicates"`
	Refinements refCount `json:"refinements"`
	States      int      `json:"states"`
	Queries     int      `json:"smt_queries"`
	QueriesInGo int      `json:"queries_in_go"` // of smt_queries, decided without Z3
	Runs        int      `json:"runs"`
	WallS       float64  `json:"wall_s"`      // median wall time of the child process
	EngineS     float64  `json:"engine_s"`    // median time the engine reports (no process start, no parsing)
	PeakRSSMB   float64  `json:"peak_rss_mb"` // median peak resident set size of the child
	// StatesPerS is the states explored per second of the engine (states
	// over engine_s: the SMT queries' time included).
	StatesPerS float64 `json:"states_per_s"`
	// StoreBytesPerState is what a stored state costs in the state store
	// of the run's largest exploration (the report's store_bytes over
	// store_states); 0 when there was no exploration.
	StoreBytesPerState float64 `json:"store_bytes_per_state"`
	// ControlBytesPerState is what the control states of that exploration
	// cost per stored state (the report's control_bytes over
	// store_states).
	ControlBytesPerState float64  `json:"control_bytes_per_state"`
	PaperS               *float64 `json:"paper_s"` // Table 1 of the paper (TSO only), null when none
}

type refCount struct {
	Predicates int `json:"predicates"`
	K          int `json:"k"`
	Fences     int `json:"fences"`
}

// runResult is what one child run produced.
type runResult struct {
	rep    *report.Report // nil when the child wrote none
	wall   time.Duration
	rssMB  float64
	killed bool // the parent killed the child after its timeout and killGrace
	code   int
	stderr string
}

// paperTimes is the data file: program file name -> Table 1 entry.
type paperTimes struct {
	Source   string                `json:"source"`
	Machine  string                `json:"machine"`
	Model    string                `json:"model"`
	Programs map[string]paperEntry `json:"programs"`
}

type paperEntry struct {
	Name          string  `json:"name"`
	TimeS         float64 `json:"time_s"`
	FencesPerProc int     `json:"fences_per_proc"`
	LOC           int     `json:"loc"`
	Predicates    int     `json:"predicates"`
}

func benchFlags() []cli.Flag {
	flags := []cli.Flag{
		&cli.StringSliceFlag{Name: "model", Value: cli.NewStringSlice("tso"), Usage: "memory models: sc, tso, pso (repeat the flag or give a comma list)"},
		&cli.IntFlag{Name: "runs", Value: 3, Usage: "runs per program and model (medians are shown); at least 1"},
		&cli.StringFlag{Name: "format", Value: "md", Usage: "output format: md, csv or json"},
		optionFlag(formats.Define),
	}
	for _, f := range engineFlags() {
		switch f.Names()[0] {
		case "model", "json":
			continue
		}
		flags = append(flags, f)
	}
	return flags
}

func benchCommand() *cli.Command {
	return &cli.Command{
		Name:      "bench",
		Usage:     "run insert on programs several times and print a table of results, median times and peak memory",
		ArgsUsage: "FILE...",
		Description: "Each run is `fencer insert --json` in a child process of this binary; wall time and peak\n" +
			"resident memory are those of the child. Times and memory are medians over --runs runs\n" +
			"(a run that hits --timeout is not repeated). states/s is the states explored per second of\n" +
			"the engine's time; store B/state the bytes a stored state costs in the largest exploration's\n" +
			"store (the report's store_bytes over store_states), control B/state what that exploration's\n" +
			"control states cost per stored state (control_bytes over store_states). Where a benchmark's\n" +
			"directory holds " + paperTimesFile + ", the TSO rows show the time of Table 1 of the SAS 2012\n" +
			"paper beside ours.\n" +
			"Progress goes to stderr, the table to stdout.",
		Flags: benchFlags(),
		Action: func(c *cli.Context) error {
			models, format, err := benchOptions(c)
			if err != nil {
				return err
			}
			files := c.Args().Slice()
			if len(files) == 0 {
				return fail(exitInput, "bench: no files given")
			}
			for _, path := range files {
				if _, _, err := parsePath(nil, path, ""); err != nil {
					return err
				}
			}
			self, err := os.Executable()
			if err != nil {
				self = os.Args[0]
			}
			ctx, stop := interruptible(c.Context)
			defer stop()
			var rows []benchRow
			for _, path := range files {
				paper, err := loadPaperTimes(filepath.Join(filepath.Dir(path), paperTimesFile))
				if err != nil {
					return fail(exitInput, "%v", err)
				}
				for _, m := range models {
					row := benchOne(ctx, c, self, path, m, paper)
					rows = append(rows, row)
					if ctx.Err() != nil {
						break
					}
				}
				if ctx.Err() != nil {
					break
				}
			}
			if err := writeBench(os.Stdout, format, rows); err != nil {
				return err
			}
			if ctx.Err() != nil {
				return fail(exitUnknown, "bench: interrupted")
			}
			return nil
		},
	}
}

// benchOptions validates --model and --format (--runs is checked with the
// other numeric flags before any command runs: limits.go).
func benchOptions(c *cli.Context) ([]memmodel.Model, string, error) {
	format := c.String("format")
	switch format {
	case "md", "csv", "json":
	default:
		return nil, "", fail(exitInput, "bench: unknown --format %q (want md, csv or json)", format)
	}
	var models []memmodel.Model
	seen := map[memmodel.Model]bool{}
	for _, v := range c.StringSlice("model") {
		for _, s := range strings.Split(v, ",") {
			m, err := memmodel.Parse(strings.TrimSpace(s))
			if err != nil {
				return nil, "", fail(exitInput, "bench: %v", err)
			}
			if !seen[m] {
				seen[m] = true
				models = append(models, m)
			}
		}
	}
	if len(models) == 0 {
		return nil, "", fail(exitInput, "bench: --model names no model")
	}
	return models, format, nil
}

// loadPaperTimes reads the paper's times; a missing file is no error.
func loadPaperTimes(path string) (*paperTimes, error) {
	b, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var p paperTimes
	if err := json.Unmarshal(b, &p); err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	return &p, nil
}

// benchOne runs path under m --runs times and summarises the runs.
func benchOne(ctx context.Context, c *cli.Context, self, path string, m memmodel.Model, paper *paperTimes) benchRow {
	row := benchRow{Program: path + definesLabel(c), Model: m.String()}
	if paper != nil && strings.EqualFold(paper.Model, m.String()) {
		if e, ok := paper.Programs[filepath.Base(path)]; ok {
			t := e.TimeS
			row.PaperS = &t
		}
	}
	var walls, engine, rss []float64
	var verdicts []string
	var last runResult
	n := c.Int("runs")
	for i := 0; i < n && ctx.Err() == nil; i++ {
		r, err := benchRun(ctx, c, self, path, m)
		if err != nil {
			row.Verdict, row.Reason = "error", err.Error()
			return row
		}
		last = r
		v := runVerdict(r)
		verdicts = append(verdicts, v)
		walls = append(walls, r.wall.Seconds())
		rss = append(rss, r.rssMB)
		if r.rep != nil && r.rep.Stats != nil {
			engine = append(engine, r.rep.Stats.TimeSeconds)
		}
		fmt.Fprintf(os.Stderr, "bench: %s %s run %d/%d: %s, %.2fs, %.0f MB\n", path, m, i+1, n, v, r.wall.Seconds(), r.rssMB)
		if v == "timeout" {
			break // another run would only time out again
		}
	}
	row.Runs = len(walls)
	row.Verdict = strings.Join(uniq(verdicts), "/")
	row.WallS, row.EngineS, row.PeakRSSMB = median(walls), median(engine), median(rss)
	if rep := last.rep; rep != nil {
		row.Reason = rep.Reason
		if row.Verdict == "correct" {
			n := len(rep.Fences)
			row.Fences = &n
		}
		if rep.Stats == nil {
			// an axiomatic model: the report has no engine statistics
			return row
		}
		s := rep.Stats
		row.K, row.Predicates, row.States, row.Queries, row.QueriesInGo = s.K, s.Predicates, s.States, s.Queries, s.QueriesInGo
		if row.EngineS > 0 {
			row.StatesPerS = float64(s.States) / row.EngineS
		}
		if s.StoreStates > 0 {
			row.StoreBytesPerState = float64(s.StoreBytes) / float64(s.StoreStates)
			row.ControlBytesPerState = float64(s.ControlBytes) / float64(s.StoreStates)
		}
		row.Refinements = refCount{s.Refinements["predicates"], s.Refinements["k"], s.Refinements["fences"]}
	} else if last.stderr != "" {
		row.Reason = strings.TrimSpace(last.stderr)
	}
	return row
}

// runVerdict names the outcome of one run: the report's verdict, with
// "timeout" for a run stopped by its time limit.
func runVerdict(r runResult) string {
	switch {
	case r.killed:
		return "timeout"
	case r.rep == nil:
		return "error"
	case r.rep.Verdict == "unknown" && strings.Contains(r.rep.Reason, "time limit"):
		return "timeout"
	}
	return r.rep.Verdict
}

// benchRun runs `fencer insert` once in a child process.
func benchRun(ctx context.Context, c *cli.Context, self, path string, m memmodel.Model) (runResult, error) {
	dir, err := os.MkdirTemp("", "fencer-bench")
	if err != nil {
		return runResult{}, err
	}
	defer os.RemoveAll(dir)
	jsonPath := filepath.Join(dir, "report.json")
	parent := ctx
	timeout := c.Duration("timeout")
	args := []string{"insert", "--model", m.String(),
		"--timeout", timeout.String(),
		"--max-k", strconv.Itoa(c.Int("max-k")),
		"--max-predicates", strconv.Itoa(c.Int("max-predicates")),
		"--max-states", strconv.Itoa(c.Int("max-states")),
		"--workers", strconv.Itoa(c.Int("workers")),
		"--json", jsonPath, "-o", filepath.Join(dir, "patched.cs")}
	if mem := c.String("max-memory"); mem != "" {
		args = append(args, "--max-memory", mem)
	}
	args = append(append(args, defineArgs(c)...), path)
	if timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, timeout+killGrace)
		defer cancel()
	}
	cmd := exec.CommandContext(ctx, self, args...)
	cmd.Cancel = func() error { return cmd.Process.Signal(os.Interrupt) }
	cmd.WaitDelay = 5 * time.Second // then SIGKILL
	var errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = io.Discard, &errb
	start := time.Now()
	err = cmd.Run()
	r := runResult{wall: time.Since(start), stderr: errb.String()}
	var ee *exec.ExitError
	switch {
	case err == nil:
	case errors.As(err, &ee):
		r.code = ee.ExitCode()
	default:
		return r, err
	}
	if cmd.ProcessState == nil {
		return r, fmt.Errorf("%s: no process state", path)
	}
	if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
		r.rssMB = float64(ru.Maxrss) / 1024 // Linux: kilobytes
	}
	if ctx.Err() != nil && parent.Err() == nil {
		r.killed = true
		return r, nil
	}
	if b, err := os.ReadFile(jsonPath); err == nil {
		var rep report.Report
		if err := json.Unmarshal(b, &rep); err != nil {
			return r, fmt.Errorf("%s: bad JSON report: %v", path, err)
		}
		r.rep = &rep
	}
	return r, nil
}

func median(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := append([]float64(nil), xs...)
	sort.Float64s(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

func uniq(xs []string) []string {
	var out []string
	seen := map[string]bool{}
	for _, x := range xs {
		if !seen[x] {
			seen[x] = true
			out = append(out, x)
		}
	}
	return out
}

var benchHeader = []string{"program", "model", "verdict", "fences", "k", "predicates", "refinements (p/k/f)",
	"states", "SMT queries", "in Go", "runs", "median wall s", "median engine s", "median peak RSS MB", "states/s", "store B/state", "control B/state", "paper s (TSO)"}

func (r benchRow) cells() []string {
	paper := "-"
	if r.PaperS != nil {
		paper = strconv.FormatFloat(*r.PaperS, 'f', -1, 64)
	}
	verdict := r.Verdict
	if strings.Contains(verdict, "unknown") && r.Reason != "" {
		verdict += ": " + r.Reason
	}
	if verdict == "error" && r.Reason != "" {
		verdict += ": " + r.Reason
	}
	fences := "-"
	if r.Fences != nil {
		fences = strconv.Itoa(*r.Fences)
	}
	return []string{r.Program, r.Model, verdict, fences, strconv.Itoa(r.K), strconv.Itoa(r.Predicates),
		fmt.Sprintf("%d/%d/%d", r.Refinements.Predicates, r.Refinements.K, r.Refinements.Fences),
		strconv.Itoa(r.States), strconv.Itoa(r.Queries), strconv.Itoa(r.QueriesInGo), strconv.Itoa(r.Runs),
		fmt.Sprintf("%.2f", r.WallS), fmt.Sprintf("%.2f", r.EngineS), fmt.Sprintf("%.0f", r.PeakRSSMB),
		fmt.Sprintf("%.0f", r.StatesPerS), fmt.Sprintf("%.1f", r.StoreBytesPerState), fmt.Sprintf("%.1f", r.ControlBytesPerState), paper}
}

func writeBench(w io.Writer, format string, rows []benchRow) error {
	switch format {
	case "json":
		if rows == nil {
			rows = []benchRow{}
		}
		b, err := json.MarshalIndent(rows, "", "  ")
		if err != nil {
			return err
		}
		_, err = w.Write(append(b, '\n'))
		return err
	case "csv":
		cw := csv.NewWriter(w)
		cw.Write(benchHeader)
		for _, r := range rows {
			cw.Write(r.cells())
		}
		cw.Flush()
		return cw.Error()
	}
	line := func(cells []string) {
		for i, s := range cells {
			cells[i] = strings.ReplaceAll(s, "|", `\|`)
		}
		fmt.Fprintf(w, "| %s |\n", strings.Join(cells, " | "))
	}
	line(append([]string(nil), benchHeader...))
	sep := make([]string, len(benchHeader))
	for i := range sep {
		sep[i] = "---"
		if i >= 3 && i != 6 {
			sep[i] = "--:"
		}
	}
	fmt.Fprintf(w, "|%s|\n", strings.Join(sep, "|"))
	for _, r := range rows {
		line(r.cells())
	}
	return nil
}
