package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"time"

	"github.com/schollz/progressbar/v3"
	"github.com/urfave/cli/v2"

	"fencer/cegar"
	"fencer/cgen"
	"fencer/cs"
	"fencer/hwrun"
	"fencer/memmodel"
)

// noProof is printed after every hardware run.
const noProof = "Not seeing a bad state on the hardware is no proof that it cannot happen: only fencer's verdicts are."

func runCommand() *cli.Command {
	flags := append(append(engineFlags(), formatFlags()...), quietFlag,
		&cli.BoolFlag{Name: "hw", Usage: "run the program on this machine's CPUs (x86-64, a CPU per thread); the only way run runs a program"},
		&cli.Int64Flag{Name: "rounds", Usage: "run exactly `N` rounds (default: as many as fit in --time)"},
		&cli.DurationFlag{Name: "time", Value: 10 * time.Second, Usage: "run each program for this long (with --rounds: at most this long, if given)"},
		&cli.IntFlag{Name: "iterations", Value: 100, Usage: "iterations per round of each loop that writes shared memory (loops that never end stop there)"},
		&cli.BoolFlag{Name: "compare", Usage: "also run the program with the fences fencer insert finds for --model, and compare"},
		&cli.StringFlag{Name: "keep", Usage: "leave the generated C harness and its binary in `DIR`"},
		&cli.StringFlag{Name: "json", Usage: "write the counts to `FILE` as JSON (docs/report.md)"},
		&cli.Uint64Flag{Name: "seed", Value: 1, Usage: "seed of the threads' random numbers (for r = * and nondeterministic choices)"},
		&cli.BoolFlag{Name: "check-model", Usage: "check the model against the machine (make hwcheck): for each FILE, run it and compare every " +
			"bad state seen with fencer's SC and TSO verdicts for that bad state alone; fails when the CPU showed one TSO forbids"},
	)
	return &cli.Command{
		Name:      "run",
		Usage:     "run the program on the real CPU and count how often each bad state is reached",
		ArgsUsage: "FILE (with --check-model: FILE...)",
		Description: "Writes a C harness for the program (docs/hw.md): each process a thread pinned to a CPU of its\n" +
			"own, all started together each round from the initial state, the model's steps as the x86\n" +
			"instructions a compiler emits for them (a fence is MFENCE, cas/fetch_add/swap locked\n" +
			"instructions), and the program's bad states (forbidden, mutex, assert) detected without a\n" +
			"fence in the threads. It compiles the harness with gcc -O2, runs it for --rounds or --time,\n" +
			"and prints per bad state the rounds that reached it. With --compare it runs the program\n" +
			"patched with fencer insert's fences too. Not seeing a bad state is no proof.\n" +
			"Exit codes: 0 no bad state seen, 1 a bad state seen (with --compare: seen with the fences, or\n" +
			"in the original when there is no fenced program; with --check-model: the CPU showed an\n" +
			"outcome TSO forbids), 2 bad input, or a host that is not x86-64 or has fewer CPUs than\n" +
			"threads, 3 unknown (the fences could not be found).",
		Flags: flags,
		Action: func(c *cli.Context) error {
			if !c.Bool("hw") {
				return fail(exitInput, "run: add --hw: the program runs on this machine's CPU (the only backend)")
			}
			if c.Bool("check-model") {
				return checkModel(c)
			}
			sys, m, err := parseArgModel(c)
			if err != nil {
				return err
			}
			if axiomatic(m) {
				return fail(exitInput, "run --hw --model %s: this machine's CPU is %s, whose memory model is x86-TSO: "+
					"the %s behaviours that TSO forbids (reads passing reads and writes, writes passing writes) cannot show on it; "+
					"fencer verify --model %s explores them, and fencer insert --model %s writes the fixed program for the target", m, runtime.GOARCH, m, m, m)
			}
			if err := checkCreatable(c.String("json")); err != nil {
				return err
			}
			opt, err := hwOptions(c)
			if err != nil {
				return err
			}
			// A parent (main that starts the threads, waits for them and
			// checks their results) needs no CPU: cgen.CPUs.
			if err := hwrun.HostCheck(cgen.CPUs(sys)); err != nil {
				return fail(exitInput, "run --hw: %v", err)
			}
			variants := []variantRun{{name: "original", sys: sys}}
			var notFenced string
			if c.Bool("compare") {
				fsys, why, err := fencedSystem(c, sys, m)
				if err != nil {
					return err
				}
				if fsys != nil {
					variants = append(variants, variantRun{name: "fenced", sys: fsys, at: originalPosition(sys, fsys)})
				} else {
					notFenced = why
				}
			}
			for i := range variants {
				v := &variants[i]
				v.res, err = runVariant(c, v, opt)
				if err != nil {
					return err
				}
			}
			printRuns(humanOut(c), sys, variants, notFenced, beyondCPU(m))
			if err := writeRunJSON(c.String("json"), sys, variants); err != nil {
				return err
			}
			if last := variants[len(variants)-1]; last.res.Hits > 0 {
				return fail(exitBad, "")
			}
			return nil
		},
	}
}

