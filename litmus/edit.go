package litmus

import (
	"fmt"
	"strings"

	"fencer/cs"
)

// This file writes fences and changes back into a test: new rows of
// barriers in the program table, instructions rewritten or taken out of
// their cells; the table is printed again with aligned columns and the
// rest of the text is unchanged.

// EditFences is InsertFences with the fences of full, store fences after
// the sites of store (AArch64 DMB ISHST, RISCV fence w,w; refused in an
// x86 test: Reader.StoreFences), and the fence instructions of remove
// (sites of a System read with cs.Options.Reconsider) taken out of their
// cells; a row left with no instruction goes.
func EditFences(src []byte, full, store, remove []*cs.Site) ([]byte, error) {
	_, t, err := read(cs.NewFile("", src))
	if err != nil {
		if len(store) > 0 {
			_, why := Reader{}.StoreFences()
			return nil, fmt.Errorf("%s", why)
		}
		return nil, err
	}
	if len(store) > 0 && !t.arch.weak() {
		_, why := Reader{}.StoreFences()
		return nil, fmt.Errorf("%s", why)
	}
	e := newTableEdit(t, src)
	for _, list := range []struct {
		sites []*cs.Site
		kind  cs.FenceKind
	}{{full, cs.FullFence}, {store, cs.StoreFence}} {
		for _, s := range list.sites {
			row, th, err := e.slot(s)
			if err != nil {
				return nil, err
			}
			if err := e.barrier(row, th, list.kind); err != nil {
				return nil, err
			}
		}
	}
	for _, s := range remove {
		if err := e.remove(s); err != nil {
			return nil, err
		}
	}
	return e.print()
}

// EditChanges returns the test src with changes made (cs.ChangeEditor): a
// barrier of kind Kind after a site, written as a new row in the site's
// column (X86 MFENCE, X86_64 mfence, AArch64 DMB ISH, DMB ISHLD, DMB
// ISHST, RISCV fence PRED,SUCC or fence.tso; a kind the dialect has no
// instruction for is an error, and so is an Instr that is not the
// instruction of Kind), or an access raised to an annotation by
// rewriting its instruction (LDR to LDAR or LDAPR, STR to STLR, lw to
// lw.aq, sw to sw.rl, LDXR to LDAXR, and the A/L suffixes of the atomic
// instructions). Several barriers at one place become one that orders
// what each orders when the dialect has one (RISCV fence r,rw and fence
// w,w: fence.tso), else they follow each other.
func EditChanges(src []byte, changes []cs.Change) ([]byte, error) {
	_, t, err := read(cs.NewFile("", src))
	if err != nil {
		return nil, err
	}
	e := newTableEdit(t, src)
	for _, c := range changes {
		if c.Site == nil {
			if err := e.raise(c.Pos, c.Ann); err != nil {
				return nil, err
			}
			continue
		}
		if c.Instr != "" {
			if err := t.checkInstr(c.Instr, c.Kind); err != nil {
				return nil, err
			}
		}
		row, th, err := e.slot(c.Site)
		if err != nil {
			return nil, err
		}

		if err := e.barrier(row, th, c.Kind); err != nil {
			return nil, err
		}
	}
	return e.print()
}

// tableEdit collects the edits of a test's program table.
type tableEdit struct {
	t   *test
	src []byte
	// after[row][thread] are the kinds of the barriers in new rows after
	// row (-1: before the first).
	after map[int]map[int][]cs.FenceKind
	// raised[start] is the annotation the instruction of the cell at start
	// is raised to; text[start] a cell's new text; gone the cells taken
	// out.
	raised map[int]cs.Ann
	text   map[int]string
	gone   map[int]bool
}

func newTableEdit(t *test, src []byte) *tableEdit {
	return &tableEdit{t: t, src: src, after: map[int]map[int][]cs.FenceKind{}, raised: map[int]cs.Ann{}, text: map[int]string{}, gone: map[int]bool{}}
}

