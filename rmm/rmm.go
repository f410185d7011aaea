package rmm

import (
	"fencer/cs"
	"fencer/readkit"
)

// Options change how a model is read.
type Options struct {
	// StrictDomains replaces Memorax's semantics of domains (a write, an
	// assignment or a cas whose value leaves the domain is not enabled: the
	// process waits) with a check: a constant value outside the domain is
	// an error at the write, and a write or cas of a register expression
	// gets an assert, so that a run that would leave the domain is a bad
	// state reported with its trace. Register domains are then not
	// enforced. For models meant never to leave their domains, it says
	// where they do instead of blocking there silently.
	StrictDomains bool
}

// Parse reads the Memorax model src of the file named filename and builds
// its concurrent system. On an error it returns a nil System and a
// cs.ErrorList with one "file:line:col: message" entry.
func Parse(filename string, src []byte) (*cs.System, error) {
	return ParseWith(filename, src, Options{})
}

// ParseWith is Parse with options.
func ParseWith(filename string, src []byte, opt Options) (*cs.System, error) {
	return Reader{Options: opt}.ParseWith(filename, src, cs.Options{})
}

// Program returns the .cs syntax tree of the model (what Parse lowers), for
// printing it as a .cs program.
func Program(filename string, src []byte) (*cs.Program, error) {
	return ProgramWith(filename, src, Options{})
}

// ProgramWith is Program with options.
func ProgramWith(filename string, src []byte, opt Options) (*cs.Program, error) {
	r, err := read(cs.NewFile(filename, src), opt)
	return r.prog, err
}

// readResult is what reading a model gives: its syntax tree, and where its
// write and fence statements are (for the patcher), keyed by the offset of
// their first token.
type readResult struct {
	prog   *cs.Program
	sites  map[int]*site
	fences map[int]*fenceSite
	ranged map[string]*varDecl // builder.ranged
}

// read builds the syntax tree and the write and fence sites of a model.
func read(file *cs.File, opt Options) (readResult, error) {
	return readkit.Read(file, func() readResult {
		b := &builder{m: parseModel(expand(lex(file.Src))), opt: opt}
		prog := b.program()
		return readResult{prog, b.sites, b.fences, b.ranged}
	})
}

// Reader is the cs.Reader of .rmm models; its Options apply to Parse (the
// command line's --domains strict sets StrictDomains).
type Reader struct {
	Options Options
}

// Format is "rmm".
func (Reader) Format() string { return "rmm" }

// Parse is ParseWith with the reader's options.
func (r Reader) Parse(filename string, src []byte) (*cs.System, error) {
	return r.ParseWith(filename, src, cs.Options{})
}

// ParseWith reads a model with the reader's options and lowers it with
// the lowering options opt (cs.FenceEditor): with opt.Reconsider,
// every "fence" statement becomes a candidate point.
func (r Reader) ParseWith(filename string, src []byte, opt cs.Options) (*cs.System, error) {
	file := cs.NewFile(filename, src)
	res, err := read(file, r.Options)
	if err != nil {
		return nil, err
	}
	sys, err := readkit.LowerWith(file, res.prog, r, opt)
	if err != nil {
		return nil, err
	}
	setRanged(sys, res.ranged)
	return sys, nil
}

// setRanged bounds the nondeterministic initial value of each variable of
// ranged to its declared domain (cs.Init.Ranged): as in Memorax, a
// variable declared "x = * : [lo:hi]" starts at one of lo, ..., hi.
func setRanged(sys *cs.System, ranged map[string]*varDecl) {
	set := func(ds []cs.VarDecl) {
		for i := range ds {
			if d, ok := ranged[ds[i].Name]; ok && ds[i].Init.Nondet && d.lo <= d.hi {
				ds[i].Init.Ranged, ds[i].Init.Lo, ds[i].Init.Hi = true, d.lo, d.hi
			}
		}
	}
	set(sys.Shared)
	for _, p := range sys.Procs {
		set(p.Locals)
	}
}

// StoreFences is true: a Memorax model writes a store fence as ssfence.
func (Reader) StoreFences() (bool, string) { return true, "" }

// EditFences is EditFences.
func (Reader) EditFences(src []byte, full, store, remove []*cs.Site) ([]byte, error) {
	return EditFences(src, full, store, remove)
}

// InsertFences is InsertFences.
func (Reader) InsertFences(src []byte, sites []*cs.Site) ([]byte, error) {
	return InsertFences(src, sites)
}
