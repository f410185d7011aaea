// Package formats is the registry of fencer's input formats. Each format
// (.cs, Memorax .rmm, herd .litmus, and any added later) is one Format: a
// struct of data, in the manner of go/analysis's Analyzer, that says how
// a file of the format is recognised (name, extensions), read (Parse to a
// cs.System, Program to the .cs syntax tree it stands for), shown (the
// text mode of its statements in traces), written back (the fence kinds
// its patched files can express, whether fences can be removed) and
// checked (the comment syntax of its "fencer: expect" lines).
//
// Commands never switch on a format's name: they look the format up
// (ForFile, Lookup, OfSystem) and read its fields. Adding a format is one
// call of Register, in an init function of a file of this package that
// imports the reader.
//
// Per-run options of a reader (a C reader's preprocessor defines, its
// fence style) are declared by the format (Format.Options) and passed to
// Parse as an Options map from option name to values; the command line
// makes one flag of every declared option (see Options).
package formats
