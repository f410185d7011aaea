package main

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/urfave/cli/v2"

	"fencer/cs"
)

// defineFlag sets a const of a .cs program from the command line:
// "-D N=4" or "--define N=4", repeatable. Every command that reads a
// program takes it (withDefines); bench passes it on to its children.
var defineFlag = &cli.StringSliceFlag{
	Name:    "define",
	Aliases: []string{"D"},
	Usage:   "set the const `NAME=VALUE` of a .cs program instead of its declared value (repeatable: -D N=4 -D M=1)",
}

// defines holds the -D settings of the command being run, set by the
// Before hook of withDefines before its Action; nil when there are none.
var defines map[string]int64

// parseDefines reads NAME=VALUE settings; a later setting of a name wins.
func parseDefines(list []string) (map[string]int64, error) {
	if len(list) == 0 {
		return nil, nil
	}
	out := map[string]int64{}
	for _, d := range list {
		name, val, ok := strings.Cut(d, "=")
		name = strings.TrimSpace(name)
		if !ok || name == "" {
			return nil, fail(exitInput, "-D %q: want NAME=VALUE, e.g. -D N=4", d)
		}
		v, err := strconv.ParseInt(strings.TrimSpace(val), 10, 64)
		if err != nil {
			return nil, fail(exitInput, "-D %s: the value %q is not an integer", d, val)
		}
		out[name] = v
	}
	return out, nil
}

// withDefines gives every command that reads a program (those with
// --format, and bench) the -D flag, and reads it before the command runs.
func withDefines(cmds []*cli.Command) {
	for _, cmd := range cmds {
		if !readsPrograms(cmd) {
			continue
		}
		cmd.Flags = append(cmd.Flags, defineFlag)
		before := cmd.Before
		cmd.Before = func(c *cli.Context) error {
			d, err := parseDefines(c.StringSlice("define"))
			if err != nil {
				return err
			}
			defines = d
			if before != nil {
				return before(c)
			}
			return nil
		}
	}
}

func readsPrograms(cmd *cli.Command) bool {
	if cmd.Name == "bench" {
		return true
	}
	for _, f := range cmd.Flags {
		if f == formatFlag {
			return true
		}
	}
	return false
}

// parseCS parses a .cs program with the -D settings.
func parseCS(name string, src []byte) (*cs.System, error) {
	return cs.ParseWith(name, src, cs.Options{Consts: defines})
}

// checkDefinesFormat refuses -D for an input format whose programs have no
// consts to set (.rmm, .litmus): the setting would be silently ignored.
func checkDefinesFormat(name, format string) error {
	if len(defines) == 0 || format == "cs" {
		return nil
	}
	return fail(exitInput, "%s: -D sets consts of .cs programs; this file is read as %s", name, format)
}

// defineArgs are the -D settings as arguments for a child fencer, in name
// order.
func defineArgs() []string {
	var names []string
	for n := range defines {
		names = append(names, n)
	}
	sort.Strings(names)
	var args []string
	for _, n := range names {
		args = append(args, "-D", fmt.Sprintf("%s=%d", n, defines[n]))
	}
	return args
}

// definesLabel is the -D settings for a table row: " (N=3)", or "".
func definesLabel() string {
	a := defineArgs()
	if len(a) == 0 {
		return ""
	}
	var parts []string
	for i := 1; i < len(a); i += 2 {
		parts = append(parts, a[i])
	}
	return " (" + strings.Join(parts, ", ") + ")"
}
