package refsem

import (
	"fmt"
	"strings"
)

// outcome is one way an atomic block can end: memory and locals after it,
// and whether an assert in it failed.
type outcome struct {
	mem, loc []int64
	bad      bool
}

// atomic runs the statements of an atomic block from o on memory, and
// returns every outcome (none when every path fails an assume). The slices
// of o are never changed.
func (r *runner) atomic(list []astmt, o outcome) []outcome {
	if len(list) == 0 || o.bad {
		return []outcome{o}
	}
	a, rest := list[0], list[1:]
	var outs []outcome
	cont := func(o outcome) { outs = append(outs, r.atomic(rest, o)...) }
	switch a.kind {
	case aAssign, aWrite:
		v := r.eval(a.e, nil, o.loc, o.mem)
		cont(set(o, a.kind == aWrite, a.dst, v))
	case aHavoc, aHavocWrite:
		for _, v := range r.p.values {
			cont(set(o, a.kind == aHavocWrite, a.dst, v))
		}
	case aAssume:
		if r.eval(a.e, nil, o.loc, o.mem) != 0 {
			cont(o)
		}
	case aAssert:
		if r.eval(a.e, nil, o.loc, o.mem) == 0 {
			o.bad = true
			return []outcome{o} // the program is wrong here: nothing runs after
		}
		cont(o)
	case aIf:
		if r.eval(a.e, nil, o.loc, o.mem) != 0 {
			outs = append(outs, r.atomic(append(append([]astmt(nil), a.then...), rest...), o)...)
		} else {
			outs = append(outs, r.atomic(append(append([]astmt(nil), a.els...), rest...), o)...)
		}
	case aIfAny:
		outs = append(outs, r.atomic(append(append([]astmt(nil), a.then...), rest...), o)...)
		outs = append(outs, r.atomic(append(append([]astmt(nil), a.els...), rest...), o)...)
	}
	return outs
}

func set(o outcome, shared bool, slot int, v int64) outcome {
	if shared {
		o.mem = append([]int64(nil), o.mem...)
		o.mem[slot] = v
	} else {
		o.loc = append([]int64(nil), o.loc...)
		o.loc[slot] = v
	}
	return o
}

// describe prints one step of a trace.
func (r *runner) describe(st step) string {
	q := r.p.procs[st.proc]
	if st.flush {
		return fmt.Sprintf("%s: flush %s = %d", q.name, r.p.shared[st.v], st.val)
	}
	in := q.code[st.pc]
	pos := r.p.file.Position(in.pos)
	text := statementText(r.p.file.Src, in.pos.Offset())
	var what string
	switch {
	case in.kind == iCall:
		what = fmt.Sprintf(" (%s %s: old value %d)", in.call, r.p.shared[st.v], st.val)
	case st.v >= 0 && (in.kind == iWrite || in.kind == iHavocWrite || in.kind == iWritePending):
		what = fmt.Sprintf(" (write %s = %d)", r.p.shared[st.v], st.val)
	case st.v >= 0:
		what = fmt.Sprintf(" (read %s = %d)", r.p.shared[st.v], st.val)
	}
	return fmt.Sprintf("%s: line %d: %s%s", q.name, pos.Line, text, what)
}

// statementText is the source from off to the end of its line, trimmed.
func statementText(src []byte, off int) string {
	end := off
	for end < len(src) && src[end] != '\n' {
		end++
	}
	s := strings.TrimSpace(string(src[off:end]))
	if len(s) > 40 {
		s = s[:40] + "..."
	}
	return s
}
