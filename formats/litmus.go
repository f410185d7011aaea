package formats

import (
	"fencer/cs"
	"fencer/litmus"
)

// herd litmus tests, X86 and X86_64 (docs/formats.md), AArch64 and RISCV
// (package litmus): fences, barriers and order raises are written back by
// litmus.Reader; what it can write and remove is asked of it (edit.go).
func init() {
	Register(&Format{
		Name:       "litmus",
		Doc:        "herd litmus test (X86, X86_64, AArch64, RISCV)",
		Extensions: []string{".litmus"},
		Parse: func(filename string, src []byte, _ Options) (*cs.System, []Warning, error) {
			sys, err := litmus.Parse(filename, src)
			return sys, nil, err
		},
		Program: func(filename string, src []byte, _ Options) (*cs.Program, error) {
			return litmus.Program(filename, src)
		},
		Text:          TextCell,
		FenceKinds:    readerKinds(litmus.Reader{}),
		RemovesFences: readerRemoves(litmus.Reader{}),
		NoStoreFence:  readerNoStore(litmus.Reader{}),
		Expect:        Comment{Open: "(*", Close: "*)"},
	})
}
