package main

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/urfave/cli/v2"
)

// flagValue is a value that the flag f accepts, and the check that the
// parsed command saw it; bool is true for a flag that takes no value.
func flagValue(t *testing.T, f cli.Flag) (val string, bool_ bool, check func(c *cli.Context, name string) bool) {
	switch f.(type) {
	case *cli.BoolFlag:
		return "", true, func(c *cli.Context, n string) bool { return c.Bool(n) }
	case *cli.GenericFlag: // --all: alone (10 sets), or --all=N
		return "", true, func(c *cli.Context, n string) bool {
			v, ok := c.Generic(n).(*allValue)
			return ok && v.n == 10
		}
	case *cli.IntFlag:
		return "3", false, func(c *cli.Context, n string) bool { return c.Int(n) == 3 }
	case *cli.Int64Flag:
		return "3", false, func(c *cli.Context, n string) bool { return c.Int64(n) == 3 }
	case *cli.Uint64Flag:
		return "3", false, func(c *cli.Context, n string) bool { return c.Uint64(n) == 3 }
	case *cli.DurationFlag:
		return "5s", false, func(c *cli.Context, n string) bool { return c.Duration(n) == 5*time.Second }
	case *cli.StringFlag:
		return "v.x", false, func(c *cli.Context, n string) bool { return c.String(n) == "v.x" }
	case *cli.StringSliceFlag:
		return "v.x", false, func(c *cli.Context, n string) bool { return slices.Equal(c.StringSlice(n), []string{"v.x"}) }
	}
	t.Fatalf("flag %s: no test value for type %T: add one", f.Names()[0], f)
	return "", false, nil
}

// Every flag of every command, under each of its names, is read the same
// before and after the FILE arguments, as --flag=value and --flag value
// (a flag without a value, like --all or -w, takes none: the next
// argument stays a FILE). The commands' actions are replaced by one that
// records what the parser saw.
func TestEveryFlagEveryPosition(t *testing.T) {
	runs := 0
	for _, cmd := range newApp().Commands {
		for _, f := range cmd.Flags {
			val, isBool, check := flagValue(t, f)
			for _, name := range f.Names() {
				dash := "--"
				if len(name) == 1 {
					dash = "-"
				}
				flagArgs := [][]string{{dash + name, val}, {dash + name + "=" + val}}
				if isBool {
					flagArgs = [][]string{{dash + name}}
				}
				for _, fa := range flagArgs {
					for _, layout := range []string{"before", "after", "between"} {
						var args []string
						switch layout {
						case "before":
							args = append(append([]string{cmd.Name}, fa...), "a.cs")
						case "after":
							args = append([]string{cmd.Name, "a.cs"}, fa...)
						case "between": // a FILE after the flag must stay a FILE
							args = append(append([]string{cmd.Name, "a.cs"}, fa...), "b.cs")
						}
						want := []string{"a.cs"}
						if layout == "between" {
							want = []string{"a.cs", "b.cs"}
						}
						runs++
						if err := parsedAs(args, f.Names()[0], check, want); err != nil {
							t.Errorf("fencer %s: %v", strings.Join(args, " "), err)
						}
					}
				}
			}
		}
	}
	if runs < 300 {
		t.Errorf("only %d command lines tried", runs)
	}
}

// parsedAs runs "fencer args" with every command's action replaced by a
// check that the flag name was set as check says and that the positional
// arguments are want.
func parsedAs(args []string, name string, check func(*cli.Context, string) bool, want []string) error {
	app := newApp()
	ran := false
	var got error
	for _, cmd := range app.Commands {
		cmd.Action = func(c *cli.Context) error {
			ran = true
			switch {
			case !c.IsSet(name):
				got = fmt.Errorf("--%s not set", name)
			case !check(c, name):
				got = fmt.Errorf("--%s has the wrong value", name)
			case !slices.Equal(c.Args().Slice(), want):
				got = fmt.Errorf("arguments %q, want %q", c.Args().Slice(), want)
			}
			return nil
		}
	}
	if err := app.Run(reorderArgs(app, append([]string{"fencer"}, args...))); err != nil {
		return err
	}
	if !ran {
		return fmt.Errorf("the command did not run")
	}
	return got
}

// The flags of the app itself may follow the command and its FILE.
func TestAppFlagsAfterCommand(t *testing.T) {
	cases := []struct{ in, want string }{
		{"fencer insert sb.cs --cpuprofile p.out", "fencer --cpuprofile p.out insert sb.cs"},
		{"fencer --memprofile m.out insert sb.cs --all --model pso", "fencer --memprofile m.out insert --all --model pso sb.cs"},
		{"fencer show sb.cs -v", "fencer -v show sb.cs"},
		{"fencer show sb.cs --cpuprofile", "fencer --cpuprofile"},
		{"fencer insert -q --all --model tso --json all.json iriw.cs", "fencer insert -q --all --model tso --json all.json iriw.cs"},
		{"fencer insert sb.cs --all --model pso", "fencer insert --all --model pso sb.cs"},
	}
	app := newApp()
	for _, c := range cases {
		got := strings.Join(reorderArgs(app, strings.Fields(c.in)), " ")
		if got != c.want {
			t.Errorf("reorderArgs(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}
