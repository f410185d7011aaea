package cgen

import (
	"fmt"
	"strings"

	"fencer/cs"
	"fencer/expr"
)

// This file writes the atomic steps (cas, fetch_add, swap, atomic { }): one
// locked x86 instruction where there is one for the step, else a retry loop
// around one (a single variable) or a lock of the harness (several).

// mentions reports whether e reads the variable v.
func mentions(e expr.Expr, v string) bool {
	for _, n := range expr.Vars(e) {
		if n == v {
			return true
		}
	}
	return false
}

// onlyAssigns reports whether ops are all local assignments.
func onlyAssigns(ops []cs.Op) bool {
	for _, o := range ops {
		if o.Kind != cs.OpAssign {
			return false
		}
	}
	return true
}

// rmw is an atomic step recognised as one read-modify-write instruction.
type rmw struct {
	kind  string // "xchg", "xadd" or "cmpxchg"
	x     string // the shared variable
	old   string // the local that receives the old value
	arg   expr.Expr
	arg2  expr.Expr // cmpxchg: the new value (arg is the expected one)
	first int       // cmpxchg: index in out of the path that writes
}

// recognise matches the bodies swap, fetch_add and cas lower to.
func recognise(p *cs.Process, out []int) (rmw, bool) {
	body := func(i int) []cs.Op { return p.Edges[out[i]].Op.Body }
	switch len(out) {
	case 1:
		b := body(0)
		if len(b) < 2 || b[0].Kind != cs.OpRead || b[1].Kind != cs.OpWrite || b[1].Shared != b[0].Shared || !onlyAssigns(b[2:]) {
			return rmw{}, false
		}
		x, o, v := b[0].Shared, b[0].Local, b[1].Val
		if !mentions(v, o) {
			return rmw{kind: "xchg", x: x, old: o, arg: v}, true
		}
		if vv, ok := v.(expr.Var); ok && vv.Name == o {
			return rmw{kind: "xadd", x: x, old: o, arg: expr.Zero}, true
		}
		if a, ok := v.(*expr.App); ok && a.Op == expr.OpAdd && len(a.Args) == 2 {
			for i := 0; i < 2; i++ {
				if vv, ok := a.Args[i].(expr.Var); ok && vv.Name == o && !mentions(a.Args[1-i], o) {
					return rmw{kind: "xadd", x: x, old: o, arg: a.Args[1-i]}, true
				}
			}
		}
	case 2:
		for w := 0; w < 2; w++ {
			a, b := body(w), body(1-w)
			if len(a) < 3 || len(b) < 2 || a[0].Kind != cs.OpRead || b[0].Kind != cs.OpRead ||
				a[0].Shared != b[0].Shared || a[0].Local != b[0].Local ||
				a[1].Kind != cs.OpAssume || b[1].Kind != cs.OpAssume || a[2].Kind != cs.OpWrite ||
				a[2].Shared != a[0].Shared || !onlyAssigns(a[3:]) || !onlyAssigns(b[2:]) {
				continue
			}
			o := a[0].Local
			eq, ok := a[1].Val.(*expr.App)
			if !ok || eq.Op != expr.OpEq || len(eq.Args) != 2 || !complementary(a[1].Val, b[1].Val) || mentions(a[2].Val, o) {
				continue
			}
			for i := 0; i < 2; i++ {
				if vv, ok := eq.Args[i].(expr.Var); ok && vv.Name == o && !mentions(eq.Args[1-i], o) {
					return rmw{kind: "cmpxchg", x: a[0].Shared, old: o, arg: eq.Args[1-i], arg2: a[2].Val, first: w}, true
				}
			}
		}
	}
	return rmw{}, false
}

// bound writes the loop bounds of the atomic edges out, before the step:
// stopping there leaves the process at its location, as the model allows.
func (pg *procGen) bound(out []int) {
	if pg.mode != harnessMode {
		return
	}
	work, spin := false, false
	for _, ei := range out {
		if pg.sh.back[ei] {
			work = work || pg.sh.work[ei]
			spin = spin || !pg.sh.work[ei]
		}
	}
	if work {
		pg.printf("\tif (++iters > ITERATIONS) goto done;\n")
	} else if spin {
		pg.printf("\tif ((++spins & 255) == 0 && spin_stop(t, spins)) goto done;\n")
	}
}

