package main

import (
	"os"

	"github.com/urfave/cli/v2"
)

func showCommand() *cli.Command {
	return &cli.Command{
		Name:      "show",
		Usage:     "print the automata of a program after desugaring",
		ArgsUsage: "FILE",
		Description: "Prints one line per edge (process, from, operation, to, source line), then the bad\n" +
			"states and the fence sites.",
		Action: func(c *cli.Context) error {
			sys, err := parseArg(c)
			if err != nil {
				return err
			}
			return sys.Format(os.Stdout)
		},
	}
}
