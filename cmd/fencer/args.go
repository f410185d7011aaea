package main

import (
	"flag"
	"io"
	"strings"

	"github.com/urfave/cli/v2"
)

// reorderArgs lets flags come after the FILE arguments. urfave/cli v2 stops
// reading a command's flags at its first positional argument, so
// "fencer insert FILE --model pso" would see three files. reorderArgs moves
// the command's flags, each with its value, before the positional
// arguments, keeping the order within each group, and a flag of the app
// (--cpuprofile) written after the command to before the command:
//
//	fencer insert sb.cs --model pso -w   →   fencer insert --model pso -w sb.cs
//
// Whether a flag takes the next argument as its value is what the flag
// parser itself decides (flagArity: a flag whose value is boolean, like
// -w or --all, does not); a flag written --name=value is one argument.
// "-" alone is a positional argument (standard input); after "--" every
// argument is positional, and the "--" is kept before them. A flag that
// wants a value but ends the line is put last, after the positional
// arguments are dropped, so that the flag parser reports the missing
// value. args is returned unchanged when its command is unknown or when it
// asks for shell completion (which looks at the last argument).
func reorderArgs(app *cli.App, args []string) []string {
	if len(args) < 2 || args[len(args)-1] == "--generate-bash-completion" {
		return args
	}
	appFlags := flagArity(app.Flags)
	// The command is the first argument that is neither a flag of the app
	// nor the value of one.
	at := 1
	for at < len(args) && isFlag(args[at]) {
		if takes, ok := appFlags[flagKey(args[at])]; ok && takes && !strings.Contains(args[at], "=") {
			at++
		}
		at++
	}
	if at >= len(args) {
		return args
	}
	cmd := app.Command(args[at])
	if cmd == nil {
		return args
	}
	cmdFlags := flagArity(cmd.Flags)
	before := append([]string{}, args[:at]...)
	out := []string{}
	var pos []string
	dashdash := false
	rest := args[at+1:]
	finish := func() []string {
		all := append(append(before, args[at]), out...)
		if dashdash {
			all = append(all, "--")
		}
		return append(all, pos...)
	}
	for i := 0; i < len(rest); i++ {
		a := rest[i]
		if a == "--" {
			dashdash = true
			pos = append(pos, rest[i+1:]...)
			break
		}
		if !isFlag(a) {
			pos = append(pos, a)
			continue
		}
		takes, ok := cmdFlags[flagKey(a)]
		dst := &out
		if !ok {
			if takes, ok = appFlags[flagKey(a)]; ok {
				dst = &before // a flag of the app, after the command
			}
		}
		switch {
		case strings.Contains(a, "=") || !takes:
			*dst = append(*dst, a)
		case i+1 < len(rest):
			*dst = append(*dst, a, rest[i+1])
			i++
		default: // the value is missing: let the flag parser say so
			if dst == &before {
				return append(before, a)
			}
			return append(append(before, args[at]), append(out, a)...)
		}
	}
	return finish()
}

func isFlag(a string) bool { return len(a) > 1 && a[0] == '-' }

// flagKey is the name of the flag argument a: "--model=pso" → "model".
func flagKey(a string) string {
	name := strings.TrimLeft(a, "-")
	if i := strings.IndexByte(name, '='); i >= 0 {
		name = name[:i]
	}
	return name
}

// flagArity maps every name and alias of flags to whether the flag takes
// the next argument as its value. It asks the flag parser that urfave/cli
// uses (package flag): the flags are applied to a scratch flag set, and a
// flag takes no value exactly when its flag.Value is boolean
// (IsBoolFlag), as BoolFlag's is and as --all's is.
func flagArity(flags []cli.Flag) map[string]bool {
	set := flag.NewFlagSet("", flag.ContinueOnError)
	set.SetOutput(io.Discard)
	for _, f := range flags {
		_ = f.Apply(set)
	}
	out := map[string]bool{}
	set.VisitAll(func(f *flag.Flag) {
		b, ok := f.Value.(interface{ IsBoolFlag() bool })
		out[f.Name] = !(ok && b.IsBoolFlag())
	})
	return out
}
