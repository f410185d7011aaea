// Package formats is the registry of fencer's input formats. Each format
// (.cs, Memorax .rmm, herd .litmus, and any added later) is one Format: a
// struct of data, in the manner of go/analysis's Analyzer, that says how
// a file of the format is recognised (name, extensions), read (Parse to a
// cs.System, Program to the .cs syntax tree it stands for), shown (the
// text mode of its statements in traces), written back (the fence kinds
// its patched files can express, whether fences can be removed) and
// checked (the comment syntax of its "fencer: expect" lines, and for a
// format whose accesses may be plain, its data-race check, Races, run
// once on the program a command reads).
//
// Commands never switch on a format's name: they look the format up
// (ForFile, Lookup, OfSystem) and read its fields. Adding a format is one
// call of Register, in an init function of a file of this package that
// imports the reader.
//
// Per-run options of a reader (a C reader's preprocessor defines, its
// fence style) are declared by the format (Format.Options) and passed to
// Parse as an Options map from option name to values; the command line
// makes one flag of every declared option (see Options), refuses it for a
// file of a format that does not declare it, and checks its Values. A
// reader whose fences depend on an option (a fence style) puts a cs.Reader
// that carries it in the System it returns: fences are written back by
// the System's Reader (cegar, fences.PatchAndParse), not by the Format.
//
// A C reader would be registered by a file c.go of this package:
//
//	func init() {
//		Register(&Format{
//			Name:       "c",
//			Doc:        "C11 with pthreads",
//			Extensions: []string{".c"},
//			Parse: func(name string, src []byte, opt Options) (*cs.System, []Warning, error) {
//				r := cfront.Reader{Defines: opt["define"], Style: cfront.Style(opt.Get("fence-style"))}
//				sys, err := r.Parse(name, src)
//				... // its warnings as []Warning
//			},
//			Program:       ..., // cfront.Reader.Program with the same options
//			Text:          TextLine,
//			FenceKinds:    []string{"full"},
//			RemovesFences: true,
//			Expect:        Comment{Open: "//"},
//			Options: []Option{
//				{Name: "define", Aliases: []string{"D"}, Usage: "C input: define a preprocessor macro, `NAME=VALUE` or NAME (repeatable)", Multi: true},
//				{Name: "fence-style", Usage: "how fences are written into C input", Values: []string{"c11", "gcc", "asm"}},
//			},
//		})
//	}
//
// and every command that reads a program then takes -D and --fence-style.
package formats
