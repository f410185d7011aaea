package main

import (
	"fmt"
	"os"

	"github.com/urfave/cli/v2"

	"fencer/csprint"
)

func showCommand() *cli.Command {
	return &cli.Command{
		Name:      "show",
		Usage:     "print the automata of a program after desugaring",
		ArgsUsage: "FILE",
		Description: "Prints one line per edge (process, from, operation, to, source line), then the bad\n" +
			"states and the fence sites. With --cs it prints instead the program as a .cs program:\n" +
			"a Memorax .rmm model or a herd .litmus test as the .cs program fencer analyses (a .cs\n" +
			"file is printed as it is).",
		Flags: append(formatFlags(),
			&cli.BoolFlag{Name: "cs", Usage: "print the program in the .cs language (for input in another format)"}),
		Action: func(c *cli.Context) error {
			sys, err := parseArg(c)
			if err != nil {
				return err
			}
			if !c.Bool("cs") {
				return sys.Format(os.Stdout)
			}
			f, opt, err := argFormat(c, sys)
			if err != nil {
				return err
			}
			if f.Native {
				_, err := os.Stdout.Write(sys.File.Src)
				return err
			}
			prog, err := f.Program(sys.File.Name, sys.File.Src, opt)
			if err != nil {
				return err
			}
			fmt.Printf("// %s as a .cs program (fencer show --cs).\n", sys.File.Name)
			if f.ShowNote != nil {
				fmt.Print(f.ShowNote(sys.File.Src))
			}
			return csprint.Fprint(os.Stdout, prog)
		},
	}
}
