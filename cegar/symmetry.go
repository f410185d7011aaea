package cegar

import (
	"strconv"
	"strings"

	"fencer/cs"
	"fencer/expr"
	"fencer/kabs"
)

// symmetry renames the variables of a predicate as a permutation of the
// instances of a process template would: the locals of P[a] (and its buffer
// slots and last-write values) become those of P[π(a)], and the elements
// a of the shared arrays indexed by process (length N, the number of
// instances P[0] … P[N-1]) become the elements π(a). A refinement adds the
// images of each new predicate under every permutation: what one process
// needs, the others need at the same point of their own copy of the code,
// and one counterexample then refines for all of them (the paper's
// parameterisation over processes). Predicates are only precision, so an
// image that a process does not need (the template is not symmetric, as
// Bakery's tie-break) costs queries, never soundness.
type symmetry struct {
	tmpl   string          // the template, "P"
	n      int             // its instances P[0] … P[n-1]
	arrays map[string]bool // shared arrays of length n, indexed 0..n-1
	perms  [][]int         // the permutations of 0..n-1 but the identity
}

// maxSymmetric bounds the instances whose permutations are all used
// (n! images per predicate); a larger template uses the rotations only.
const maxSymmetric = 4

// newSymmetry returns the symmetry of the one template of sys with at
// least two instances, or nil (no template, or several).
func newSymmetry(sys *cs.System) *symmetry {
	count := map[string]int{}
	for _, p := range sys.Procs {
		if p.Template != "" {
			count[p.Template]++
		}
	}
	var s *symmetry
	for t, n := range count {
		if n < 2 {
			continue
		}
		if s != nil {
			return nil
		}
		s = &symmetry{tmpl: t, n: n}
	}
	if s == nil {
		return nil
	}
	// The instances must be P[0] … P[n-1].
	seen := make([]bool, s.n)
	for _, p := range sys.Procs {
		if p.Template != s.tmpl {
			continue
		}
		i, ok := s.instance(p.Name)
		if !ok || seen[i] {
			return nil
		}
		seen[i] = true
	}
	elems := map[string][]bool{}
	for _, d := range sys.Shared {
		base, i, ok := indexed(d.Name)
		if !ok {
			continue
		}
		if elems[base] == nil {
			elems[base] = []bool{}
		}
		for len(elems[base]) <= i {
			elems[base] = append(elems[base], false)
		}
		elems[base][i] = true
	}
	s.arrays = map[string]bool{}
	for base, in := range elems {
		if len(in) != s.n {
			continue
		}
		full := true
		for _, ok := range in {
			full = full && ok
		}
		if full {
			s.arrays[base] = true
		}
	}
	if s.n <= maxSymmetric {
		s.perms = permutations(s.n)
	} else {
		for r := 1; r < s.n; r++ {
			p := make([]int, s.n)
			for i := range p {
				p[i] = (i + r) % s.n
			}
			s.perms = append(s.perms, p)
		}
	}
	if !s.holds(sys) {
		return nil
	}
	return s
}

// holds reports whether every permutation maps the system onto itself:
// the automaton of P[a], renamed, is that of P[π(a)] (same edges in the
// same order), and the elements of the process-indexed arrays start
// alike. A template whose instances differ (Bakery's tie-break j < i
// compares constants) is not symmetric: images of a predicate that one
// process needs need not be needed by the others, and cost posts.
func (s *symmetry) holds(sys *cs.System) bool {
	inst := make([]*cs.Process, s.n)
	for _, p := range sys.Procs {
		if i, ok := s.instance(p.Name); ok && p.Template == s.tmpl {
			inst[i] = p
		}
	}
	init := map[string]cs.Init{}
	for _, d := range sys.Shared {
		init[d.Name] = d.Init
	}
	for _, perm := range s.perms {
		for name, v := range init {
			if init[s.shared(name, perm)] != v {
				return false
			}
		}
		for a, p := range inst {
			q := inst[perm[a]]
			if len(p.Edges) != len(q.Edges) || p.NumLocs != q.NumLocs || len(p.Locals) != len(q.Locals) {
				return false
			}
			for i, l := range p.Locals {
				m := q.Locals[i]
				if s.rename(l.Name, perm) != m.Name || l.Init != m.Init {
					return false
				}
			}
			for i, ed := range p.Edges {
				fd := q.Edges[i]
				if ed.From != fd.From || ed.To != fd.To || s.opKey(ed.Op, perm) != s.opKey(fd.Op, nil) {
					return false
				}
			}
		}
	}
	return true
}

