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

	"github.com/sirupsen/logrus"
	"github.com/urfave/cli/v2"

	"fencer/cs"
	"fencer/kabs"
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
}

func (e *exitError) Error() string { return e.msg }

func fail(code int, format string, args ...any) error {
	return &exitError{code: code, msg: fmt.Sprintf(format, args...)}
}

var log = logrus.New()

// verboseFlag is accepted before the command and after it.
var verboseFlag = &cli.BoolFlag{Name: "verbose", Aliases: []string{"v"}, Usage: "log debug information (each refinement) to stderr"}

func setVerbose(c *cli.Context) {
	if c.Bool("verbose") {
		log.SetLevel(logrus.DebugLevel)
	}
}

func main() {
	os.Exit(run(os.Args))
}

func run(args []string) int {
	code := exitOK
	app := &cli.App{
		Name:  "fencer",
		Usage: "insert the fewest memory fences that make a concurrent program correct under TSO",
		Description: "fencer reads a concurrent integer program (.cs, see docs/language.md) and a memory model\n" +
			"and returns the program with a minimum set of fences that makes it correct, or a trace\n" +
			"showing that it is wrong even under sequential consistency.\n\n" +
			"Exit codes: 0 correct/safe, 1 bad state reachable, 2 bad input, 3 unknown (limit hit).",
		Flags: []cli.Flag{verboseFlag},
		Before: func(c *cli.Context) error {
			log.SetOutput(os.Stderr)
			log.SetFormatter(&logrus.TextFormatter{DisableTimestamp: true})
			log.SetLevel(logrus.WarnLevel)
			setVerbose(c)
			return nil
		},
		Commands: []*cli.Command{
			showCommand(), exploreCommand(), verifyCommand(), insertCommand(), checkCommand(), benchCommand(), robustCommand(),
		},
		ExitErrHandler: func(c *cli.Context, err error) {},
		OnUsageError: func(c *cli.Context, err error, isSub bool) error {
			return fail(exitInput, "%v", err)
		},
	}
	app.Setup()
	if err := app.Run(args); err != nil {
		var ee *exitError
		var el cs.ErrorList
		switch {
		case errors.As(err, &el):
			for _, e := range el {
				fmt.Fprintln(os.Stderr, e)
			}
			code = exitInput
		case errors.As(err, &ee):
			if ee.msg != "" {
				fmt.Fprintln(os.Stderr, "fencer:", ee.msg)
			}
			code = ee.code
		default:
			fmt.Fprintln(os.Stderr, "fencer:", err)
			code = exitInput
		}
	}
	return code
}

// parseArg parses the single FILE argument of a command.
func parseArg(c *cli.Context) (*cs.System, error) {
	if c.NArg() != 1 {
		return nil, fail(exitInput, "%s: want exactly one FILE argument (see fencer %s --help)", c.Command.Name, c.Command.Name)
	}
	return parsePath(c.Args().First())
}

// parseArgModel parses the FILE argument and reads --model.
func parseArgModel(c *cli.Context) (*cs.System, kabs.Model, error) {
	sys, err := parseArg(c)
	if err != nil {
		return nil, 0, err
	}
	m, err := modelOf(c)
	return sys, m, err
}

func parsePath(path string) (*cs.System, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, fail(exitInput, "%v", err)
	}
	if st.IsDir() {
		return nil, fail(exitInput, "%s: is a directory", path)
	}
	return cs.ParseFile(path)
}
