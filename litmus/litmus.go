package litmus

import (
	"fencer/cs"
	"fencer/readkit"
)

// Parse reads the herd litmus test src (X86, X86_64, AArch64 or RISCV) of
// the file named filename and builds its concurrent system. On an error it returns a nil System and a
// cs.ErrorList with one "file:line:col: message" entry.
func Parse(filename string, src []byte) (*cs.System, error) {
	return Reader{}.ParseWith(filename, src, cs.Options{})
}

// Program returns the .cs syntax tree of the test (what Parse lowers).
func Program(filename string, src []byte) (*cs.Program, error) {
	prog, _, err := read(cs.NewFile(filename, src))
	return prog, err
}

// read builds the syntax tree of a test and returns the test it parsed.
func read(file *cs.File) (*cs.Program, *test, error) {
	type result struct {
		prog *cs.Program
		t    *test
	}
	r, err := readkit.Read(file, func() result {
		t := parseTest(file.Src)
		b := &builder{t: t, src: file.Src}
		return result{b.program(), t}
	})
	return r.prog, r.t, err
}

// Reader is the cs.Reader of herd litmus tests (X86, X86_64, AArch64,
// RISCV); it is a cs.FenceEditor and a cs.ChangeEditor.
type Reader struct{}

// Format is "litmus".
func (Reader) Format() string { return "litmus" }

// Parse is Parse.
func (Reader) Parse(filename string, src []byte) (*cs.System, error) { return Parse(filename, src) }

// InsertFences is InsertFences.
func (Reader) InsertFences(src []byte, sites []*cs.Site) ([]byte, error) {
	return InsertFences(src, sites)
}

// ParseWith reads a test and lowers it with the options opt
// (cs.FenceEditor): with opt.Reconsider, every MFENCE becomes a
// candidate point.
func (Reader) ParseWith(filename string, src []byte, opt cs.Options) (*cs.System, error) {
	file := cs.NewFile(filename, src)
	prog, _, err := read(file)
	if err != nil {
		return nil, err
	}
	return readkit.LowerWith(file, prog, Reader{}, opt)
}

// StoreFences is false: fencer insert --kinds store writes no store fence
// into a litmus test. An x86 test's stores are never reordered with
// stores (a store fence orders nothing under TSO), and herd's X86_64 has
// no SFENCE. (The barriers of every kind of an AArch64 or RISCV test are
// written by EditChanges, under the axiomatic models.)
func (Reader) StoreFences() (bool, string) {
	return false, "an x86 litmus test has no store fence to write: x86 keeps stores in order (SFENCE orders nothing under TSO) and herd's X86_64 has no sfence"
}

// EditFences is EditFences.
func (Reader) EditFences(src []byte, full, store, remove []*cs.Site) ([]byte, error) {
	return EditFences(src, full, store, remove)
}

// InsertFences returns the test src with a full fence (MFENCE, mfence,
// DMB ISH, fence rw,rw) after each instruction of sites, in its column: a
// new row right after the instruction's row holds the fences of every
// column that needs one there. The program table is printed again with
// its columns aligned; everything before and after it is unchanged
// (comments inside the table are not kept).
func InsertFences(src []byte, sites []*cs.Site) ([]byte, error) {
	return EditFences(src, sites, nil, nil)
}

// EditChanges is EditChanges.
func (Reader) EditChanges(src []byte, changes []cs.Change) ([]byte, error) {
	return EditChanges(src, changes)
}

// CanRaise reports whether fencer insert may raise the access of process
// proc's edge under an axiomatic model (a plain read to acquire, a plain
// write to release): when EditChanges can write it, an LDR or STR whose
// address is [Xn] (LDAR, STLR), or a RISCV lw, ld, sw or sd, and the
// test it writes is read. The steps fencer adds for the outcome are not
// raised.
func (Reader) CanRaise(sys *cs.System, proc, edge int) bool {
	e := sys.Procs[proc].Edges[edge]
	var ann cs.Ann
	switch {
	case e.Op.Kind == cs.OpRead && e.Op.Ann == 0:
		ann = cs.Acquire
	case e.Op.Kind == cs.OpWrite && e.Op.Ann == 0:
		ann = cs.Release
	default:
		return false
	}
	out, err := EditChanges(sys.File.Src, []cs.Change{{Pos: e.Pos, Ann: ann, Proc: proc, Edge: edge}})
	if err != nil {
		return false
	}
	// The raised test must read back (an acquire read of the location of
	// a CAS may be refused where the plain read is not: checkCAS).
	_, err = Parse(sys.File.Name, out)
	return err == nil
}
