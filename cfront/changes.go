package cfront

import (
	"fmt"
	"sort"

	"fencer/cs"
	"fencer/readkit"
)

// This file writes back the changes fencer insert makes under an
// axiomatic model (cs.ChangeEditor): a barrier is a fence line, written as
// the weakest atomic_thread_fence that orders what it must (or the
// target's instruction with --fence-style asm), after a C statement that
// accesses shared memory or before the one that begins a body; an order
// raise makes an atomic access's memory_order argument acquire or release.

// accessKey names a shared access of the C text by the position of its
// .cs operation (cs.Edge.Pos, cs.Change.Pos) and whether it writes.
type accessKey struct {
	pos   cs.Pos
	write bool
}

// access is what an order raise needs to know of an access of the C text.
type access struct {
	v     *shvar
	order int        // orderPlain, or the order loadOrder / storeOrder gives it
	arg   *orderSpan // the memory order argument in the text, or nil
	// ambiguous: two accesses of the text have the same position (macro
	// expansions): neither can be raised.
	ambiguous bool
	// plain: the access, or one of those at its position, is neither
	// atomic nor volatile: one that may race (races.go).
	plain bool
}

// orderSpan is the memory order argument of an atomic call written in the
// C text: its span, and whether the call is one of GCC's builtins (whose
// orders are __ATOMIC_ names).
type orderSpan struct {
	start, end int
	gcc        bool
}

// noteAccess records the access a of the C text at pos (a read, or a
// write when write is true), for order raises.
func (t *translator) noteAccess(pos cs.Pos, write bool, a *access) {
	if pos == cs.NoPos {
		return
	}
	k := accessKey{pos, write}
	a.plain = a.plain || a.order == orderPlain && !a.v.atomic && !a.v.volatile && !a.v.mutex
	if b, ok := t.accesses[k]; ok && (b.v != a.v || b.order != a.order || !sameArg(b.arg, a.arg)) {
		b.ambiguous = true
		b.plain = b.plain || a.plain
		return
	}
	t.accesses[k] = a
}

func sameArg(a, b *orderSpan) bool {
	return a == nil && b == nil || a != nil && b != nil && *a == *b
}

// moveAccess records the write noted at from as being at to (exprStmt
// gives a statement of one write the C statement's span).
func (t *translator) moveAccess(from, to cs.Pos) {
	if from == to {
		return
	}
	if a, ok := t.accesses[accessKey{from, true}]; ok {
		delete(t.accesses, accessKey{from, true})
		t.noteAccess(to, true, a)
	}
}

// orderArgAt finds argument i (from 0) of the call of the function name
// at pos in the C text, or returns nil when the call is not written there
// (it comes from a macro) or has no argument i. gcc says the function is
// one of GCC's __atomic builtins.
func (t *translator) orderArgAt(name string, pos cs.Pos, i int, gcc bool) *orderSpan {
	src := t.file.Src
	if pos == cs.NoPos {
		return nil
	}
	j := pos.Offset()
	if j+len(name) > len(src) || string(src[j:j+len(name)]) != name {
		return nil
	}
	j = skipSpace(src, j+len(name))
	if j >= len(src) || src[j] != '(' {
		return nil
	}
	span := func(a, b int) *orderSpan {
		a = skipSpace(src, a)
		for b > a && (src[b-1] == ' ' || src[b-1] == '\t' || src[b-1] == '\n' || src[b-1] == '\r') {
			b--
		}
		if b <= a {
			return nil
		}
		return &orderSpan{start: a, end: b, gcc: gcc}
	}
	depth, arg, start := 0, 0, j+1
	for j < len(src) {
		switch c := src[j]; {
		case c == '(' || c == '[' || c == '{':
			depth++
		case c == ')' || c == ']' || c == '}':
			depth--
			if depth == 0 {
				if arg == i {
					return span(start, j)
				}
				return nil
			}
		case c == ',' && depth == 1:
			if arg == i {
				return span(start, j)
			}
			arg++
			start = j + 1
		case c == '"' || c == '\'':
			j = skipQuoted(src, j)
			continue
		case c == '/' && j+1 < len(src) && (src[j+1] == '/' || src[j+1] == '*'):
			j = skipSpace(src, j)
			continue
		}
		j++
	}
	return nil
}

// fenceText is the C statement of a barrier of kind k in the reader's
// style: the weakest atomic_thread_fence (or GCC __atomic_thread_fence)
// that orders k (c11Fence), or with the asm style the instruction instr
// (the target's own for k when instr is "").
func (r Reader) fenceText(k cs.FenceKind, instr string) string {
	o := c11Fence(k.Orders())
	switch r.Style {
	case StyleAsm:
		if instr == "" {
			instr = r.Target.instr(k)
		}
		return `asm volatile("` + instr + `" ::: "memory");`
	case StyleGCC:
		if o == orderSeqCst {
			return FenceText(StyleGCC)
		}
		return "__atomic_thread_fence(" + gccOrders[o] + ");"
	}
	return "atomic_thread_fence(" + c11Orders[o] + ");"
}

