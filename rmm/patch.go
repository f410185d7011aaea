package rmm

import (
	"fmt"
	"strings"

	"fencer/cs"
	"fencer/readkit"
)

// InsertFences returns the model src with a fence after each write
// statement of sites (sites of the System Parse built from src), the rest
// of the text unchanged:
//
//   - a write followed by ';' alone on its line (comments aside) gets a
//     "fence;" line after that line, indented like the write;
//   - a write followed by ';' and more statements on its line gets
//     " fence;" after the ';';
//   - a write that ends a list (before '}', 'or' or the end of the
//     process) gets ';' and then a "fence" line (no ';': Memorax separates
//     statements, it does not end them);
//   - a write that is the whole body of an if, else or while becomes
//     "{ write: ...; fence }";
//   - a write in a macro body gets "; fence" right after it, in the body
//     (so every use of the macro has the fence; the write is one site for
//     all of them). A write made of body text and argument text cannot be
//     patched (an error).
func InsertFences(src []byte, sites []*cs.Site) ([]byte, error) {
	return EditFences(src, sites, nil, nil)
}

// EditFences returns the model src with a fence after each write statement
// of full and an ssfence after each of store, placed as InsertFences
// places them, and the "fence" statements of remove (sites of a System
// read with cs.Options.Reconsider) taken out: "fence;" and the blanks after
// it (the whole line when nothing else is on it), or ";" and "fence" when
// it ends a list; a fence that is labelled, the whole body of an if, else
// or while, or alone in its list becomes nop.
func EditFences(src []byte, full, store, remove []*cs.Site) ([]byte, error) {
	res, err := read(cs.NewFile("", src), Options{})
	if err != nil {
		return nil, err
	}
	var edits []readkit.Edit
	done := map[int]bool{}
	add := func(sites []*cs.Site, word string) error {
		for _, s := range sites {
			if done[s.Start] {
				continue
			}
			done[s.Start] = true
			e, err := fenceEdits(src, res.sites[s.Start], s.Start, word)
			if err != nil {
				return err
			}
			edits = append(edits, e...)
		}
		return nil
	}
	if err := add(full, "fence"); err != nil {
		return nil, err
	}
	if err := add(store, "ssfence"); err != nil {
		return nil, err
	}
	for _, s := range remove {
		f := res.fences[s.Start]
		if f == nil {
			return nil, fmt.Errorf("no fence statement at offset %d", s.Start)
		}
		if f.inMacro {
			return nil, fmt.Errorf("%s: cannot remove a fence written in a macro body", position(cs.NewFile("", src), f.tok.Pos))
		}
		edits = append(edits, removeEdit(src, f))
	}
	return readkit.ApplyEdits(src, edits)
}

// fenceEdits places the fence word after the write w (at offset off).
func fenceEdits(src []byte, w *site, off int, word string) ([]readkit.Edit, error) {
	ins := func(at int, text string) readkit.Edit { return readkit.Edit{Off: at, End: at, Text: text} }
	if w == nil {
		return nil, fmt.Errorf("no write statement at offset %d", off)
	}
	if w.mixed || w.lastEnd <= w.write.Pos || !w.inMacro && w.next.Kind != tEOF && w.next.Pos < w.lastEnd {
		return nil, fmt.Errorf("%s: cannot place a fence after this write: it is made of a macro's text and a call's arguments", position(cs.NewFile("", src), w.write.Pos))
	}
	switch {
	case w.bare:
		return []readkit.Edit{ins(w.wrapStart, "{ "), ins(w.lastEnd, "; "+word+" }")}, nil
	case w.inMacro:
		// In a macro body: right after the write, for every use.
		return []readkit.Edit{ins(w.lastEnd, "; "+word)}, nil
	case w.next.Is(";"):
		at := w.next.End
		if eol, ok := readkit.RestOfLine(src, at); ok {
			return []readkit.Edit{ins(eol, readkit.Newline(src, eol)+indent(src, w.write.Pos)+word+";")}, nil
		}
		return []readkit.Edit{ins(at, " "+word+";")}, nil
	}
	if eol, ok := readkit.RestOfLine(src, w.lastEnd); ok {
		return []readkit.Edit{ins(w.lastEnd, ";"), ins(eol, readkit.Newline(src, eol)+indent(src, w.write.Pos)+word)}, nil
	}
	return []readkit.Edit{ins(w.lastEnd, "; "+word)}, nil
}

// removeEdit takes the fence statement f out of src.
func removeEdit(src []byte, f *fenceSite) readkit.Edit {
	start, end := f.tok.Pos, f.tok.End
	switch {
	case f.keep:
		return readkit.Edit{Off: start, End: end, Text: "nop"}
	case f.next.Is(";"):
		// "fence;" and the blanks after it; the whole line when it held
		// nothing else.
		end = f.next.End
		for end < len(src) && (src[end] == ' ' || src[end] == '\t') {
			end++
		}
		if end == len(src) || src[end] == '\n' || src[end] == '\r' {
			// Nothing after it on the line: the blanks before it go too,
			// and the line itself when it held nothing else.
			for start > 0 && (src[start-1] == ' ' || src[start-1] == '\t') {
				start--
			}
			if start == 0 || src[start-1] == '\n' {
				if end < len(src) && src[end] == '\r' {
					end++
				}
				if end < len(src) && src[end] == '\n' {
					end++
				}
			}
		}
		return readkit.Edit{Off: start, End: end}
	}
	// The fence ends a list: the ';' before it goes too.
	return readkit.Edit{Off: f.prev.Pos, End: end}
}

// indent is the indentation of a line whose text starts where the
// statement at off starts: the blanks of its line, then a space for every
// other byte before off (labels count as indentation).
func indent(src []byte, off int) string {
	start := off
	for start > 0 && src[start-1] != '\n' {
		start--
	}
	var b strings.Builder
	for i := start; i < off; i++ {
		if src[i] == '\t' {
			b.WriteByte('\t')
		} else {
			b.WriteByte(' ')
		}
	}
	return b.String()
}
