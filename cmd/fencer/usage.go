package main

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/urfave/cli/v2"
)

// This file says what went wrong on the command line in one line with a
// pointer to --help, as command-line tools do, instead of urfave/cli's
// "Incorrect Usage" and the whole help page.

// rootAction runs when no command is named: "fencer" alone is a usage
// error, and so is a word that is no command.
func rootAction(c *cli.Context) error {
	if c.NArg() == 0 {
		var names []string
		for _, cmd := range c.App.VisibleCommands() {
			names = append(names, cmd.Name)
		}
		return &exitError{code: exitInput, bare: true,
			msg: "usage: fencer [global flags] COMMAND [flags] FILE... (commands: " + strings.Join(names, ", ") + "; see fencer --help)"}
	}
	return fail(exitInput, "unknown command %q (see fencer --help)", c.Args().First())
}

var (
	// The messages of package flag, which urfave/cli parses with.
	undefinedRE = regexp.MustCompile(`^flag provided but not defined: -+(\S+)$`)
	needsArgRE  = regexp.MustCompile(`^flag needs an argument: -+(\S+)$`)
	invalidRE   = regexp.MustCompile(`^invalid (?:boolean )?value "(.*)" for (?:flag )?-+([^:\s]+): (.*)$`)
	plainNumber = regexp.MustCompile(`^[+-]?[0-9]+(\.[0-9]*)?$`)
)

// usageError is the OnUsageError of the app and of every command: the
// flag parser's error in one line, flags written as the user writes them
// (--timeout, -j), and a pointer to the command's --help.
func usageError(c *cli.Context, err error, _ bool) error {
	cmd := "fencer"
	var flags []cli.Flag
	if c.Command != nil && c.Command.Name != "" && (c.App == nil || c.Command.Name != c.App.Name) {
		cmd += " " + c.Command.Name
		flags = c.Command.Flags
	} else if c.App != nil {
		flags = c.App.Flags
	}
	return fail(exitInput, "%s (see %s --help)", flagErrorText(flags, err.Error()), cmd)
}

// flagErrorText rewrites a message of package flag about one of flags.
func flagErrorText(flags []cli.Flag, msg string) string {
	if m := undefinedRE.FindStringSubmatch(msg); m != nil {
		return "unknown flag " + flagName(m[1])
	}
	if m := needsArgRE.FindStringSubmatch(msg); m != nil {
		return flagName(m[1]) + " needs a value"
	}
	m := invalidRE.FindStringSubmatch(msg)
	if m == nil {
		return msg
	}
	val, name, why := m[1], m[2], m[3]
	shown := fmt.Sprintf("%s %q", flagName(name), val)
	switch findFlag(flags, name).(type) {
	case *cli.DurationFlag:
		if plainNumber.MatchString(val) {
			return fmt.Sprintf("%s: a duration needs a unit, as in %ss, 300ms or 2m", shown, strings.TrimSuffix(val, "."))
		}
		return shown + ": want a duration, as in 5s, 300ms or 2m"
	case *cli.IntFlag, *cli.Int64Flag, *cli.UintFlag:
		return shown + ": want a whole number"
	case *cli.Float64Flag:
		return shown + ": want a number"
	case *cli.BoolFlag:
		return shown + ": want true or false"
	}
	return shown + ": " + why
}

// findFlag returns the flag of flags with the name or alias name, or nil.
func findFlag(flags []cli.Flag, name string) cli.Flag {
	for _, f := range flags {
		for _, n := range f.Names() {
			if n == name {
				return f
			}
		}
	}
	return nil
}

// withUsageErrors gives every command the one-line usage errors, and
// takes urfave/cli's "(default: false)" off boolean flags: a flag that is
// off unless given needs no note.
func withUsageErrors(cmds []*cli.Command) {
	for _, cmd := range cmds {
		cmd.OnUsageError = usageError
		for _, f := range cmd.Flags {
			if b, ok := f.(*cli.BoolFlag); ok {
				b.DisableDefaultText = true
			}
		}
		withUsageErrors(cmd.Subcommands)
	}
}
