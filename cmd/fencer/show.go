package main

import (
	"bytes"
	"fmt"
	"os"

	"github.com/urfave/cli/v2"

	"fencer/cs"
	"fencer/csprint"
	"fencer/litmus"
	"fencer/rmm"
)

func showCommand() *cli.Command {
	return &cli.Command{
		Name:      "show",
		Usage:     "print the automata of a program after desugaring",
		ArgsUsage: "FILE",
		Description: "Prints one line per edge (process, from, operation, to, source line), then the bad\n" +
			"states and the fence sites. With --cs it prints instead the program as a .cs program:\n" +
			"a Memorax .rmm model or a herd .litmus test as the .cs program fencer analyses (a .cs\n" +
			"file is printed as it is). With --c it prints the program as a C11 program with pthreads\n" +
			"(gcc -std=gnu11 -pthread -c compiles it; docs/hw.md).",
		Flags: []cli.Flag{formatFlag,
			&cli.BoolFlag{Name: "cs", Usage: "print the program in the .cs language (for .rmm and .litmus input)"},
			&cli.BoolFlag{Name: "c", Usage: "print the program as C11 with pthreads (docs/hw.md): one function per process, relaxed atomics for its reads and writes"}},
		Action: func(c *cli.Context) error {
			sys, err := parseArg(c)
			if err != nil {
				return err
			}
			if c.Bool("c") {
				return showC(sys)
			}
			if !c.Bool("cs") {
				return sys.Format(os.Stdout)
			}
			var prog *cs.Program
			switch {
			case sys.Reader == nil:
				_, err := os.Stdout.Write(sys.File.Src)
				return err
			case sys.Reader.Format() == "rmm":
				prog, err = rmm.Program(sys.File.Name, sys.File.Src)
			default:
				prog, err = litmus.Program(sys.File.Name, sys.File.Src)
			}
			if err != nil {
				return err
			}
			fmt.Printf("// %s as a .cs program (fencer show --cs).\n", sys.File.Name)
			if sys.Reader.Format() == "rmm" && bytes.Contains(sys.File.Src, []byte("process(")) {
				fmt.Printf("// Each instance of a process(N) is a process of its own here; in the model, a\n" +
					"// fence after one of its writes is one fence site for all instances.\n")
			}
			return csprint.Fprint(os.Stdout, prog)
		},
	}
}
