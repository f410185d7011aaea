package litmus

import (
	"fmt"
	"sort"
	"strings"

	"fencer/cs"
	"fencer/readkit"
)

// Parse reads the herd x86 litmus test src of the file named filename and
// builds its concurrent system. On an error it returns a nil System and a
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
		b := &builder{t: t}
		return result{b.program(), t}
	})
	return r.prog, r.t, err
}

// Reader is the cs.Reader of herd x86 litmus tests.
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

// StoreFences is false: fencer writes no store fence into a litmus test.
// The tests are x86's, where stores are never reordered with stores (a
// store fence orders nothing under TSO), and herd's X86_64 has no SFENCE.
func (Reader) StoreFences() (bool, string) {
	return false, "an x86 litmus test has no store fence to write: x86 keeps stores in order (SFENCE orders nothing under TSO) and herd's X86_64 has no sfence"
}

// EditFences is EditFences.
func (Reader) EditFences(src []byte, full, store, remove []*cs.Site) ([]byte, error) {
	return EditFences(src, full, store, remove)
}

// InsertFences returns the test src with an MFENCE after each write
// instruction of sites, in the write's column: a new row right after the
// write's row holds the MFENCEs of every column that needs one there. The
// program table is printed again with its columns aligned; everything
// before and after it is unchanged (comments inside the table are not
// kept).
func InsertFences(src []byte, sites []*cs.Site) ([]byte, error) {
	return EditFences(src, sites, nil, nil)
}

// EditFences is InsertFences with the fences of full, and the fence
// instructions of remove (sites of a System read with
// cs.Options.Reconsider) taken out of their cells; a row left with no
// instruction goes. store must be empty (Reader.StoreFences).
func EditFences(src []byte, full, store, remove []*cs.Site) ([]byte, error) {
	if len(store) > 0 {
		_, why := Reader{}.StoreFences()
		return nil, fmt.Errorf("%s", why)
	}
	sites := full
	_, t, err := read(cs.NewFile("", src))
	if err != nil {
		return nil, err
	}
	gone := map[int]bool{}
	for _, s := range remove {
		gone[s.Start] = true
	}
	where := map[int][2]int{}
	for r, row := range t.rows {
		for th, c := range row {
			if len(c.toks) > 0 {
				where[c.start] = [2]int{th, r}
			}
		}
	}
	after := map[int]map[int]bool{} // row -> threads that get an MFENCE after it
	for _, s := range sites {
		w, ok := where[s.Start]
		if !ok {
			return nil, fmt.Errorf("no instruction at offset %d", s.Start)
		}
		if after[w[1]] == nil {
			after[w[1]] = map[int]bool{}
		}
		after[w[1]][w[0]] = true
	}
	var table [][]string
	header := make([]string, t.threads)
	for th := range header {
		header[th] = fmt.Sprintf("P%d", th)
	}
	table = append(table, header)
	for r, row := range t.rows {
		cells := make([]string, t.threads)
		had, has := false, false
		for th, c := range row {
			if len(c.toks) > 0 {
				had = true
				if gone[c.start] {
					delete(gone, c.start)
					continue
				}
				cells[th] = string(src[c.start:c.end])
				has = true
			}
		}
		if has || !had {
			table = append(table, cells)
		}
		if ths := after[r]; len(ths) > 0 {
			fence := make([]string, t.threads)
			keys := make([]int, 0, len(ths))
			for th := range ths {
				keys = append(keys, th)
			}
			sort.Ints(keys)
			for _, th := range keys {
				fence[th] = t.arch.fence()
			}
			table = append(table, fence)
		}
	}
	for off := range gone {
		return nil, fmt.Errorf("no fence instruction at offset %d", off)
	}
	width := make([]int, t.threads)
	for _, row := range table {
		for th, c := range row {
			width[th] = max(width[th], len(c))
		}
	}
	nl := "\n"
	if strings.Contains(string(src[t.tableStart:t.tableEnd]), "\r\n") {
		nl = "\r\n"
	}
	var b strings.Builder
	for i, row := range table {
		if i > 0 {
			b.WriteString(nl)
		}
		for th, c := range row {
			b.WriteString(" ")
			b.WriteString(c)
			b.WriteString(strings.Repeat(" ", width[th]-len(c)))
			if th < t.threads-1 {
				b.WriteString(" |")
			} else {
				b.WriteString(" ;")
			}
		}
	}
	out := append([]byte(nil), src[:t.tableStart]...)
	out = append(out, b.String()...)
	return append(out, src[t.tableEnd:]...), nil
}
