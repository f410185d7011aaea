package cs

import (
	"fmt"
	"sort"
	"strings"
)

// This file lowers the declarations: consts, shared and local variables
// (arrays become one scalar per element), process templates (one process
// per index value), and the properties forbidden and mutex. The order of
// the steps is program's, in lower.go.

// declare collects the top-level declarations, reporting names declared
// twice. Consts and shared variables share one scope; processes have their
// own. Shared names are known (as non-constants) from here on, so that a
// const that mentions one is "not constant" rather than "undefined".
func (l *lowerer) declare(prog *Program) (consts []*ConstDecl, shared []*VarSpec, procs []*ProcDecl) {
	top := map[string]Pos{}
	unique := func(id *Ident) bool {
		if prev, ok := top[id.Name]; ok {
			l.errorf(id.Pos(), "%s redeclared (previous declaration at line %d)", id.Name, l.file.Line(prev))
			return false
		}
		top[id.Name] = id.Pos()
		return true
	}
	for _, d := range prog.Decls {
		switch d := d.(type) {
		case *ConstDecl:
			if unique(d.Name) {
				l.consts[d.Name.Name] = &constInfo{decl: d}
				consts = append(consts, d)
			}
		case *VarsDecl:
			for _, sp := range d.Specs {
				if unique(sp.Name) {
					shared = append(shared, sp)
				}
			}
		case *ProcDecl:
			if prev, ok := l.procDecl[d.Name.Name]; ok {
				l.errorf(d.Name.Pos(), "process %s redeclared (previous declaration at line %d)", d.Name.Name, l.file.Line(prev.Name.Pos()))
				continue
			}
			l.procDecl[d.Name.Name] = d
			procs = append(procs, d)
		}
	}
	for _, sp := range shared {
		l.shared[sp.Name.Name] = &varInfo{name: sp.Name.Name, size: -1}
	}
	return consts, shared, procs
}

// constants evaluates the consts in order: a const may use only the consts
// declared before it (state 1 catches a const defined in terms of itself).
func (l *lowerer) constants(ds []*ConstDecl) {
	for _, d := range ds {
		c := l.consts[d.Name.Name]
		c.state = 1
		c.value, _ = l.constExpr(d.Value, "the value of a const")
		if v, ok := l.overrides[d.Name.Name]; ok {
			c.value = v
		}
		c.state = 2
	}
	var unknown []string
	for name := range l.overrides {
		if _, ok := l.consts[name]; !ok {
			unknown = append(unknown, name)
		}
	}
	sort.Strings(unknown)
	for _, name := range unknown {
		var have []string
		for _, d := range ds {
			have = append(have, d.Name.Name)
		}
		consts := "the program declares no const"
		if len(have) > 0 {
			consts = "its consts: " + strings.Join(have, ", ")
		}
		l.errorf(PosAt(0), "cannot set %s=%d: %s is not a const of the program (%s)", name, l.overrides[name], name, consts)
	}
}

// sharedVars declares the shared variables, once the consts that size and
// initialise them are known.
func (l *lowerer) sharedVars(specs []*VarSpec) {
	for _, sp := range specs {
		v := l.declVar(sp, "", false)
		l.shared[sp.Name.Name] = v
		l.sys.Shared = append(l.sys.Shared, l.expand(sp, v)...)
	}
}

// localVars declares the locals of the process being built: the DeclStmts
// that open its body. It returns the rest of the body.
func (pl *procLowerer) localVars(body []Stmt) []Stmt {
	i := 0
	for ; i < len(body); i++ {
		ds, ok := body[i].(*DeclStmt)
		if !ok {
			break
		}
		for _, sp := range ds.Decl.Specs {
			if prev, ok := pl.scope.locals[sp.Name.Name]; ok {
				pl.errorf(sp.Name.Pos(), "%s redeclared (previous declaration at line %d)", sp.Name.Name, pl.file.Line(prev.pos))
				continue
			}
			v := pl.declVar(sp, pl.proc.Name+".", true)
			pl.proc.Locals = append(pl.proc.Locals, pl.expand(sp, v)...)
			pl.scope.locals[sp.Name.Name] = v
		}
	}
	return body[i:]
}

// declVar evaluates the size of a declared variable; prefix qualifies
// locals.
func (l *lowerer) declVar(sp *VarSpec, prefix string, local bool) *varInfo {
	v := &varInfo{name: prefix + sp.Name.Name, size: -1, pos: sp.Name.Pos(), local: local}
	if sp.Size != nil {
		n, ok := l.constExpr(sp.Size, "array size")
		switch {
		case !ok:
			n = 1
		case n < 1:
			l.errorf(sp.Size.Pos(), "array size %d must be at least 1", n)
			n = 1
		case n > MaxArraySize:
			l.errorf(sp.Size.Pos(), "array size %d too large (at most %d)", n, MaxArraySize)
			n = 1
		}
		v.size = int(n)
	}
	return v
}

