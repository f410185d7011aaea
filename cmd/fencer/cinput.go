package main

import (
	"fmt"
	"os"
	"strings"

	"github.com/urfave/cli/v2"

	"fencer/cfront"
	"fencer/cs"
	"fencer/csprint"
)

// This file wires the C front end (package cfront) into the commands: the
// -D and --fence-style flags of every command that reads a program, the
// reader they configure, and the warnings it prints.

// cOptions are the C flags of the running command.
var cOptions struct {
	defines []string
	style   cfront.Style
}

var (
	defineFlag = &cli.StringSliceFlag{Name: "define", Aliases: []string{"D"},
		Usage: "C input: define a preprocessor macro, `NAME=VALUE` or NAME (repeatable)"}
	fenceStyleFlag = &cli.StringFlag{Name: "fence-style", Value: string(cfront.StyleC11),
		Usage: "C input: how an inserted fence is written: c11 (atomic_thread_fence), gcc (__sync_synchronize) or asm (mfence)"}
)

// withCInput adds the C flags to every command that takes --format, and
// reads them before the command runs.
func withCInput(cmds []*cli.Command) {
	for _, cmd := range cmds {
		has := false
		for _, f := range cmd.Flags {
			if f == formatFlag {
				has = true
			}
		}
		if !has {
			continue
		}
		cmd.Flags = append(cmd.Flags, defineFlag, fenceStyleFlag)
		before := cmd.Before
		cmd.Before = func(c *cli.Context) error {
			cOptions.defines = c.StringSlice("define")
			style := cfront.Style(c.String("fence-style"))
			ok := false
			for _, s := range cfront.Styles {
				ok = ok || s == style
			}
			if !ok {
				return fail(exitInput, "unknown --fence-style %q (want c11, gcc or asm)", style)
			}
			cOptions.style = style
			if before != nil {
				return before(c)
			}
			return nil
		}
	}
}

// cReader is the C reader the flags configure.
func cReader() cfront.Reader {
	return cfront.Reader{Defines: cOptions.defines, Style: cOptions.style}
}

// parseC reads a C program and prints its warnings to stderr.
func parseC(name string, src []byte) (*cs.System, error) {
	sys, err := cReader().Parse(name, src)
	if err != nil {
		return nil, err
	}
	for _, w := range sys.Warnings {
		fmt.Fprintln(os.Stderr, w.Error())
	}
	return sys, nil
}

// cProgram is the .cs syntax tree of a C program, for show --cs and the
// source index of traces.
func cProgram(sys *cs.System) (*cs.Program, error) {
	r, ok := sys.Reader.(cfront.Reader)
	if !ok {
		r = cReader()
	}
	return r.Program(sys.File.Name, sys.File.Src)
}

// showC prints the .cs program of a C file (fencer show --cs), each
// statement with the line of the C file it comes from.
func showC(sys *cs.System) error {
	prog, err := cProgram(sys)
	if err != nil {
		return err
	}
	fmt.Printf("// %s as the .cs program fencer analyses (fencer show --cs); docs/c.md.\n", sys.File.Name)
	base := sys.File.Name
	if i := strings.LastIndexByte(base, '/'); i >= 0 {
		base = base[i+1:]
	}
	last := 0
	return csprint.FprintComments(os.Stdout, prog, func(s cs.Stmt) string {
		switch s := s.(type) {
		case *cs.DeclStmt:
			return ""
		case *cs.BlockStmt:
			if len(s.List) > 0 {
				return ""
			}
		}
		line := sys.File.Line(s.Pos())
		if line == 0 || line == last {
			return ""
		}
		last = line
		return fmt.Sprintf("%s:%d", base, line)
	})
}
