package main

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/urfave/cli/v2"

	"fencer/cs"
	"fencer/csprint"
)

func showCommand() *cli.Command {
	return &cli.Command{
		Name:      "show",
		Usage:     "print the automata of a program after desugaring",
		ArgsUsage: "FILE",
		Description: "Prints one line per edge (process, from, operation, to, source line), then the bad\n" +
			"states and the fence sites. With --cs it prints instead the program as a .cs program:\n" +
			"a C file, a Memorax .rmm model or a herd .litmus test as the .cs program fencer\n" +
			"analyses, each statement with the line of the file it comes from (a .cs file is\n" +
			"printed as it is). With --c it prints the program as a C11 program with pthreads\n" +
			"(gcc -std=gnu11 -pthread -c compiles it; docs/hw.md).",
		Flags: append(formatFlags(),
			&cli.BoolFlag{Name: "cs", Usage: "print the program in the .cs language (for input in another format)"},
			&cli.BoolFlag{Name: "c", Usage: "print the program as C11 with pthreads (docs/hw.md): one function per process, relaxed atomics for its reads and writes"}),
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
			return csprint.FprintComments(os.Stdout, prog, lineComments(sys.File))
		},
	}
}

// lineComments names, at the end of each printed statement, the line of
// the input file it comes from ("lock.c:12"), once per line: what a user
// of show --cs needs to see which statement became what.
func lineComments(file *cs.File) func(cs.Stmt) string {
	base := filepath.Base(file.Name)
	last := 0
	return func(s cs.Stmt) string {
		switch s := s.(type) {
		case *cs.DeclStmt:
			return ""
		case *cs.BlockStmt:
			if len(s.List) > 0 {
				return ""
			}
		}
		line := file.Line(s.Pos())
		if line == 0 || line == last {
			return ""
		}
		last = line
		return fmt.Sprintf("%s:%d", base, line)
	}
}
