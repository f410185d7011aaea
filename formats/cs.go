package formats

import "fencer/cs"

// The .cs language (docs/language.md): fences are written back by
// fences.FenceEdits, as "fence;" or "fence store;", and --reconsider can
// remove the fence statements of the file.
func init() {
	Register(&Format{
		Name:       "cs",
		Doc:        "fencer's language (docs/language.md)",
		Extensions: []string{".cs"},
		Parse: func(filename string, src []byte, opt Options) (*cs.System, []Warning, error) {
			consts, err := Consts(opt)
			if err != nil {
				return nil, nil, err
			}
			sys, err := cs.ParseWith(filename, src, cs.Options{Consts: consts})
			return sys, nil, err
		},
		Program: func(filename string, src []byte, _ Options) (*cs.Program, error) {
			return cs.ParseProgram(cs.NewFile(filename, src))
		},
		Native:        true,
		Text:          TextStatement,
		FenceKinds:    []string{"full", "store"},
		RemovesFences: true,
		Expect:        Comment{Open: "//"},
		Options:       []Option{Define},
	})
}
