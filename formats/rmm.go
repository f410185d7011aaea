package formats

import (
	"bytes"
	"regexp"

	"fencer/cs"
	"fencer/rmm"
)

// Memorax models (docs/formats.md): fences are written back by
// rmm.Reader; what it can write and remove is asked of it (edit.go).
func init() {
	Register(&Format{
		Name:       "rmm",
		Doc:        "Memorax model",
		Extensions: []string{".rmm"},
		Parse: func(filename string, src []byte, opt Options) (*cs.System, []Warning, error) {
			sys, err := rmm.Reader{Options: rmmOptions(opt)}.Parse(filename, src)
			return sys, nil, err
		},
		Program: func(filename string, src []byte, opt Options) (*cs.Program, error) {
			return rmm.ProgramWith(filename, src, rmmOptions(opt))
		},
		Text: TextLine,
		ShowNote: func(src []byte) string {
			note := ""
			if bytes.Contains(src, []byte("process(")) {
				note += "// Each instance of a process(N) is a process of its own here; in the model, a\n" +
					"// fence after one of its writes is one fence site for all instances.\n"
			}
			if rangedStar.Match(src) {
				note += "// A \"* : [lo:hi]\" initial value starts at one of lo..hi in the model (fencer\n" +
					"// explores each); .cs has no such value, so a shared one prints as \"*\" here.\n"
			}
			return note
		},
		FenceKinds:    readerKinds(rmm.Reader{}),
		RemovesFences: readerRemoves(rmm.Reader{}),
		NoStoreFence:  readerNoStore(rmm.Reader{}),
		Expect:        Comment{Open: "//"},
		Options: []Option{{Name: "domains", Values: []string{"memorax", "strict"},
			Usage: "Memorax input: a write that leaves its variable's domain is not enabled (memorax, Memorax's semantics) or is a bad state, a constant one an error (strict)"}},
	})
}

// rangedStar finds a "* : [lo:hi]" initial value.
var rangedStar = regexp.MustCompile(`\*\s*:\s*\[`)

// rmmOptions are the reader options of the command line's format options.
func rmmOptions(opt Options) rmm.Options {
	return rmm.Options{StrictDomains: opt.Get("domains") == "strict"}
}
