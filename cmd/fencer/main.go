// Command fencer inserts the fewest memory fences that make a concurrent
// integer program correct under x86-TSO, or shows a trace proving that it
// is wrong even under sequential consistency.
//
// Exit codes: 0 correct (or safe), 1 a bad state is reachable (SC bug, or a
// trace under the named model), 2 bad input or usage, 3 unknown (a limit was
// hit, or the method could not decide).
package main

import (
	"errors"
	"fmt"
	"os"
	"regexp"
	"runtime/debug"
	"strconv"
	"strings"

	"github.com/sirupsen/logrus"
	"github.com/urfave/cli/v2"

	"fencer/cs"
	"fencer/memmodel"
	"fencer/smt"
)

// Exit codes.
const (
	exitOK      = 0
	exitBad     = 1
	exitInput   = 2
	exitUnknown = 3
)

// exitError carries an exit code out of a command.
type exitError struct {
	code int
	msg  string
	bare bool // msg already names its file ("file: message"): no "fencer:" prefix
}

func (e *exitError) Error() string { return e.msg }

func fail(code int, format string, args ...any) error {
	return &exitError{code: code, msg: fmt.Sprintf(format, args...)}
}

var log = logrus.New()

// version is fencer's version; a release build sets it with
// -ldflags "-X main.version=1.2.3".
var version = "0.1.0-dev"

// verboseFlag is accepted before the command and after it.
var verboseFlag = &cli.BoolFlag{Name: "verbose", Aliases: []string{"v"}, Usage: "log debug information (each refinement) to stderr"}

func setVerbose(c *cli.Context) {
	if c.Bool("verbose") {
		log.SetLevel(logrus.DebugLevel)
	}
}

func main() {
	tuneGC()
	os.Exit(run(os.Args))
}

// tuneGC trades memory for time where the user has not chosen: the
// explorations allocate many short-lived terms and cubes, and with Go's
// default (GOGC=100) the collector took a fifth of Bakery's CPU. With 400
// it runs a quarter as often; the soft limit makes it collect harder again
// as the heap nears gcFloor (256 MiB), so a small exploration stays small
// where GOGC=400 alone would let its heap grow to five times what is live.
// The commands that explore then let the limit follow the live heap up to
// what --max-memory leaves the heap (followMemory, gclimit.go). GOGC and GOMEMLIMIT in
// the environment take precedence.
func tuneGC() {
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(400)
	}
	if os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(gcFloor)
	}
}

func run(args []string) int {
	app := newApp()
	err := app.Run(reorderArgs(app, args))
	if err == nil {
		return exitOK
	}
	var ee *exitError
	var el cs.ErrorList
	switch {
	case errors.As(err, &el):
		for _, e := range el {
			fmt.Fprintln(os.Stderr, e)
		}
		return exitInput
	case errors.As(err, &ee):
		switch {
		case ee.msg == "":
		case ee.bare:
			fmt.Fprintln(os.Stderr, ee.msg)
		default:
			fmt.Fprintln(os.Stderr, "fencer:", ee.msg)
		}
		return ee.code
	}
	msg := err.Error()
	if m := noHelpTopicRE.FindStringSubmatch(msg); m != nil {
		// "fencer help frobnicate"
		msg = fmt.Sprintf("unknown command %q (see fencer --help)", m[1])
	}
	fmt.Fprintln(os.Stderr, "fencer:", msg)
	return exitInput
}

// noHelpTopicRE is urfave/cli's error for "fencer help WORD" when WORD is
// no command.
var noHelpTopicRE = regexp.MustCompile(`^No help topic for '(.*)'$`)

// newApp builds the command line: every command, its examples and its
// check of numeric limits.
func newApp() *cli.App {
	// -v is --verbose, so --version has no short form.
	cli.VersionFlag = &cli.BoolFlag{Name: "version", Usage: "print the versions of fencer and Z3", DisableDefaultText: true}
	cli.VersionPrinter = func(c *cli.Context) {
		fmt.Fprintf(c.App.Writer, "fencer %s\nZ3 %s\n", c.App.Version, smt.Version())
	}
	app := &cli.App{
		Name:    "fencer",
		Version: version,
		Usage:   "insert the fewest memory fences that make a concurrent program correct under TSO",
		Description: "fencer reads a concurrent integer program (.cs, see docs/language.md; also a Memorax .rmm\n" +
			"model or a herd x86 .litmus test, see docs/formats.md) and a memory model\n" +
			"and returns the program with a minimum set of fences that makes it correct, or a trace\n" +
			"showing that it is wrong even under sequential consistency. Flags may come before or\n" +
			"after the FILE; \"-\" as the FILE reads standard input; \"--\" ends the flags.\n\n" +
			"Exit codes: 0 correct/safe, 1 bad state reachable, 2 bad input, 3 unknown (limit hit).\n\n" +
			"Examples:\n" +
			"   fencer insert benchmarks/sb.cs --model pso --diff\n" +
			"   fencer verify --model tso benchmarks/peterson.cs\n" +
			"   fencer check -j 2 --junit report.xml benchmarks/*.cs\n" +
			"   source <(fencer completion bash)",
		Flags:                []cli.Flag{verboseFlag, cpuProfileFlag, memProfileFlag, blockProfileFlag},
		EnableBashCompletion: true,
		Before: func(c *cli.Context) error {
			log.SetOutput(os.Stderr)
			log.SetFormatter(&logrus.TextFormatter{DisableTimestamp: true})
			log.SetLevel(logrus.WarnLevel)
			setVerbose(c)
			return startProfiles(c)
		},
		After: stopProfiles,
		Commands: []*cli.Command{
			showCommand(), exploreCommand(), verifyCommand(), insertCommand(), checkCommand(), benchCommand(), robustCommand(),
			runCommand(), completionCommand(),
		},
		ExitErrHandler: func(c *cli.Context, err error) {},
		OnUsageError:   usageError,
		Action:         rootAction,
	}
	for _, f := range app.Flags {
		if b, ok := f.(*cli.BoolFlag); ok {
			b.DisableDefaultText = true
		}
	}
	withExamples(app.Commands)
	withUsageErrors(app.Commands)
	withLimits(app.Commands)
	app.Setup()
	return app
}