// slot returns the row after which a barrier at site s goes, and its
// thread. In an x86 test s is right after an instruction (the write sites
// of the readers). In a weak dialect s is before or after a statement that
// spans whole instructions: from the start of one cell (or of its
// instruction, after a label) to the end of a cell of the same thread, or
// among the steps that publish a thread's registers for the observer (the
// point after its last instruction); a point inside an exclusive pair or
// after the steps fencer adds for the outcome has no row and is an
// error.
func (e *tableEdit) slot(s *cs.Site) (row, th int, err error) {
	t := e.t
	if !t.arch.weak() {
		for r, cells := range t.rows {
			for th, c := range cells {
				if len(c.toks) > 0 && c.start == s.Start {
					return r, th, nil
				}
			}
		}
		return 0, 0, fmt.Errorf("no instruction at offset %d", s.Start)
	}
	for th, h := range t.header {
		if s.Start == h.Pos {
			// After the steps that publish the thread's registers for
			// the observer: after its last instruction (a barrier there
			// orders no more than one among those copies).
			row = -1
			for r, in := range t.w[th] {
				if in.kind != wEmpty {
					row = r
				}
			}
			return row, th, nil
		}
	}
	for th, ins := range t.w {
		first, last := -1, -1
		for r, in := range ins {
			if in.kind == wEmpty {
				continue
			}
			if first < 0 && (in.cell.start == s.Start || in.istart == s.Start) {
				first = r
			}
			if first >= 0 && in.cell.end == s.End {
				last = r
				break
			}
		}
		if first < 0 || last < 0 {
			continue
		}
		row = last
		if s.Place == cs.Before {
			row = first - 1
		}
		for _, p := range t.pairs[th] {
			if p[0] <= row && row < p[1] {
				return 0, 0, fmt.Errorf("%s: a barrier between %s and its store-exclusive is not written (they are one atomic step)", s.Describe(), strings.TrimSpace(e.instrText(t.w[th][p[0]])))
			}
		}
		return row, th, nil
	}
	return 0, 0, fmt.Errorf("%s (offset %d): not a point between two instructions of the test's table", s.Describe(), s.Start)
}

func (e *tableEdit) instrText(in winsn) string { return string(e.src[in.istart:in.cell.end]) }

// barrier puts a barrier of kind k after row (in thread th).
func (e *tableEdit) barrier(row, th int, k cs.FenceKind) error {
	if _, ok := e.t.barrierText(k); !ok {
		return fmt.Errorf("%s has no barrier instruction of kind %s", e.t.arch, k)
	}
	if e.after[row] == nil {
		e.after[row] = map[int][]cs.FenceKind{}
	}
	for _, j := range e.after[row][th] {
		if j == k {
			return nil
		}
	}
	e.after[row][th] = append(e.after[row][th], k)
	return nil
}

// remove takes the fence instruction of site s (a Site.Fence) out of its
// cell (a label in the cell stays).
func (e *tableEdit) remove(s *cs.Site) error {
	t := e.t
	if !t.arch.weak() {
		for _, cells := range t.rows {
			for _, c := range cells {
				if len(c.toks) > 0 && c.start == s.Start {
					e.gone[c.start] = true
					return nil
				}
			}
		}
		return fmt.Errorf("no fence instruction at offset %d", s.Start)
	}
	for _, ins := range t.w {
		for _, in := range ins {
			if in.kind == wFence && (in.istart == s.Start || in.cell.start == s.Start) {
				if in.label != nil {
					e.text[in.cell.start] = string(e.src[in.cell.start:in.label.End]) + ":"
				} else {
					e.gone[in.cell.start] = true
				}
				return nil
			}
		}
	}
	return fmt.Errorf("no fence instruction at offset %d", s.Start)
}

// raise records the raise of the access at pos to annotation ann.
func (e *tableEdit) raise(pos cs.Pos, ann cs.Ann) error {
	t := e.t
	if !t.arch.weak() {
		return fmt.Errorf("%s has no acquire or release accesses to raise to", t.arch)
	}
	if !pos.IsValid() {
		return fmt.Errorf("a raise to %s without a position", ann)
	}
	off := pos.Offset()
	for _, ins := range t.w {
		for _, in := range ins {
			if in.kind == wEmpty || off < in.istart || off >= in.cell.end {
				continue
			}
			cur, ok := e.raised[in.cell.start]
			if !ok {
				cur = in.ann &^ (cs.Relaxed | cs.NoRet)
			}
			cur |= ann
			if _, err := t.raisedName(&in, cur); err != nil {
				return err
			}
			e.raised[in.cell.start] = cur
			return nil
		}
	}
	return fmt.Errorf("no instruction at offset %d to raise to %s", off, ann)
}