// point is where a barrier goes: before or after a C statement.
type point struct {
	start, end int
	place      cs.Place
}

// EditChanges returns src, a C file this Reader read, with the changes
// fencer insert made under an axiomatic model (cs.ChangeEditor); the rest
// of the text is unchanged.
//
//   - A barrier (Change.Site set) is a fence statement at the site: after
//     a C statement that accesses shared memory, on a line of its own or
//     after the ';' (as EditFences writes a fence), or before such a
//     statement that begins the body of an if, else or loop, on a line
//     of its own above it. Barriers at one point are one statement that
//     orders what they all do. It is written as fenceText says; with the
//     c11 style #include <stdatomic.h> is added when the file lacks it.
//   - An order raise (Change.Site nil, Ann Acquire of a read or Release
//     of a write at Change.Pos) makes the memory_order argument of the
//     atomic_load_explicit or atomic_store_explicit (or GCC
//     __atomic_load_n, __atomic_store_n) call that performs the access
//     memory_order_acquire or memory_order_release (__ATOMIC_ACQUIRE,
//     __ATOMIC_RELEASE). A plain or volatile access of a variable that is
//     not _Atomic has no order to raise (C needs an atomic object for
//     it), nor has one written by a macro, one that is already at least
//     as strong (a seq_cst access, such as a plain access of an _Atomic
//     variable), or a read-modify-write: each is an error.
//
// Under the default target only full and store barriers are written (the
// kinds the store-buffer models know) and no raise.
func (r Reader) EditChanges(src []byte, changes []cs.Change) ([]byte, error) {
	if len(changes) == 0 {
		return src, nil
	}
	_, _, t, err := r.read("", src)
	if err != nil {
		return nil, err
	}
	orders := map[point]cs.Ordering{}
	instrs := map[point]string{}
	raises := map[accessKey]*access{}
	for _, ch := range changes {
		if ch.Site != nil {
			s := ch.Site
			p := point{s.Start, s.End, s.Place}
			if !t.writePoints[[2]int{s.Start, s.End}] || s.Place == cs.Before && !t.target.weak() {
				return nil, fmt.Errorf("%s: no C statement that accesses shared memory at offset %d", t.file.Position(cs.PosAt(s.Start)), s.Start)
			}
			o := ch.Kind.Orders()
			if !t.target.weak() && ch.Kind != cs.FullFence && ch.Kind != cs.StoreFence {
				return nil, fmt.Errorf("a %s fence in C read for %s (only full and store fences)", ch.Kind, t.target.name())
			}
			if old, ok := orders[p]; ok && old|o != old {
				instrs[p] = "" // the merged kind's own instruction
			} else if !ok {
				instrs[p] = ch.Instr
			}
			orders[p] |= o
			continue
		}
		a, err := t.raise(ch)
		if err != nil {
			return nil, err
		}
		raises[accessKey{ch.Pos, ch.Ann&cs.Release != 0}] = a
	}
	var edits []edit
	text := func(p point) string {
		k := cs.MaskFence(orders[p])
		if !t.target.weak() && k == cs.StoreFence {
			return StoreFenceText(r.Style)
		}
		return r.fenceText(k, instrs[p])
	}
	var points []point
	for p := range orders {
		points = append(points, p)
	}
	sort.Slice(points, func(i, j int) bool {
		a, b := points[i], points[j]
		if a.start != b.start {
			return a.start < b.start
		}
		if a.end != b.end {
			return a.end < b.end
		}
		return a.place < b.place
	})
	for _, p := range points {
		span := [2]int{p.start, p.end}
		after := point{p.start, p.end, cs.After}
		if t.bare[span] {
			// { B stmt A }: one pair of braces for both sides.
			if p.place == cs.After {
				if _, ok := orders[point{p.start, p.end, cs.Before}]; ok {
					continue // written with the point before
				}
				edits = append(edits, edit{p.start, "{ ", 0, 0}, edit{p.end, " " + text(p) + " }", 0, p.start})
				continue
			}
			close := " }"
			if _, ok := orders[after]; ok {
				close = " " + text(after) + " }"
			}
			edits = append(edits, edit{p.start, "{ " + text(p) + " ", 0, -1}, edit{p.end, close, 0, p.start})
			continue
		}
		if p.place == cs.Before {
			edits = append(edits, before(src, p.start, text(p)))
			continue
		}
		if eol, ok := restOfLine(src, p.end); ok {
			edits = append(edits, edit{eol, readkit.Newline(src, eol) + indent(src, p.start) + text(p), 0, p.start})
		} else {
			edits = append(edits, edit{p.end, " " + text(p), 0, p.start})
		}
	}
	for k, a := range raises {
		o := orderAcquire
		if k.write {
			o = orderRelease
		}
		name := c11Orders[o]
		if a.arg.gcc {
			name = gccOrders[o]
		}
		edits = append(edits, edit{a.arg.start, name, a.arg.end, 0})
	}
	if (r.Style == StyleC11 || r.Style == "") && len(orders) > 0 {
		edits = append(edits, includeEdit(src)...)
	}
	return applyEdits(src, edits)
}

