package csprint

import (
	"fmt"
	"regexp"
	"sort"
	"strconv"

	"fencer/cs"
)

// A reader may name a process as a template instance ("worker[0]") without
// a template: the C reader does so for a thread function that main starts
// several times, each start a process of its own (its argument may differ).
// Such a name is no identifier, and "process worker[0] {" is no .cs. So
// that the printed program reads back with the same semantics, the
// instances of one name are printed
//
//   - as one template "process worker[i in 0..N-1]" when they are worker[0]
//     .. worker[N-1] and their bodies print the same (the index is a name
//     the bodies do not use, so it changes nothing in them): the processes
//     and their names are those of the reader;
//   - else each as a process of its own, "worker_0", "worker_1", ... (a
//     name no other process has), with the forbidden states renamed.

var instanceRE = regexp.MustCompile(`^([A-Za-z_][A-Za-z0-9_]*)\[(\d+)\]$`)

// instances returns prog with its instance-named processes made printable,
// sharing everything else with prog; prog itself is not changed.
func instances(prog *cs.Program) *cs.Program {
	groups := map[string][]*cs.ProcDecl{} // base name -> instances in order
	var bases []string
	names := map[string]bool{}
	for _, d := range prog.Decls {
		pd, ok := d.(*cs.ProcDecl)
		if !ok {
			continue
		}
		names[pd.Name.Name] = true
		if m := instanceRE.FindStringSubmatch(pd.Name.Name); m != nil && pd.Index == nil {
			if groups[m[1]] == nil {
				bases = append(bases, m[1])
			}
			groups[m[1]] = append(groups[m[1]], pd)
		}
	}
	if len(bases) == 0 {
		return prog
	}
	replace := map[*cs.ProcDecl]*cs.ProcDecl{} // nil: printed by the template
	rename := map[string]string{}              // "worker[1]" -> "worker_1"
	for _, base := range bases {
		list := groups[base]
		if tmpl := template(base, list); tmpl != nil {
			for i, pd := range list {
				replace[pd] = nil
				if i == 0 {
					replace[pd] = tmpl
				}
			}
			continue
		}
		for _, pd := range list {
			m := instanceRE.FindStringSubmatch(pd.Name.Name)
			name := m[1] + "_" + m[2]
			for names[name] {
				name += "_"
			}
			names[name] = true
			rename[pd.Name.Name] = name
			cp := *pd
			cp.Name = &cs.Ident{NamePos: pd.Name.NamePos, Name: name}
			replace[pd] = &cp
		}
	}
	out := &cs.Program{}
	for _, d := range prog.Decls {
		switch d := d.(type) {
		case *cs.ProcDecl:
			if r, ok := replace[d]; ok {
				if r != nil {
					out.Decls = append(out.Decls, r)
				}
				continue
			}
		case *cs.ForbiddenDecl:
			if len(rename) > 0 {
				cp := *d
				cp.Items = nil
				for _, it := range d.Items {
					name := it.Proc.Name
					if it.Index != nil {
						name += "[" + expr(it.Index) + "]"
					}
					if r, ok := rename[name]; ok {
						it = &cs.ProcLabel{Proc: &cs.Ident{NamePos: it.Proc.NamePos, Name: r}, At: it.At, Label: it.Label}
					}
					cp.Items = append(cp.Items, it)
				}
				out.Decls = append(out.Decls, &cp)
				continue
			}
		}
		out.Decls = append(out.Decls, d)
	}
	return out
}

// template returns the template "base[i in 0..N-1]" that list, the
// processes base[k], amounts to, or nil when it is not one: the indices
// are not 0..N-1 or the bodies differ.
func template(base string, list []*cs.ProcDecl) *cs.ProcDecl {
	idx := make([]int, len(list))
	for i, pd := range list {
		k, err := strconv.Atoi(instanceRE.FindStringSubmatch(pd.Name.Name)[2])
		if err != nil {
			return nil
		}
		idx[i] = k
	}
	sorted := append([]int(nil), idx...)
	sort.Ints(sorted)
	for i, k := range sorted {
		if k != i {
			return nil
		}
	}
	bodies := make([]string, len(list))
	for i, pd := range list {
		p := &printer{}
		p.stmt(pd.Body)
		bodies[i] = p.b.String()
		if bodies[i] != bodies[0] {
			return nil
		}
	}
	// An index name that no word of the body is: it shadows nothing.
	index := "i"
	for n := 0; regexp.MustCompile(`\b` + index + `\b`).MatchString(bodies[0]); n++ {
		index = fmt.Sprintf("i%d", n)
	}
	first := list[0]
	for _, pd := range list {
		if pd.Name.Name == base+"[0]" {
			first = pd
		}
	}
	pos := first.Name.NamePos
	return &cs.ProcDecl{
		Process: first.Process,
		Name:    &cs.Ident{NamePos: pos, Name: base},
		Index:   &cs.Ident{NamePos: pos, Name: index},
		Lo:      &cs.IntLit{ValuePos: pos, Lit: "0"},
		Hi:      &cs.IntLit{ValuePos: pos, Lit: strconv.Itoa(len(list) - 1), Value: int64(len(list) - 1)},
		Body:    first.Body,
	}
}