// variantRun is one program run on the hardware: the original or the
// fenced one.
type variantRun struct {
	name    string
	sys     *cs.System
	threads int    // the threads of its harness
	parent  string // the process that runs before and after them, or ""
	// at, if not nil, names a position of sys in the file the user gave:
	// the fenced program is the patched text, whose lines are not the
	// original's (an assert at line 25 of the original is at line 27 of
	// the patched text with two fences above it).
	at  func(cs.Pos) cs.Position
	res *hwrun.Result
}

// originalPosition returns the position in the original sys of a
// position of the patched program fsys: the same character, found by the
// diff of the two texts (the patch only adds fences, and braces around a
// bare body), else fsys's own position.
func originalPosition(sys, fsys *cs.System) func(cs.Pos) cs.Position {
	orig := originalOffset(sys.File.Src, fsys.File.Src)
	return func(p cs.Pos) cs.Position {
		if o, ok := orig(p.Offset()); ok && p.IsValid() {
			return sys.Position(cs.PosAt(o))
		}
		return fsys.Position(p)
	}
}

// beyondCPU says, for a store-buffer model that relaxes more than x86-TSO
// (PSO: a write may pass an earlier write to another variable), that the
// run cannot show those reorderings, or "" for a model the CPU can show
// all of (TSO) or that forbids more (SC). Without it a PSO run that
// reached no bad state would read as a confirmation of PSO's verdict.
func beyondCPU(m memmodel.Model) string {
	tso, err := memmodel.Parse("tso")
	if err != nil {
		return ""
	}
	var extra []string
	for _, k := range []struct {
		op   cs.OpKind
		what string
	}{{cs.OpWrite, "a write passing an earlier write"}, {cs.OpRead, "a read passing an earlier write"}} {
		if m.Relaxes(k.op) && !tso.Relaxes(k.op) {
			extra = append(extra, k.what)
		}
	}
	if len(extra) == 0 {
		return ""
	}
	return fmt.Sprintf("--model %s: this CPU (%s) is x86-TSO, which keeps the order %s relaxes beyond TSO (%s to another variable): "+
		"those reorderings cannot show on it, and the counts above are only of what TSO allows; fencer verify --model %s explores them",
		m, runtime.GOARCH, m, strings.Join(extra, ", "), m)
}

func hwOptions(c *cli.Context) (hwrun.Options, error) {
	// checkLimits has refused a negative --rounds or --time and an
	// --iterations below 1 (flagMinimum).
	opt := hwrun.Options{Rounds: c.Int64("rounds"), Iterations: c.Int("iterations"), Seed: c.Uint64("seed")}
	if opt.Rounds == 0 || c.IsSet("time") {
		opt.Time = c.Duration("time")
		if opt.Time <= 0 {
			return opt, fail(exitInput, "--time must be positive")
		}
	}
	return opt, nil
}