// print returns the test with the table edited.
func (e *tableEdit) print() ([]byte, error) {
	t, src := e.t, e.src
	for start, ann := range e.raised {
		in := e.cellInsn(start)
		name, err := t.raisedName(in, ann)
		if err != nil {
			return nil, err
		}
		e.text[start] = string(src[start:in.mn.Pos]) + name + string(src[in.mn.End:in.cell.end])
	}
	var table [][]string
	header := make([]string, t.threads)
	for th := range header {
		header[th] = fmt.Sprintf("P%d", th)
	}
	table = append(table, header)
	// barriers adds the rows of the barriers after row r: in each thread
	// one instruction that orders what each of its barriers orders, or,
	// when the dialect has none, each barrier in a row of its own, in the
	// order they were asked for.
	barriers := func(r int) {
		ths := e.after[r]
		var rows [][]string
		for th, kinds := range ths {
			texts := make([]string, 0, len(kinds))
			var o cs.Ordering
			for _, k := range kinds {
				o |= k.Orders()
			}
			if text, ok := t.barrierText(cs.MaskFence(o)); ok {
				texts = append(texts, text)
			} else {
				for _, k := range kinds {
					text, _ := t.barrierText(k)
					texts = append(texts, text)
				}
			}
			for i, text := range texts {
				for len(rows) <= i {
					rows = append(rows, make([]string, t.threads))
				}
				rows[i][th] = text
			}
		}
		table = append(table, rows...)
	}
	barriers(-1)
	for r, row := range t.rows {
		cells := make([]string, t.threads)
		had, has := false, false
		for th, c := range row {
			if len(c.toks) > 0 {
				had = true
				if e.gone[c.start] {
					continue
				}
				cells[th] = string(src[c.start:c.end])
				if text, ok := e.text[c.start]; ok {
					cells[th] = text
				}
				has = true
			}
		}
		if has || !had {
			table = append(table, cells)
		}
		barriers(r)
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

// cellInsn is the instruction of the cell at start (weak dialects).
func (e *tableEdit) cellInsn(start int) *winsn {
	for th := range e.t.w {
		for r := range e.t.w[th] {
			if in := &e.t.w[th][r]; in.kind != wEmpty && in.cell.start == start {
				return in
			}
		}
	}
	return nil
}

// lower reports whether the test writes its mnemonics in lower case (its
// first instruction does).
func (t *test) lower() bool {
	switch t.arch {
	case att, riscv:
		return true
	case intel:
		return false
	}
	for _, ins := range t.w {
		for _, in := range ins {
			if in.mn.Text != "" {
				return in.mn.Text == strings.ToLower(in.mn.Text)
			}
		}
	}
	return false
}

// barrierText is the instruction of a barrier of kind k in the test's
// dialect, or false when it has none.
func (t *test) barrierText(k cs.FenceKind) (string, bool) {
	text, ok := "", false
	switch t.arch {
	case intel, att:
		if k == cs.FullFence {
			text, ok = t.arch.fence(), true
		}
	case arm64:
		switch k {
		case cs.FullFence:
			text, ok = "DMB ISH", true
		case cs.LoadFence:
			text, ok = "DMB ISHLD", true
		case cs.StoreFence:
			text, ok = "DMB ISHST", true
		}
		if t.lower() {
			text = strings.ToLower(text)
		}
	case riscv:
		if k == cs.TSOFence {
			return "fence.tso", true
		}
		o := k.Orders()
		set := func(read, write bool) string {
			return map[[2]bool]string{{true, false}: "r", {false, true}: "w", {true, true}: "rw"}[[2]bool{read, write}]
		}
		// fence P,S orders P x S: o must be such a product.
		pr, pw := o&(cs.LoadLoad|cs.LoadStore) != 0, o&(cs.StoreLoad|cs.StoreStore) != 0
		sr, sw := o&(cs.LoadLoad|cs.StoreLoad) != 0, o&(cs.LoadStore|cs.StoreStore) != 0
		var prod cs.Ordering
		for _, p := range []struct {
			a, b bool
			o    cs.Ordering
		}{{pr && sr, true, cs.LoadLoad}, {pr && sw, true, cs.LoadStore}, {pw && sr, true, cs.StoreLoad}, {pw && sw, true, cs.StoreStore}} {
			if p.a {
				prod |= p.o
			}
		}
		if prod == o && o != 0 {
			return "fence " + set(pr, pw) + "," + set(sr, sw), true
		}
	}
	return text, ok
}

// checkInstr checks that instr is the dialect's barrier of kind k.
func (t *test) checkInstr(instr string, k cs.FenceKind) error {
	bad := fmt.Errorf("%q is not a barrier of kind %s in %s", instr, k, t.arch)
	if !t.arch.weak() {
		if k == cs.FullFence && strings.EqualFold(strings.TrimSpace(instr), "mfence") {
			return nil
		}
		return bad
	}
	src := []byte(instr)
	toks := lex(src, 0)
	if len(toks) < 2 {
		return bad
	}
	toks = toks[:len(toks)-1]
	var got cs.FenceKind
	err := func() (err error) {
		defer func() {
			if r := recover(); r != nil {
				err = bad
			}
		}()
		in := parseWeak(t.arch, cell{toks: toks, start: 0, end: len(src)})
		if in.kind != wFence {
			return bad
		}
		got = in.fence
		return nil
	}()
	if err != nil || got != k {
		return bad
	}
	return nil
}

// raisedName is the mnemonic of instruction in with annotation ann, or an
// error when it has none.
func (t *test) raisedName(in *winsn, ann cs.Ann) (string, error) {
	name, ok := "", false
	low := in.mn.Text == strings.ToLower(in.mn.Text)
	acq := ann&(cs.Acquire|cs.AcquirePC) != 0
	rel := ann&cs.Release != 0
	if t.arch == arm64 {
		switch in.kind {
		case wLoad:
			if !rel {
				name, ok = "LDR", true
				switch {
				case ann&cs.Acquire != 0:
					name = "LDAR"
				case ann&cs.AcquirePC != 0:
					name = "LDAPR"
				}
				if name != "LDR" && (in.mem.index != "" || in.mem.disp != 0 || in.post != nil) {
					return "", fmt.Errorf("%s cannot become %s: it takes [Xn] only", mnem(in), name)
				}
			}
		case wStore:
			if !acq {
				name, ok = "STR", true
				if rel {
					name = "STLR"
				}
				if name != "STR" && (in.mem.index != "" || in.mem.disp != 0 || in.post != nil) {
					return "", fmt.Errorf("%s cannot become %s: it takes [Xn] only", mnem(in), name)
				}
			}
		case wLoadEx:
			if !rel {
				name, ok = "LDXR", true
				if acq {
					name = "LDAXR"
				}
			}
		case wStoreEx:
			if !acq {
				name, ok = "STXR", true
				if rel {
					name = "STLXR"
				}
			}
		case wRMW, wCAS:
			sfx := map[[2]bool]string{{true, false}: "A", {false, true}: "L", {true, true}: "AL"}[[2]bool{acq, rel}]
			// One whose loaded value goes to the zero register (ST<op>
			// too) reads without acquire whatever its suffix (noRet).
			name, ok = in.base+sfx, !(in.ann&cs.NoRet != 0 && acq)
		}
	} else {
		sfx := map[[2]bool]string{{true, false}: ".aq", {false, true}: ".rl", {true, true}: ".aqrl"}[[2]bool{acq, rel}]
		switch in.kind {
		case wLoad:
			name, ok = in.base+sfx, !rel
		case wStore:
			name, ok = in.base+sfx, !acq
		case wLoadEx, wStoreEx, wRMW:
			name, ok = in.base+sfx, true
		}
	}
	if !ok {
		return "", fmt.Errorf("%s cannot be made %s", mnem(in), ann)
	}
	if low {
		name = strings.ToLower(name)
	}
	return name, nil
}

// mnem is the mnemonic of an instruction, for a message.
func mnem(in *winsn) string { return in.mn.Text }
