package formats

import (
	"bytes"

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
		Parse: func(filename string, src []byte, _ Options) (*cs.System, []Warning, error) {
			sys, err := rmm.Parse(filename, src)
			return sys, nil, err
		},
		Program: func(filename string, src []byte, _ Options) (*cs.Program, error) {
			return rmm.Program(filename, src)
		},
		Text: TextLine,
		ShowNote: func(src []byte) string {
			if !bytes.Contains(src, []byte("process(")) {
				return ""
			}
			return "// Each instance of a process(N) is a process of its own here; in the model, a\n" +
				"// fence after one of its writes is one fence site for all instances.\n"
		},
		FenceKinds:    readerKinds(rmm.Reader{}),
		RemovesFences: readerRemoves(rmm.Reader{}),
		NoStoreFence:  readerNoStore(rmm.Reader{}),
		Expect:        Comment{Open: "//"},
	})
}
