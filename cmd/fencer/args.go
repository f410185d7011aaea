package main

import (
	"strings"

	"github.com/urfave/cli/v2"
)

// reorderArgs lets flags come after the FILE arguments. urfave/cli v2 stops
// reading a command's flags at its first positional argument, so
// "fencer insert FILE --model pso" would see three files. reorderArgs moves
// the command's flags, each with its value, before the positional
// arguments, keeping the order within each group:
//
//	fencer insert sb.cs --model pso -w   →   fencer insert --model pso -w sb.cs
//
// A flag takes the next argument as its value unless it is a boolean flag
// or is written --name=value; "-" alone is a positional argument (standard
// input); after "--" every argument is positional, and the "--" is kept
// before them. A flag that wants a value but ends the line is put last,
// after the positional arguments are dropped, so that the flag parser
// reports the missing value. args is returned unchanged when its command is
// unknown or when it asks for shell completion (which looks at the last
// argument).
func reorderArgs(app *cli.App, args []string) []string {
	if len(args) < 2 || args[len(args)-1] == "--generate-bash-completion" {
		return args
	}
	// The command is the first argument that is not a flag of the app (all
	// of them booleans).
	at := 1
	for at < len(args) && isFlag(args[at]) {
		at++
	}
	if at >= len(args) {
		return args
	}
	cmd := app.Command(args[at])
	if cmd == nil {
		return args
	}
	out := append([]string{}, args[:at+1]...)
	var pos []string
	dashdash := false
	rest := args[at+1:]
	for i := 0; i < len(rest); i++ {
		a := rest[i]
		switch {
		case a == "--":
			dashdash = true
			pos = append(pos, rest[i+1:]...)
			i = len(rest)
		case !isFlag(a):
			pos = append(pos, a)
		case strings.Contains(a, "=") || !takesValue(cmd, a):
			out = append(out, a)
		case i+1 < len(rest):
			out = append(out, a, rest[i+1])
			i++
		default: // the value is missing: let the flag parser say so
			return append(out, a)
		}
	}
	if dashdash {
		out = append(out, "--")
	}
	return append(out, pos...)
}

func isFlag(a string) bool { return len(a) > 1 && a[0] == '-' }

// takesValue reports whether the flag a of cmd wants a value; an unknown
// flag does not (the flag parser will report it).
func takesValue(cmd *cli.Command, a string) bool {
	name := strings.TrimLeft(a, "-")
	for _, f := range cmd.Flags {
		for _, n := range f.Names() {
			if n != name {
				continue
			}
			if df, ok := f.(cli.DocGenerationFlag); ok {
				return df.TakesValue()
			}
			return true
		}
	}
	return false
}