// CanRaise reports whether the access of edge e of process p of sys (a
// system this Reader built) is one whose memory order EditChanges can
// raise: a read to acquire or a write to release of an atomic access
// with a memory_order argument in the text that is weaker (raise).
func (r Reader) CanRaise(sys *cs.System, p, e int) bool {
	if p < 0 || p >= len(sys.Procs) || e < 0 || e >= len(sys.Procs[p].Edges) {
		return false
	}
	ed := sys.Procs[p].Edges[e]
	ann := cs.Acquire
	switch ed.Op.Kind {
	case cs.OpRead:
	case cs.OpWrite:
		ann = cs.Release
	default:
		return false
	}
	_, _, t, err := r.read("", sys.File.Src)
	if err != nil {
		return false
	}
	_, err = t.raise(cs.Change{Pos: ed.Pos, Ann: ann})
	return err == nil
}

// CanFence reports whether EditChanges can write a barrier at site s of
// sys (a system this Reader built): after a C statement that accesses
// shared memory, or under a weak target before one that begins a body
// (Site.AfterWrite, as Parse sets it).
func (r Reader) CanFence(sys *cs.System, s int) bool {
	return s >= 0 && s < len(sys.Sites) && sys.Sites[s].AfterWrite
}

// raise finds the access that the order raise ch names.
func (t *translator) raise(ch cs.Change) (*access, error) {
	where := t.file.Position(ch.Pos)
	if !t.target.weak() {
		return nil, fmt.Errorf("%s: an order raise in C read for %s, whose mapping has no acquire or release accesses", where, t.target.name())
	}
	var want int
	switch ch.Ann {
	case cs.Acquire:
		want = orderAcquire
	case cs.Release:
		want = orderRelease
	default:
		return nil, fmt.Errorf("%s: cannot raise an access of the C file to %q (only a read to acquire or a write to release)", where, ch.Ann)
	}
	write := want == orderRelease
	a, ok := t.accesses[accessKey{ch.Pos, write}]
	what := "read"
	if write {
		what = "write"
	}
	switch {
	case !ok:
		return nil, fmt.Errorf("%s: no %s of shared memory of the C file here whose memory order can be raised", where, what)
	case a.ambiguous:
		return nil, fmt.Errorf("%s: the %s of %s is one of several accesses a macro writes at one place: its order cannot be raised", where, what, a.v.cname)
	case a.order == orderPlain:
		return nil, fmt.Errorf("%s: the %s of %s cannot be made %s: %s is not _Atomic (raising a memory order needs an atomic object)", where, what, a.v.cname, c11Orders[want], a.v.cname)
	case a.order == orderSeqCst || a.order == want:
		return nil, fmt.Errorf("%s: the %s of %s is already %s", where, what, a.v.cname, c11Orders[max(a.order, 0)])
	case a.arg == nil:
		return nil, fmt.Errorf("%s: the %s of %s has no memory order argument in the C text (it comes from a macro, or from atomic_init)", where, what, a.v.cname)
	}
	return a, nil
}

// before is the edit that puts the statement text before the C statement
// at start: on a line of its own above it, indented as it is, when only
// blanks precede it on its line; else before it on the same line.
func before(src []byte, start int, text string) edit {
	ls := start
	for ls > 0 && (src[ls-1] == ' ' || src[ls-1] == '\t') {
		ls--
	}
	if ls == 0 || src[ls-1] == '\n' {
		nl := "\n"
		if ls > 1 && src[ls-2] == '\r' {
			nl = "\r\n"
		}
		return edit{ls, string(src[ls:start]) + text + nl, 0, -1}
	}
	return edit{start, text + " ", 0, -1}
}

// includeEdit adds #include <stdatomic.h> after the last #include when
// src lacks it.
func includeEdit(src []byte) []edit {
	if stdatomicRE.Match(src) {
		return nil
	}
	at := 0
	if m := includeRE.FindAllIndex(src, -1); len(m) > 0 {
		at = m[len(m)-1][1]
		if at > 0 && src[at-1] != '\n' {
			return []edit{{at, "\n#include <stdatomic.h>", 0, 0}}
		}
	}
	return []edit{{at, "#include <stdatomic.h>\n", 0, 0}}
}

// applyEdits applies edits to src: of insertions at one offset, the
// inner statement's goes first (edit.inner).
func applyEdits(src []byte, edits []edit) ([]byte, error) {
	sort.SliceStable(edits, func(i, j int) bool {
		if edits[i].off != edits[j].off {
			return edits[i].off < edits[j].off
		}
		return edits[i].inner > edits[j].inner
	})
	out := make([]readkit.Edit, len(edits))
	for i, e := range edits {
		out[i] = readkit.Edit{Off: e.off, End: max(e.end, e.off), Text: e.text}
	}
	return readkit.ApplyEdits(src, out)
}

// KeepsDependencies is false: a C compiler may remove an address, data or
// control dependency between relaxed accesses (C-INPUT.md), so under the
// axiomatic models no dependency of a C program orders anything.
func (Reader) KeepsDependencies() bool { return false }
