package main

import (
	"strings"

	"github.com/urfave/cli/v2"
)

// bench passes the -D settings (formats.Define) of its command line on to
// each child run, and names them in the rows of its table.

// defineArgs are the -D settings of c as arguments for a child fencer, in
// the order given.
func defineArgs(c *cli.Context) []string {
	var args []string
	for _, d := range c.StringSlice("define") {
		args = append(args, "-D", d)
	}
	return args
}

// definesLabel is the -D settings of c for a table row: " (N=3)", or "".
func definesLabel(c *cli.Context) string {
	d := c.StringSlice("define")
	if len(d) == 0 {
		return ""
	}
	return " (" + strings.Join(d, ", ") + ")"
}