// fencedSystem runs fencer insert on sys and reads the patched program
// back; when there is no fenced program (an SC bug, unknown, no fence
// needed) it returns nil and why.
func fencedSystem(c *cli.Context, sys *cs.System, m memmodel.Model) (*cs.System, string, error) {
	r, patched, err := runEngine(c, sys, m, true)
	if err != nil {
		return nil, "", engineError(err)
	}
	switch r.Verdict {
	case cegar.Correct:
		if len(r.Fences) == 0 {
			return nil, fmt.Sprintf("fencer insert: correct under %s with no fence, so there is no fenced program to run", r.Model), nil
		}
	case cegar.SCBug:
		return nil, "fencer insert: the program is wrong even under SC: no fence can help, so there is no fenced program", nil
	default:
		return nil, "", fail(exitUnknown, "%s: fencer insert could not find the fences (unknown: %s)", sys.File.Name, r.Reason)
	}
	fsys, err := sys.Reparse(patched)
	if err != nil {
		return nil, "", fmt.Errorf("reading the patched program back: %v", err)
	}
	var sites []string
	for _, f := range r.Fences {
		if l := fmt.Sprint(sys.File.Line(f.Site.Pos())); len(sites) == 0 || sites[len(sites)-1] != l {
			sites = append(sites, l)
		}
	}
	if !quiet {
		fmt.Fprintf(os.Stderr, "%s: fencer insert --model %s: %s, at line %s\n", sys.File.Name, r.Model,
			plural(len(r.Fences), "fence"), strings.Join(sites, ", "))
	}
	return fsys, "", nil
}

// runVariant builds and runs the harness of sys, with a progress bar on a
// terminal.
func runVariant(c *cli.Context, v *variantRun, opt hwrun.Options) (*hwrun.Result, error) {
	name, sys := v.name, v.sys
	h, err := cgen.NewHarness(sys)
	if err != nil {
		return nil, fail(exitInput, "%s: %v", sys.File.Name, err)
	}
	v.threads, v.parent = h.Threads, h.Parent
	if v.at != nil {
		for i, pos := range h.AssertPos {
			h.Bad[h.Forbidden+i] = cgen.AssertName(v.at(pos), sys.Procs[h.AssertProc[i]].Name)
		}
	}
	if !quiet {
		if w := hwrun.ClockWarning(); w != "" && len(sys.Bad) > 0 {
			fmt.Fprintf(os.Stderr, "warning: %s\n", w)
		}
		for _, w := range h.Warnings {
			fmt.Fprintf(os.Stderr, "warning: %s\n", w)
		}
	}
	dir := c.String("keep")
	if dir == "" {
		if dir, err = os.MkdirTemp("", "fencer-hw-"); err != nil {
			return nil, err
		}
		defer os.RemoveAll(dir)
	} else if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fileError(dir, err)
	}
	base := strings.TrimSuffix(filepath.Base(sys.File.Name), filepath.Ext(sys.File.Name))
	if base == "" || base == "." || strings.HasPrefix(base, "<") {
		base = "program"
	}
	base += "_" + name
	ctx, stop := interruptible(c.Context)
	defer stop()
	bin, err := hwrun.Build(ctx, h, dir, base)
	if err != nil {
		return nil, fail(exitInput, "%s: building the harness: %v", sys.File.Name, err)
	}
	bar := newRunBar(c, name, opt)
	if bar != nil {
		opt.Progress = bar.update
	}
	res, err := hwrun.Run(ctx, h, bin, opt)
	if bar != nil {
		bar.finish()
	}
	var he *hwrun.HostError
	if errors.As(err, &he) {
		return nil, fail(exitInput, "run --hw: %v", he)
	}
	if err != nil {
		return nil, fail(exitUnknown, "%s: running the harness: %v", sys.File.Name, err)
	}
	if c.String("keep") != "" && !quiet {
		fmt.Fprintf(os.Stderr, "%s: kept %s.c and %s in %s (run: %s ROUNDS MILLIS ITERATIONS SEED)\n", sys.File.Name, base, base, dir, bin)
	}
	return res, nil
}

// runBar is the progress bar of one run (schollz/progressbar): rounds out
// of --rounds, or milliseconds out of --time.
type runBar struct {
	bar    *progressbar.ProgressBar
	name   string
	rounds bool
	start  time.Time
}

func newRunBar(c *cli.Context, name string, opt hwrun.Options) *runBar {
	if quiet || c.Bool("verbose") || os.Getenv("TERM") == "dumb" || !isTerminal(os.Stderr.Fd()) {
		return nil
	}
	b := &runBar{name: name, rounds: opt.Time == 0, start: time.Now()}
	total := opt.Time.Milliseconds()
	if b.rounds {
		total = opt.Rounds
	}
	b.bar = progressbar.NewOptions64(total, progressbar.OptionSetWriter(os.Stderr), progressbar.OptionSetDescription(name),
		progressbar.OptionSetWidth(30), progressbar.OptionThrottle(100*time.Millisecond), progressbar.OptionClearOnFinish(),
		progressbar.OptionSetPredictTime(false), progressbar.OptionShowDescriptionAtLineEnd())
	return b
}

