package cfront

import (
	"fmt"
	"regexp"
	"strings"

	"fencer/cs"
	"fencer/readkit"
)

// This file writes fences back into the C text: one line per fence after
// the statement it follows, indented like it; " fence" after the ';' when
// more statements share the line; braces around a body of if, else or a
// loop written without them; #include <stdatomic.h> when the c11 style
// needs it and the file lacks it. Nothing else of the file changes.

// edit replaces src[off:end] by text (end 0: inserts at off). inner is
// the start of the statement a fence edit follows: of two insertions at
// one offset (a loop and its body without braces end together), the inner
// statement's goes first.
type edit struct {
	off   int
	text  string
	end   int
	inner int
}

// FenceText is the C statement of a full fence in a style.
func FenceText(style Style) string {
	switch style {
	case StyleGCC:
		return "__sync_synchronize();"
	case StyleAsm:
		return `asm volatile("mfence" ::: "memory");`
	}
	return "atomic_thread_fence(memory_order_seq_cst);"
}

// StoreFences reports that C can write a store fence (cs.FenceEditor):
// StoreFenceText.
func (Reader) StoreFences() (bool, string) { return true, "" }

// StoreFenceText is the C statement of a store fence in a style: what
// fencer reads back as "fence store;".
func StoreFenceText(style Style) string {
	switch style {
	case StyleGCC:
		return "__atomic_thread_fence(__ATOMIC_RELEASE);"
	case StyleAsm:
		return `asm volatile("sfence" ::: "memory");`
	}
	return "atomic_thread_fence(memory_order_release);"
}

var includeRE = regexp.MustCompile(`(?m)^[ \t]*#[ \t]*include[^\n]*\n?`)
var stdatomicRE = regexp.MustCompile(`(?m)^[ \t]*#[ \t]*include[ \t]*<stdatomic\.h>`)

// InsertFences returns src, a C file this Reader read, with a fence after
// each of sites (sites of the System it built from src).
func (r Reader) InsertFences(src []byte, sites []*cs.Site) ([]byte, error) {
	return r.EditFences(src, sites, nil, nil)
}

// EditFences returns src, a C file this Reader read, with a full fence
// after each of sites, a store fence (StoreFenceText) after each of store,
// and the fence statements of remove (sites of a system read with
// cs.Options.Reconsider, Site.Fence) deleted: the whole line when the
// fence is alone on it, ";" when it is an unbraced body.
func (r Reader) EditFences(src []byte, sites, store, remove []*cs.Site) ([]byte, error) {
	if len(sites) == 0 && len(store) == 0 && len(remove) == 0 {
		return src, nil
	}
	kind := map[*cs.Site]string{}
	for _, s := range store {
		kind[s] = r.storeText()
	}
	all := append(append([]*cs.Site{}, sites...), store...)
	_, _, t, err := r.read("", src)
	if err != nil {
		return nil, err
	}
	text := r.fullText()
	var edits []edit
	for _, s := range remove {
		if !t.fencePoints[[2]int{s.Start, s.End}] {
			return nil, fmt.Errorf("no fence statement at offset %d", s.Start)
		}
		edits = append(edits, removal(src, s.Start, s.End, t.bare[[2]int{s.Start, s.End}]))
	}
	done := map[[2]int]bool{}
	for _, s := range all {
		text := text
		if k, ok := kind[s]; ok {
			text = k
		}
		if s.Place != cs.After || !t.writePoints[[2]int{s.Start, s.End}] {
			return nil, fmt.Errorf("no C statement that writes shared memory at offset %d", s.Start)
		}
		start, end := s.Start, s.End
		if done[[2]int{start, end}] {
			continue
		}
		done[[2]int{start, end}] = true
		if t.bare[[2]int{start, end}] {
			edits = append(edits, edit{start, "{ ", 0, 0}, edit{end, " " + text + " }", 0, start})
			continue
		}
		if eol, ok := restOfLine(src, end); ok {
			edits = append(edits, edit{eol, readkit.Newline(src, eol) + indent(src, start) + text, 0, start})
		} else {
			edits = append(edits, edit{end, " " + text, 0, start})
		}
	}
	if (r.Style == StyleC11 || r.Style == "") && len(all) > 0 {
		edits = append(edits, includeEdit(src)...)
	}
	return applyEdits(src, edits)
}

// fullText is the C statement of a full fence in the reader's style: on
// a weak target, with the asm style, the target's instruction.
func (r Reader) fullText() string {
	if r.Style == StyleAsm && r.Target.weak() {
		return r.fenceText(cs.FullFence, "")
	}
	return FenceText(r.Style)
}

// storeText is the C statement of a store fence in the reader's style
// (StoreFenceText; on a weak target with the asm style, the target's
// instruction).
func (r Reader) storeText() string {
	if r.Style == StyleAsm && r.Target.weak() {
		return r.fenceText(cs.StoreFence, "")
	}
	return StoreFenceText(r.Style)
}

// restOfLine is readkit.RestOfLine, except after a // comment that ends
// in a backslash: in C it continues on the next line, so the fence cannot
// go after it. (After a successful scan, only such a comment can leave a
// backslash just before the line's end.)
func restOfLine(src []byte, off int) (int, bool) {
	eol, ok := readkit.RestOfLine(src, off)
	if ok && eol > off && src[eol-1] == '\\' {
		return 0, false
	}
	return eol, ok
}

// indent is the indentation of the line of the statement at off: its
// leading blanks (a statement that shares its line with statements or a
// label before it is indented as the line is).
func indent(src []byte, off int) string {
	start := off
	for start > 0 && src[start-1] != '\n' {
		start--
	}
	end := start
	for end < off && (src[end] == ' ' || src[end] == '\t') {
		end++
	}
	if m := labelRE.Find(src[end:off]); m != nil && end+len(m) == off {
		// "L: x = 1;": the fence lines up with the statement.
		var b strings.Builder
		b.Write(src[start:end])
		for _, c := range m {
			if c == '\t' {
				b.WriteByte('\t')
			} else {
				b.WriteByte(' ')
			}
		}
		return b.String()
	}
	return string(src[start:end])
}

// labelRE matches labels before a statement.
var labelRE = regexp.MustCompile(`^(?:[A-Za-z_][A-Za-z0-9_]*[ \t]*:[ \t]*)+`)

// removal deletes the statement [start, end): its whole line when it is
// alone on it, else the statement (";" for an unbraced body).
func removal(src []byte, start, end int, bare bool) edit {
	if bare {
		return edit{start, ";", end, 0}
	}
	ls := start
	for ls > 0 && (src[ls-1] == ' ' || src[ls-1] == '\t') {
		ls--
	}
	if ls == 0 || src[ls-1] == '\n' {
		le := end
		for le < len(src) && (src[le] == ' ' || src[le] == '\t' || src[le] == '\r') {
			le++
		}
		if le == len(src) || src[le] == '\n' {
			if le < len(src) {
				le++
			}
			return edit{ls, "", le, 0}
		}
	}
	if end < len(src) && src[end] == ' ' {
		end++
	}
	return edit{start, "", end, 0}
}