// atomicGroup writes the atomic edges out of location l.
func (pg *procGen) atomicGroup(l cs.Loc, out []int) error {
	p := pg.p
	pg.printf("\t{\n")
	defer pg.printf("\t}\n")
	if r, ok := recognise(p, out); ok {
		pg.bound(out)
		pg.closeSlots()
		x, o := pg.sharedName(r.x), pg.localName(r.old)
		plain := pg.mode == plainMode
		rest := func(ei int) {
			for _, op := range p.Edges[ei].Op.Body {
				if op.Kind == cs.OpAssign {
					pg.printf("\t%s = %s;\n", pg.localName(op.Local), pg.expr(op.Val))
				}
			}
			pg.arrive(ei)
		}
		switch r.kind {
		case "xchg":
			if plain {
				pg.printf("\t%s = atomic_exchange(&%s, %s);\n", o, x, pg.expr(r.arg))
			} else {
				pg.printf("\t%s = __atomic_exchange_n(&%s, %s, __ATOMIC_SEQ_CST); /* XCHG */\n", o, x, pg.expr(r.arg))
			}
			rest(out[0])
		case "xadd":
			if plain {
				pg.printf("\t%s = atomic_fetch_add(&%s, %s);\n", o, x, pg.expr(r.arg))
			} else {
				pg.printf("\t%s = __atomic_fetch_add(&%s, %s, __ATOMIC_SEQ_CST); /* LOCK XADD */\n", o, x, pg.expr(r.arg))
			}
			rest(out[0])
		case "cmpxchg":
			exp := pg.fresh("exp")
			pg.printf("\tlong %s = %s;\n", exp, pg.expr(r.arg))
			if plain {
				pg.printf("\tif (atomic_compare_exchange_strong(&%s, &%s, %s)) {\n", x, exp, pg.expr(r.arg2))
			} else {
				pg.printf("\tif (__atomic_compare_exchange_n(&%s, &%s, %s, 0, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST)) { /* LOCK CMPXCHG */\n", x, exp, pg.expr(r.arg2))
			}
			pg.printf("\t%s = %s;\n", o, exp)
			rest(out[r.first])
			pg.printf("\t}\n\t%s = %s;\n", o, exp)
			rest(out[1-r.first])
		}
		return nil
	}
	return pg.genericAtomic(l, out)
}

// genericAtomic writes atomic edges that are no single instruction. The
// harness loops: it picks one of the paths at random, runs it on shadows of
// the locals and of the shared variables it writes, and commits it in one
// step, with CMPXCHG when the paths touch one variable, under the harness
// lock when they touch several; a path whose assume fails, or a CMPXCHG
// that finds the variable changed, retries. The plain program writes one
// __VERIFIER_atomic_begin/_end block (plainAtomic).
func (pg *procGen) genericAtomic(l cs.Loc, out []int) error {
	if pg.mode == plainMode {
		return pg.plainAtomic(out)
	}
	p := pg.p
	var vars []string
	seen := map[string]bool{}
	for _, ei := range out {
		for _, op := range p.Edges[ei].Op.Body {
			if (op.Kind == cs.OpRead || op.Kind == cs.OpWrite) && !seen[op.Shared] {
				seen[op.Shared] = true
				vars = append(vars, op.Shared)
			}
		}
	}
	cas := len(vars) == 1
	if !cas {
		pos := pg.sys.Position(p.Edges[out[0]].Pos)
		pg.warnings = append(pg.warnings, fmt.Sprintf("%s: %s: an atomic block over %d variables has no x86 instruction: "+
			"the harness runs it under a lock of its own, atomic against the other such blocks only", pos, p.Name, len(vars)))
	}
	pg.bound(out)
	pg.closeSlots() // the process may wait here, but an interval may end early
	pg.printf("\tfor (;;) {\n")
	old := ""
	if cas {
		old = pg.fresh("old")
		pg.printf("\tlong %s = %s;\n", old, pg.load(vars[0]))
	} else {
		pg.printf("\thw_lock();\n")
	}
	k := pg.fresh("k")
	if len(out) == 1 {
		pg.printf("\tlong %s = 0;\n", k)
	} else {
		pg.printf("\tlong %s = (long)rnd_below(t, %d);\n", k, len(out))
	}
	for i, ei := range out {
		pg.printf("\tif (%s == %d) {\n", k, i)
		err := pg.path(ei, old, func(pa *atomicPath) {
			if cas {
				nv := old
				if w, ok := pa.written[vars[0]]; ok {
					nv = w
				}
				pg.printf("\tif (__atomic_compare_exchange_n(&%s, &%s, %s, 0, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST)) { /* LOCK CMPXCHG */\n",
					pg.sharedName(vars[0]), old, nv)
			} else {
				pa.stores()
				pg.printf("\t__asm__ __volatile__(\"mfence\" ::: \"memory\");\n\thw_unlock();\n\t{\n")
			}
			pa.commitLocals()
			pg.arrive(ei)
			pg.printf("\t}\n")
		})
		if err != nil {
			return err
		}
		pg.printf("\t}\n")
	}
	if !cas {
		pg.printf("\thw_unlock();\n")
	}
	pg.printf("\tif ((++spins & 255) == 0 && spin_stop(t, spins)) goto done;\n")
	pg.printf("\t}\n")
	return nil
}