// expand returns the scalar declarations of v with their initial value.
func (l *lowerer) expand(sp *VarSpec, v *varInfo) []VarDecl {
	var init Init
	switch x := sp.Value.(type) {
	case nil:
	case *StarExpr:
		init.Nondet = true
	default:
		init.Value, _ = l.constExpr(x, "an initial value")
	}
	if v.size < 0 {
		l.countVars(1, sp.Name.Pos())
		return []VarDecl{{Name: v.name, Init: init, Pos: v.pos}}
	}
	l.countVars(v.size, sp.Name.Pos())
	out := make([]VarDecl, v.size)
	for i := range out {
		out[i] = VarDecl{Name: fmt.Sprintf("%s[%d]", v.name, i), Init: init, Pos: v.pos}
	}
	return out
}

// instances lowers the process d: once, or once per index value of a
// template, named "P[0]", "P[1]", ...
func (l *lowerer) instances(d *ProcDecl) {
	if d.Index == nil {
		l.process(d, d.Name.Name, "", nil)
		return
	}
	lo, ok1 := l.constExpr(d.Lo, "template range")
	hi, ok2 := l.constExpr(d.Hi, "template range")
	switch {
	case !ok1 || !ok2:
		return
	case hi < lo:
		l.errorf(d.Lo.Pos(), "empty template range %d..%d", lo, hi)
		return
	case hi-lo < 0 || hi-lo >= MaxInstances:
		l.errorf(d.Lo.Pos(), "template range %d..%d too large (at most %d instances)", lo, hi, MaxInstances)
		return
	}
	for v := lo; ; v++ {
		name := fmt.Sprintf("%s[%d]", d.Name.Name, v)
		l.process(d, name, d.Name.Name, &binding{name: d.Index.Name, value: v, template: true})
		if v == hi {
			break
		}
	}
}

// ---------------------------------------------------------------------------
// Properties: lowered last, as they name the labels of built processes.

// procRef resolves the process named by id (and index, for an instance of
// a template) to its index in sys.Procs and its name; false after an
// error.
func (l *lowerer) procRef(id *Ident, index Expr) (int, string, bool) {
	name := id.Name
	d := l.procDecl[name]
	switch {
	case d == nil:
		l.errorf(id.Pos(), "unknown process %s", name)
		return -1, "", false
	case index == nil && d.Index != nil:
		l.errorf(id.Pos(), "process %s is a template: name an instance, as in %s[0]", name, name)
		return -1, "", false
	case index != nil && d.Index == nil:
		l.errorf(id.Pos(), "process %s is not a template", name)
		return -1, "", false
	}
	if index != nil {
		v, ok := l.constExpr(index, "a process index")
		if !ok {
			return -1, "", false
		}
		name = fmt.Sprintf("%s[%d]", name, v)
	}
	pi := l.sys.ProcIndex(name)
	if pi < 0 {
		l.errorf(id.Pos(), "unknown process %s", name)
		return -1, "", false
	}
	return pi, name, true
}

// forbidden adds the bad state of d, unless one of its items is wrong.
func (l *lowerer) forbidden(d *ForbiddenDecl) {
	b := BadState{Pos: d.Pos()}
	ok := true
	seen := map[int]bool{}
	for _, it := range d.Items {
		pi, name, good := l.procRef(it.Proc, it.Index)
		if !good {
			ok = false
			continue
		}
		if seen[pi] {
			l.errorf(it.Proc.Pos(), "process %s appears twice in forbidden", name)
			ok = false
			continue
		}
		seen[pi] = true
		loc, has := l.sys.Procs[pi].Labels[it.Label.Name]
		if !has {
			l.errorf(it.Label.Pos(), "process %s has no label %s", name, it.Label.Name)
			ok = false
			continue
		}
		b.Procs = append(b.Procs, pi)
		b.Locs = append(b.Locs, loc)
	}
	if ok {
		l.sys.Bad = append(l.sys.Bad, b)
	}
}

// mutex adds one bad state per unordered pair of processes with the label.
func (l *lowerer) mutex(d *MutexDecl) {
	var procs []int
	for i, p := range l.sys.Procs {
		if _, ok := p.Labels[d.Label.Name]; ok {
			procs = append(procs, i)
		}
	}
	if len(procs) < 2 {
		l.errorf(d.Label.Pos(), "mutex %s: %d process(es) have label %s, at least two are needed", d.Label.Name, len(procs), d.Label.Name)
		return
	}
	for a := 0; a < len(procs); a++ {
		for b := a + 1; b < len(procs); b++ {
			pa, pb := l.sys.Procs[procs[a]], l.sys.Procs[procs[b]]
			l.sys.Bad = append(l.sys.Bad, BadState{
				Procs: []int{procs[a], procs[b]},
				Locs:  []Loc{pa.Labels[d.Label.Name], pb.Labels[d.Label.Name]},
				Pos:   d.Pos(),
			})
		}
	}
}
