package rmm

import (
	"fencer/cs"
	"fencer/readkit"
)

// Parse reads the Memorax model src of the file named filename and builds
// its concurrent system. On an error it returns a nil System and a
// cs.ErrorList with one "file:line:col: message" entry.
func Parse(filename string, src []byte) (*cs.System, error) {
	file := cs.NewFile(filename, src)
	prog, _, err := read(file)
	if err != nil {
		return nil, err
	}
	return readkit.Lower(file, prog, Reader{})
}

// Program returns the .cs syntax tree of the model (what Parse lowers), for
// printing it as a .cs program.
func Program(filename string, src []byte) (*cs.Program, error) {
	prog, _, err := read(cs.NewFile(filename, src))
	return prog, err
}

// read builds the syntax tree and the write sites of a model.
func read(file *cs.File) (*cs.Program, map[int]*site, error) {
	type result struct {
		prog  *cs.Program
		sites map[int]*site
	}
	r, err := readkit.Read(file, func() result {
		b := &builder{m: parseModel(expand(lex(file.Src)))}
		return result{b.program(), b.sites}
	})
	return r.prog, r.sites, err
}

// Reader is the cs.Reader of .rmm models.
type Reader struct{}

// Format is "rmm".
func (Reader) Format() string { return "rmm" }

// Parse is Parse.
func (Reader) Parse(filename string, src []byte) (*cs.System, error) { return Parse(filename, src) }

// InsertFences is InsertFences.
func (Reader) InsertFences(src []byte, sites []*cs.Site) ([]byte, error) {
	return InsertFences(src, sites)
}
