package formats

import (
	"fencer/cs"
	"fencer/litmus"
)

// herd x86 litmus tests (docs/formats.md): fences are written back as
// MFENCE rows by litmus.InsertFences.
func init() {
	Register(&Format{
		Name:       "litmus",
		Doc:        "herd x86 litmus test",
		Extensions: []string{".litmus"},
		Parse: func(filename string, src []byte, _ Options) (*cs.System, []Warning, error) {
			sys, err := litmus.Parse(filename, src)
			return sys, nil, err
		},
		Program: func(filename string, src []byte, _ Options) (*cs.Program, error) {
			return litmus.Program(filename, src)
		},
		Text:       TextCell,
		FenceKinds: []string{"full"},
		Expect:     Comment{Open: "(*", Close: "*)"},
	})
}