// examples are shown at the end of each command's --help.
var examples = map[string][]string{
	"show":    {"fencer show benchmarks/sb.cs"},
	"explore": {"fencer explore --model pso benchmarks/mp.cs", "fencer explore benchmarks/peterson.cs --max-depth 40"},
	"verify":  {"fencer verify --model tso benchmarks/peterson.cs", "fencer verify benchmarks/sb.cs --model sc --json report.json", "fencer verify --explain --model pso benchmarks/mp.cs"},
	"insert": {
		"fencer insert benchmarks/sb.cs > sb_fenced.cs",
		"fencer insert benchmarks/mp.cs --model pso --diff",
		"fencer insert --explain benchmarks/peterson.cs > /dev/null",
		"fencer insert --json report.json -w my_lock.cs",
		"cat my_lock.cs | fencer insert -",
	},
	"check": {"fencer check benchmarks/*.cs", "fencer check -j 2 --junit report.xml --json report.json benchmarks/*.cs"},
	"bench": {"fencer bench --runs 3 benchmarks/sb.cs benchmarks/peterson.cs"},
	"robust": {
		"fencer robust benchmarks/sb.cs",
		"fencer robust --model pso benchmarks/mp.cs",
		"fencer insert --robust --model pso --diff benchmarks/mp.cs",
	},
	"run":        {"fencer run --hw --compare benchmarks/sb.cs", "fencer run --hw --rounds 100000 --json counts.json benchmarks/peterson.cs"},
	"completion": {"source <(fencer completion bash)", "fencer completion fish > ~/.config/fish/completions/fencer.fish"},
}

// withExamples appends each command's examples to its description (and
// hides the "help" subcommand that urfave/cli would list under each
// command: "fencer help CMD" and "CMD --help" remain).
func withExamples(cmds []*cli.Command) {
	for _, cmd := range cmds {
		cmd.HideHelpCommand = true
		ex := examples[cmd.Name]
		if len(ex) == 0 {
			continue
		}
		if cmd.Description != "" {
			cmd.Description += "\n\n"
		}
		cmd.Description += "Examples:\n   " + strings.Join(ex, "\n   ")
	}
}

// parseArg parses the single FILE argument of a command.
func parseArg(c *cli.Context) (*cs.System, error) {
	if c.NArg() != 1 {
		return nil, fail(exitInput, "%s: want exactly one FILE argument (see fencer %s --help)", c.Command.Name, c.Command.Name)
	}
	sys, warns, err := parsePath(c, c.Args().First(), c.String("format"))
	inputWarnings = warns
	for _, w := range warns {
		fmt.Fprintln(os.Stderr, w)
	}
	printNotes(c, sys)
	return sys, err
}

// printNotes prints, with -v, the notes of the reader on sys (a C variable
// ignored because nothing uses it).
func printNotes(c *cli.Context, sys *cs.System) {
	if sys == nil || !c.Bool("verbose") && !log.IsLevelEnabled(logrus.DebugLevel) {
		return
	}
	for _, n := range sys.Notes {
		fmt.Fprintf(os.Stderr, "%s: note: %s\n", n.Pos, n.Msg)
	}
}

// parseArgModel parses the FILE argument and reads --model.
func parseArgModel(c *cli.Context) (*cs.System, memmodel.Model, error) {
	sys, err := parseArg(c)
	if err != nil {
		return nil, nil, err
	}
	m, err := modelOf(c)
	return sys, m, err
}

// plural says "1 fence", "2 fences", "0 fences".
func plural(n int, noun string) string { return pluralForm(n, noun, noun+"s") }

// pluralForm says "1 query", "2 queries".
func pluralForm(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return strconv.Itoa(n) + " " + many
}