func (b *runBar) update(rounds, hits int64) {
	b.bar.Describe(fmt.Sprintf("%s: %s rounds, %s reached a bad state", b.name, commas(rounds), commas(hits)))
	if b.rounds {
		_ = b.bar.Set64(rounds)
	} else {
		_ = b.bar.Set64(time.Since(b.start).Milliseconds())
	}
}

func (b *runBar) finish() { _ = b.bar.Clear() }

// printRuns prints the counts of each variant, the comparison, the note
// on the model (beyondCPU) and the reminder that a run proves nothing.
func printRuns(w io.Writer, sys *cs.System, vs []variantRun, notFenced, note string) {
	name := sys.File.Name
	for _, v := range vs {
		r := v.res
		par := ""
		if v.parent != "" {
			par = fmt.Sprintf(" (%s before and after them)", v.parent)
		}
		fmt.Fprintf(w, "%s (%s): %s threads on their own CPUs%s, %s rounds in %.1f s; %s reached a bad state\n",
			name, v.name, commas(int64(v.threads)), par, commas(r.Rounds), r.Time.Seconds(), roundsOf(r.Hits, r.Rounds))
		for _, b := range r.Bad {
			fmt.Fprintf(w, "  %s: %s\n", b.Name, roundsOf(b.Hits, r.Rounds))
		}
	}
	if notFenced != "" {
		fmt.Fprintln(w, notFenced)
	}
	if len(vs) == 2 {
		for i, b := range vs[0].res.Bad {
			f := vs[1].res
			var fh int64
			if i < len(f.Bad) {
				fh = f.Bad[i].Hits
			}
			fmt.Fprintf(w, "unfenced: %s / %s rounds reached %s; fenced: %s / %s\n", commas(b.Hits), commas(vs[0].res.Rounds),
				b.Name, commas(fh), commas(f.Rounds))
		}
	}
	if note != "" {
		fmt.Fprintln(w, note)
	}
	fmt.Fprintln(w, noProof)
}

// roundsOf says "93,925 rounds (9.4 %)".
func roundsOf(n, of int64) string {
	s := commas(n) + " rounds"
	if n == 1 {
		s = "1 round"
	}
	if of > 0 && n > 0 {
		s += fmt.Sprintf(" (%.3g %%)", 100*float64(n)/float64(of))
	}
	return s
}

// commas writes n with thousands separators.
func commas(n int64) string {
	s := fmt.Sprint(n)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	if neg {
		s = "-" + s
	}
	return s
}

// runJSON is the --json of run (docs/report.md).
type runJSON struct {
	File     string        `json:"file"`
	Variants []variantJSON `json:"variants"`
}

type variantJSON struct {
	Variant     string    `json:"variant"`
	Rounds      int64     `json:"rounds"`
	Hits        int64     `json:"hits"`
	BadStates   []badJSON `json:"bad_states"`
	TimeSeconds float64   `json:"time_seconds"`
}

type badJSON struct {
	Name string `json:"name"`
	Hits int64  `json:"hits"`
}

func writeRunJSON(path string, sys *cs.System, vs []variantRun) error {
	if path == "" {
		return nil
	}
	out := runJSON{File: sys.File.Name, Variants: []variantJSON{}}
	for _, v := range vs {
		vj := variantJSON{Variant: v.name, Rounds: v.res.Rounds, Hits: v.res.Hits, BadStates: []badJSON{}, TimeSeconds: v.res.Time.Seconds()}
		for _, b := range v.res.Bad {
			vj.BadStates = append(vj.BadStates, badJSON{Name: b.Name, Hits: b.Hits})
		}
		out.Variants = append(out.Variants, vj)
	}
	return emitReport(path, out)
}

// showC is fencer show --c: the program as C11 (cgen.Plain).
func showC(sys *cs.System) error {
	text, err := cgen.Plain(sys)
	if err != nil {
		return fail(exitInput, "%v", err)
	}
	_, err = os.Stdout.Write(text)
	return err
}
