package cegar

import (
	"strings"

	"fencer/expr"
	"fencer/kabs"
)

// Predicate images: a refinement adds the images of each new predicate
// under every automorphism of the system (orbit.go): the locals of process
// a (and its buffer slots and last-write values) become those of π(a), the
// shared variables σ(x). What one process needs, the others need at the
// same point of their own copy of the code, and one counterexample then
// refines for all of them (the paper's parameterisation over processes).
// Predicates are only precision, so an image that is not needed costs
// queries, never soundness; without automorphisms (Bakery's tie-break
// compares the constants j < i) there are no images.

// procIndex returns the index of a process by name in the group's system.
func (g *group) procIndex(name string) int {
	if g.byName == nil {
		g.byName = make(map[string]int, len(g.sys.Procs))
		for i, p := range g.sys.Procs {
			g.byName[p.Name] = i
		}
	}
	if i, ok := g.byName[name]; ok {
		return i
	}
	return -1
}

// renameShared renames a shared variable by a (unchanged when not one).
func (g *group) renameShared(name string, a *auto) string {
	if m, ok := a.vars[name]; ok {
		return m
	}
	return name
}

// rename renames one variable of X by a: a shared variable or a local by
// the renaming, a buffer slot or last-write value of process p (read by
// kabs.ParseVar) to that of π(p) with its shared variable renamed.
func (g *group) rename(name string, a *auto) string {
	info := kabs.ParseVar(name)
	switch info.Kind {
	case kabs.VarProgram, kabs.VarLocal:
		if m, ok := a.vars[name]; ok {
			return m
		}
		return name
	case kabs.VarStep:
		return name
	}
	p := g.procIndex(info.Proc)
	if p < 0 {
		return name
	}
	q := g.sys.Procs[a.proc[p]].Name
	switch info.Kind {
	case kabs.VarSlot:
		return kabs.SlotVar(q, info.Slot)
	case kabs.VarSlotX:
		return kabs.SlotVarX(q, g.renameShared(info.Shared, a), info.Slot)
	case kabs.VarLW:
		return kabs.LWVar(q, g.renameShared(info.Shared, a))
	}
	return name
}

// images returns f renamed by each automorphism (f itself not included).
func (g *group) images(f expr.Expr) []expr.Expr {
	if g == nil {
		return nil
	}
	out := make([]expr.Expr, 0, len(g.elems))
	for _, a := range g.elems {
		out = append(out, g.image(f, a))
	}
	return out
}

// image returns f with its variables renamed by a.
func (g *group) image(f expr.Expr, a *auto) expr.Expr {
	return expr.Rename(f, func(n string) expr.Expr {
		if m := g.rename(n, a); m != n {
			return expr.V(m)
		}
		return nil
	})
}

// tailProcVar splits the name of a tail-set position of domains.Layout
// ("tail P x") into its process and variable.
func tailProcVar(name string) (proc, x string, ok bool) {
	rest, ok := strings.CutPrefix(name, "tail ")
	if !ok {
		return "", "", false
	}
	proc, x, ok = strings.Cut(rest, " ")
	return proc, x, ok
}