// plainAtomic writes atomic edges as one __VERIFIER_atomic_begin/_end
// block without loops (fencer's C reader reads it as one atomic step): path
// k, chosen nondeterministically, is tried first and then every path in
// order, so that each enabled path can be taken; the block blocks (an
// assume inside it) while no path is enabled; after it, a jump to the
// path's target.
func (pg *procGen) plainAtomic(out []int) error {
	k, taken := "", pg.fresh("taken")
	if len(out) > 1 {
		k = pg.fresh("k")
		pg.printf("\tlong %s = __VERIFIER_nondet_long();\n", k)
	}
	pg.printf("\tint %s = -1;\n\t__VERIFIER_atomic_begin();\n", taken)
	try := func(i int, first bool) error {
		if first {
			pg.printf("\tif (%s == %d) {\n", k, i)
		} else {
			pg.printf("\tif (%s < 0) {\n", taken)
		}
		err := pg.path(out[i], "", func(pa *atomicPath) {
			pa.stores()
			pa.commitLocals()
			pg.printf("\t%s = %d;\n", taken, i)
		})
		pg.printf("\t}\n")
		return err
	}
	if k != "" {
		for i := range out {
			if err := try(i, true); err != nil {
				return err
			}
		}
	}
	for i := range out {
		if err := try(i, false); err != nil {
			return err
		}
	}
	pg.printf("\t__VERIFIER_assume(%s >= 0);\n\t__VERIFIER_atomic_end();\n", taken)
	for i, ei := range out {
		pg.printf("\tif (%s == %d) {\n", taken, i)
		pg.arrive(ei)
		pg.printf("\t}\n")
	}
	pg.printf("\treturn NULL; /* not reached */\n")
	return nil
}

// atomicPath is one path of an atomic step written on shadows.
type atomicPath struct {
	pg       *procGen
	sub      map[string]string // local -> its shadow
	assigned []string          // the locals the path sets, in order
	written  map[string]string // shared variable -> the shadow of its new value
	wOrder   []string
}

// path writes the body of edge ei on shadows, straight-line code with no
// loop: reads from memory (or from old, the value a CMPXCHG will check,
// when not ""), or from the path's own earlier write; writes and local
// steps on shadows; each assume opens an if that holds the rest of the
// path, ending with commit, which writes the commit of the path.
func (pg *procGen) path(ei int, old string, commit func(*atomicPath)) error {
	p := pg.p
	pa := &atomicPath{pg: pg, sub: map[string]string{}, written: map[string]string{}}
	for _, op := range p.Edges[ei].Op.Body {
		if op.Kind == cs.OpRead || op.Kind == cs.OpAssign || op.Kind == cs.OpHavoc {
			if _, ok := pa.sub[op.Local]; !ok {
				s := pg.fresh("s")
				pg.printf("\tlong %s = %s;\n", s, pg.localName(op.Local))
				pa.sub[op.Local] = s
				pa.assigned = append(pa.assigned, op.Local)
			}
		}
	}
	for _, op := range p.Edges[ei].Op.Body {
		if op.Kind == cs.OpWrite {
			if _, ok := pa.written[op.Shared]; !ok {
				w := pg.fresh("w")
				pg.printf("\tlong %s = 0;\n", w)
				pa.written[op.Shared] = w
				pa.wOrder = append(pa.wOrder, op.Shared)
			}
		}
	}
	done := map[string]bool{} // shared variables the path has written so far
	opened := 0
	for _, op := range p.Edges[ei].Op.Body {
		switch op.Kind {
		case cs.OpRead:
			v := pg.load(op.Shared)
			if done[op.Shared] {
				v = pa.written[op.Shared]
			} else if old != "" {
				v = old
			}
			pg.printf("\t%s = %s;\n", pa.sub[op.Local], v)
		case cs.OpWrite:
			pg.printf("\t%s = %s;\n", pa.written[op.Shared], pg.exprIn(op.Val, pa.sub))
			done[op.Shared] = true
		case cs.OpAssign:
			pg.printf("\t%s = %s;\n", pa.sub[op.Local], pg.exprIn(op.Val, pa.sub))
		case cs.OpHavoc:
			pg.printf("\t%s = %s;\n", pa.sub[op.Local], pg.havoc())
		case cs.OpAssume:
			pg.printf("\tif (%s) {\n", pg.exprIn(op.Val, pa.sub))
			opened++
		default:
			return fmt.Errorf("%s: a %s inside an atomic step", p.Name, op.Kind)
		}
	}
	commit(pa)
	pg.printf("%s", strings.Repeat("\t}\n", opened))
	return nil
}

// stores writes the path's shared writes to memory.
func (pa *atomicPath) stores() {
	for _, x := range pa.wOrder {
		pa.pg.printf("\t%s\n", pa.pg.store(x, pa.written[x]))
	}
}

// commitLocals copies the shadows back to the locals.
func (pa *atomicPath) commitLocals() {
	for _, n := range pa.assigned {
		pa.pg.printf("\t%s = %s;\n", pa.pg.localName(n), pa.sub[n])
	}
}