// opKey writes op with its variables renamed by perm (nil: as they are).
func (s *symmetry) opKey(op cs.Op, perm []int) string {
	rn := func(n string) string {
		if perm == nil || n == "" {
			return n
		}
		return s.rename(n, perm)
	}
	var b strings.Builder
	b.WriteString(strconv.Itoa(int(op.Kind)))
	b.WriteString("|" + rn(op.Local) + "|" + rn(op.Shared) + "|")
	if op.Val != nil {
		v := op.Val
		if perm != nil {
			v = s.image(v, perm)
		}
		b.WriteString(expr.Key(v))
	}
	if op.Fence == cs.StoreFence {
		b.WriteString("|store")
	}
	for _, x := range op.Body {
		b.WriteString("{" + s.opKey(x, perm) + "}")
	}
	return b.String()
}

// permutations returns the permutations of 0..n-1 but the identity.
func permutations(n int) [][]int {
	var out [][]int
	p := make([]int, n)
	used := make([]bool, n)
	var rec func(i int)
	rec = func(i int) {
		if i == n {
			for j, v := range p {
				if v != j {
					out = append(out, append([]int(nil), p...))
					return
				}
			}
			return
		}
		for v := 0; v < n; v++ {
			if !used[v] {
				used[v], p[i] = true, v
				rec(i + 1)
				used[v] = false
			}
		}
	}
	rec(0)
	return out
}

// indexed splits "a[3]" into "a" and 3.
func indexed(name string) (string, int, bool) {
	if !strings.HasSuffix(name, "]") {
		return "", 0, false
	}
	open := strings.LastIndexByte(name, '[')
	if open <= 0 {
		return "", 0, false
	}
	i, err := strconv.Atoi(name[open+1 : len(name)-1])
	if err != nil || i < 0 {
		return "", 0, false
	}
	return name[:open], i, true
}

// instance returns a of a process name "P[a]".
func (s *symmetry) instance(name string) (int, bool) {
	base, i, ok := indexed(name)
	if !ok || base != s.tmpl || i >= s.n {
		return 0, false
	}
	return i, true
}

// shared renames a shared variable (an element of an indexed array).
func (s *symmetry) shared(name string, perm []int) string {
	if base, i, ok := indexed(name); ok && s.arrays[base] && i < s.n {
		return base + "[" + strconv.Itoa(perm[i]) + "]"
	}
	return name
}

// rename renames one variable: a local "P[a].x", a buffer slot or
// last-write value of P[a] (read by kabs.ParseVar, whose shared variable is
// renamed too), or a shared variable.
func (s *symmetry) rename(name string, perm []int) string {
	info := kabs.ParseVar(name)
	a, ok := s.instance(info.Proc)
	if !ok {
		return s.shared(name, perm)
	}
	p := s.tmpl + "[" + strconv.Itoa(perm[a]) + "]"
	switch info.Kind {
	case kabs.VarLocal:
		return p + name[len(info.Proc):]
	case kabs.VarSlot:
		return kabs.SlotVar(p, info.Slot)
	case kabs.VarSlotX:
		return kabs.SlotVarX(p, s.shared(info.Shared, perm), info.Slot)
	case kabs.VarLW:
		return kabs.LWVar(p, s.shared(info.Shared, perm))
	}
	return name
}

// images returns f renamed by each permutation (f itself not included).
func (s *symmetry) images(f expr.Expr) []expr.Expr {
	if s == nil {
		return nil
	}
	out := make([]expr.Expr, 0, len(s.perms))
	for _, perm := range s.perms {
		out = append(out, s.image(f, perm))
	}
	return out
}

// image returns f with its variables renamed by perm.
func (s *symmetry) image(f expr.Expr, perm []int) expr.Expr {
	return expr.Rename(f, func(n string) expr.Expr {
		if m := s.rename(n, perm); m != n {
			return expr.V(m)
		}
		return nil
	})
}
